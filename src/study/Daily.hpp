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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The rule sets with a daily puzzle: the search must prove their endgames without history rules
// (Al-manqala's repetition and no-capture splits are not in the search).
[[nodiscard]] bool hasDaily(const Rules& rules);

// Error when the rules have none, or (in practice never) no candidate passes within the attempts.
[[nodiscard]] Result<Puzzle> dailyPuzzle(const Rules& rules, long long day,
                                         const std::function<bool(const Position&)>& seen = {});

// The player's moves checked against the proven values, the opponent's replies too (they must be
// best: the perfect player's). `moves` alternate as the position's turns go (extra turns included)
// and must reach the end of the game, or stop at the first move that gives value away.
struct Attempt {
  bool solved = false;      // every player's move kept the value, and the game is over
  int failedAt = -1;        // the index in `moves` of the player's first move that gave value away
  int bestAtFailure = 0;    // a best move there
  int result = 0;           // final store difference for the player when the game ended, else 0
};
[[nodiscard]] Result<Attempt> checkAttempt(const Rules& rules, const Puzzle& puzzle, const std::vector<int>& moves);

// The exact value of every legal move (within a node budget large enough for any daily endgame).
[[nodiscard]] Result<std::vector<engine::MoveValue>> exactValues(engine::Search& search, const Position& pos);

}  // namespace semis::study
