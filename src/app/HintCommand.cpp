// `semis hint --rules R [--position P] [--seconds S] [--json]`: the recommended move, its value
// (exact when proven) and the reasons, read off the position. S is the whole budget (default 1).

#include <bit>
#include <cstdio>
#include <string>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Hint.hpp"
#include "views/Hints.hpp"

namespace semis::app {

namespace {

// The engine gives codes and numbers; the command line words them in English (the web client has
// its own words for the same codes).
std::string seeds(int n) { return std::to_string(n) + (n == 1 ? " seed" : " seeds"); }

std::string verdictWords(const engine::Verdict& v) {
  switch (v.code) {
    case engine::VerdictCode::WinsBy:
      return "wins by " + std::to_string(v.n) + " with best play";
    case engine::VerdictCode::Draws:
      return "draws with best play";
    case engine::VerdictCode::LosesByAtMost:
      return "loses by " + std::to_string(v.n) + " with best play (the best defence)";
    case engine::VerdictCode::Estimate:
      return "about " + std::string(v.n > 0 ? "+" : "") + std::to_string(v.n) + " (not proven)";
  }
  return "?";
}

std::string reasonWords(const engine::MoveReason& r) {
  switch (r.code) {
    case engine::Reason::ExtraTurn:
      return "ends in your store: you play again";
    case engine::Reason::Captures:
      return "captures " + seeds(r.n);
    case engine::Reason::Protects:
      return "moves your house " + std::to_string(r.house) + " of " + seeds(r.n) +
             " out of reach of the opponent's capture";
    case engine::Reason::StopsCapture:
      return "stops the opponent capturing your house " + std::to_string(r.house) + " of " + seeds(r.n);
    case engine::Reason::NoExtraTurnForOpponent:
      return "avoids giving the opponent an extra turn";
    case engine::Reason::Feeds:
      return "feeds the opponent, as the rules require";
    case engine::Reason::ChainCaptures:
      return "captures " + seeds(r.n) + " from " + std::to_string(r.houses) + " houses in a row";
    case engine::Reason::GrandSlamTakesNothing:
      return "a grand slam: it would take every seed the opponent has, so it captures nothing (" + seeds(r.n) +
             " stay)";
    case engine::Reason::GrandSlamAvoided:
      return "not house " + std::to_string(r.house) + ": taking all " + seeds(r.n) +
             " of the opponent would be a grand slam, which captures nothing";
  }
  return "?";
}

}  // namespace

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
  std::printf("play house %d: %s\n", h->move, verdictWords(h->verdict).c_str());
  for (const auto& r : h->reasons) std::printf("  - %s\n", reasonWords(r).c_str());
  if (h->reasons.empty()) std::printf("  - the search rates it best\n");
  for (const auto& mv : h->moves)
    std::printf("  move %d : %+d%s\n", mv.move, mv.value, mv.exact ? "" : " (not proven)");
  if (args->has("json")) {
    // The server's hint message without its type and game, plus the search's nodes.
    protocol::Json j = views::hintJson("", *h);
    j.erase("type");
    j.erase("game");
    j["nodes"] = h->nodes;
    std::printf("%s\n", j.dump().c_str());
  }
  return kExitOk;
}

extern const Command kHintCommand{
    "hint", "recommend a move and explain why",
    "usage: semis hint --rules R [--position P] [--seconds S] [--json]\n"
    "  The recommended move, its verdict (exact only when the position's value is proven, else an\n"
    "  estimate) and the reasons, read off the position.\n"
    "  --seconds S   the whole budget (default 1)\n"
    "  --json        the server's hint message, plus the nodes searched\n",
    hintCommand};

}  // namespace semis::app
