// `semis daily --rules R --date YYYY-MM-DD [--attempt M1,M2,...] [--json]`: the day's endgame
// challenge (study/Daily.hpp), the same the server gives that day unless the server has served the
// position before; with --attempt, the moves checked as the server checks a player's attempt.

#include <chrono>
#include <cstdio>
#include <sstream>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "study/Daily.hpp"
#include "views/Study.hpp"

namespace semis::app {

int dailyCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "date", "attempt"}, {"json"});
  if (!args) return complain("daily", args.error().message);
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("daily", setup.error().message);
  if (!args->has("date")) return complain("daily", "--date YYYY-MM-DD is required");
  auto day = study::parseDay(args->get("date"));
  if (!day) return complain("daily", day.error().message);
  const auto t0 = std::chrono::steady_clock::now();
  study::DailyTables tables;
  auto puzzle = study::dailyPuzzle(setup->rules, *day, {}, tables.find(setup->rules));
  if (!puzzle) return complain("daily", puzzle.error().message, kExitFailure);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Board board(setup->rules);
  if (args->has("attempt")) {
    std::vector<int> moves;
    std::stringstream in(args->get("attempt"));
    for (std::string item; std::getline(in, item, ',');) {
      try {
        moves.push_back(std::stoi(item));
      } catch (const std::exception&) {
        return complain("daily", "--attempt takes houses separated by commas");
      }
    }
    auto a = study::checkAttempt(setup->rules, *puzzle, moves, tables.find(setup->rules));
    if (!a) return complain("daily", a.error().message);
    if (a->solved) std::printf("solved: %+d\n", a->result);
    else std::printf("move %d gives value away: house %d keeps it\n", a->failedAt + 1, a->bestAtFailure);
    return a->solved ? kExitOk : kExitFailure;
  }
  if (args->has("json")) {
    std::printf("%s\n", views::puzzleJson(setup->rules, *puzzle, true).dump().c_str());
    return kExitOk;
  }
  std::printf("date      : %s\n", study::dayText(puzzle->day).c_str());
  std::printf("position  : %s\n", board.toString(puzzle->position).c_str());
  std::printf("value     : %+d for %s (exact)\n", puzzle->value, puzzle->position.toMove == Side::South ? "South" : "North");
  std::printf("line      :");
  for (const int m : puzzle->line) std::printf(" %d", m);
  std::printf("\ndecisions : %d\ncandidate : %d\ntime      : %.3f s\n", puzzle->decisions, puzzle->candidate, seconds);
  return kExitOk;
}

extern const Command kDailyCommand{
    "daily", "the daily endgame challenge of a date",
    "usage: semis daily --rules R --date YYYY-MM-DD [--attempt M1,M2,...] [--json]\n"
    "  The day's endgame challenge (docs/study.md); with --attempt, the moves (both sides', in turn)\n"
    "  checked as the server checks a player's attempt.\n",
    dailyCommand};

}  // namespace semis::app
