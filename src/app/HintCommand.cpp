// `semis hint --rules R [--position P] [--seconds S] [--json]`: the recommended move, its value
// (exact when proven) and the reasons, read off the position. S is the whole budget (default 1).

#include <bit>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Hint.hpp"

namespace semis::app {

int hintCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "position", "seconds"}, {"json"});
  if (!args) return complain("hint", args.error().message);
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("hint", setup.error().message);
  double seconds = 1.0;
  try {
    if (args->has("seconds")) seconds = std::stod(args->get("seconds"));
  } catch (const std::exception&) {
    seconds = -1;
  }
  if (!(seconds > 0 && seconds <= 3600)) return complain("hint", "--seconds S takes a positive number");
  const Position pos = setup->start();
  engine::Search search(setup->rules, 64);
  const int legal = std::popcount(search.board().legalMask(pos));
  engine::Limits limits;
  limits.seconds = seconds / (legal > 0 ? legal : 1);
  auto h = engine::hint(search, pos, limits);
  if (!h) return complain("hint", h.error().message);
  std::printf("play house %d: %s\n", h->move, h->verdict.c_str());
  for (const auto& r : h->reasons) std::printf("  - %s\n", r.c_str());
  for (const auto& mv : h->moves)
    std::printf("  move %d : %+d%s\n", mv.move, mv.value, mv.exact ? "" : " (not proven)");
  if (args->has("json")) {
    nlohmann::ordered_json j;
    j["move"] = h->move;
    j["value"] = h->value;
    j["exact"] = h->exact;
    j["verdict"] = h->verdict;
    j["reasons"] = h->reasons;
    auto arr = nlohmann::ordered_json::array();
    for (const auto& mv : h->moves) arr.push_back({{"move", mv.move}, {"value", mv.value}, {"exact", mv.exact}});
    j["moves"] = arr;
    j["nodes"] = h->nodes;
    std::printf("%s\n", j.dump().c_str());
  }
  return kExitOk;
}

}  // namespace semis::app
