#pragma once
// The daily endgame challenge: for each day and rule set, one endgame the solver has proved, the
// same for every visitor. The player takes the side to move against the perfect player and must
// reach the position's proven value; every move that keeps it is accepted.
//
// A day's puzzle is a function of the rules and the date alone (`semis daily` prints it): games are
// generated from the start by two seeded beginners (engine Level::Easy, a seed from the rules and
// the day) until few seeds are left, and the first candidate that passes the checks (a proven
// win or draw for the side to move, moves that throw it away, more than one real decision on the
// best line, and not the first grab a beginner would make) is the day's. The server keeps the
// puzzles it has served and passes them as `seen`, so a position never comes back (docs/study.md).

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/Egdb.hpp"
#include "engine/Search.hpp"

namespace semis::study {

// Days since 1970-01-01 (UTC), from "YYYY-MM-DD" (a real date of years 2000..2200).
[[nodiscard]] Result<long long> parseDay(std::string_view text);
[[nodiscard]] std::string dayText(long long day);

struct Puzzle {
  long long day = 0;
  Position position;
  int value = 0;          // proven, for the side to move (the player)
  std::vector<int> line;  // a best line to the end, both sides' moves (lowest best house each time)
  int decisions = 0;      // the player's turns on the line (docs/notation.md: a sowing and those its extra
                          // turns add) in which some legal move gives value away
  int candidate = 0;      // which generated game gave it (0-based)
};

// The rule sets with a daily puzzle: those whose endgames the search proves without history rules,
// and those with a repetition rule whose endgame tables are built by retrograde analysis (Awalé):
// their puzzles are judged by a table (dailyTableSeeds). Al-manqala's no-capture split is in
// neither the search nor the tables: it has none.
[[nodiscard]] bool hasDaily(const Rules& rules);

// The seeds of the endgame table a daily of these rules is judged by, 0 when the search alone
// proves its endgames. The bare game of such rules cycles, so the search above a table proves few
// positions; their puzzles have at most this many seeds in the houses, every value the table's.
// Small enough that the page builds the same table in its own core in a fraction of a second.
[[nodiscard]] int dailyTableSeeds(const Rules& rules);

// The tables dailies are judged by, built on first use (Awalé's 8-seed table: about 1 M entries,
// 0.3 s); the server and `semis daily` keep one. Thread-safe.
class DailyTables {
 public:
  // The table for these rules, or nullptr when they need none (or, never in practice, the build
  // failed: the puzzle then says so). Valid as long as this object.
  [[nodiscard]] const engine::Egdb* find(const Rules& rules);

 private:
  std::mutex mu_;
  std::vector<std::pair<Rules, std::unique_ptr<engine::Egdb>>> tables_;
};

// Error when the rules have none, when they need a table and `table` is not one that covers
// dailyTableSeeds(rules), or (in practice never) no candidate passes within the attempts.
[[nodiscard]] Result<Puzzle> dailyPuzzle(const Rules& rules, long long day,
                                         const std::function<bool(const Position&)>& seen = {},
                                         const engine::Egdb* table = nullptr);

// The player's moves checked against the proven values, the opponent's replies too (they must be
// best: the perfect player's). `moves` alternate as the position's turns go (extra turns included)
// and must reach the end of the game, or stop at the first move that gives value away. They are
// played as a game from the puzzle's position (rules/Game.hpp), as the page plays them: under a
// repetition rule a line of moves that each keep the value can still come back to a position and
// end in the rule's split below the value; the player's last move then gave it away.
struct Attempt {
  bool solved = false;      // every player's move kept the value, and the game is over
  int failedAt = -1;        // the index in `moves` of the player's first move that gave value away
  int bestAtFailure = 0;    // a best move there
  int result = 0;           // final store difference for the player when the game ended, else 0
};
[[nodiscard]] Result<Attempt> checkAttempt(const Rules& rules, const Puzzle& puzzle, const std::vector<int>& moves,
                                           const engine::Egdb* table = nullptr);

// The exact value of every legal move (within a node budget large enough for any daily endgame).
[[nodiscard]] Result<std::vector<engine::MoveValue>> exactValues(engine::Search& search, const Position& pos);

}  // namespace semis::study
