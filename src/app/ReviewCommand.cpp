// `semis review [FILE] [--seconds S] [--json]`: every move of a game record (docs/notation.md; FILE
// or standard input) valued by the search within S seconds a position (default 0.08), beside the
// best move, marked by the value it gave away (study/Review.hpp).

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "app/Commands.hpp"
#include "app/Args.hpp"
#include "rules/Notation.hpp"
#include "study/Review.hpp"
#include "views/Study.hpp"

namespace semis::app {

int reviewCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"seconds"}, {"json"});
  if (!args) return complain("review", args.error().message);
  std::string text;
  if (args->positional().empty() || args->positional().front() == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(args->positional().front(), std::ios::binary);
    if (!in) return complain("review", "cannot read " + args->positional().front());
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto record = parseRecord(text);
  if (!record) return complain("review", record.error().message);
  study::ReviewLimits limits;
  try {
    if (args->has("seconds")) limits.secondsPerPosition = std::stod(args->get("seconds"));
  } catch (const std::exception&) {
    limits.secondsPerPosition = -1;
  }
  if (!(limits.secondsPerPosition > 0 && limits.secondsPerPosition <= 600)) {
    return complain("review", "--seconds S takes a positive number");
  }
  const Game& game = record->game;
  engine::Search search(game.rules(), 64);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = study::review(search, game, limits);
  if (!r) return complain("review", r.error().message, kExitFailure);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (args->has("json")) {
    std::printf("%s\n", views::reviewJson(*r).dump().c_str());
    return kExitOk;
  }
  for (std::size_t i = 0; i < r->plies.size(); ++i) {
    const study::PlyReview& p = r->plies[i];
    std::printf("%3zu. %c %d  %+d%s", i + 1, sideLetter(p.mover), p.move, p.played, p.playedExact ? "" : "?");
    if (p.move != p.best) std::printf("  best %d %+d%s", p.best, p.bestValue, p.bestExact ? "" : "?");
    std::printf("  %s%s\n", std::string(views::markCode(p.mark)).c_str(),
                static_cast<int>(i) == r->turning ? "  <- the game was lost here" : "");
  }
  std::printf("(values for the mover; '?': the search's estimate, not proven)\n%zu moves in %.2f s, %llu nodes\n",
              r->plies.size(), seconds, static_cast<unsigned long long>(r->nodes));
  return kExitOk;
}

extern const Command kReviewCommand{
    "review", "every move of a game record valued",
    "usage: semis review [FILE] [--seconds S] [--json]\n"
    "  Every move of a game record (docs/notation.md; FILE, or standard input) valued beside the best\n"
    "  move, marked by the value it gave away.\n"
    "  --seconds S   the search's time for each position (default 0.08)\n",
    reviewCommand};

}  // namespace semis::app
