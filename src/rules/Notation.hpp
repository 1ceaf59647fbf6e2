#pragma once
// Game records: a PGN-like text for whole games and matches (docs/notation.md describes it).
//
//   [Rules "kalah"]
//   [South "Ada"]
//   [North "Bao"]
//   [Result "1-0"]
//   [Score "30-18"]
//
//   1. 3+6 2. 5x4 3. 2 ... 1-0 {30-18}
//
// One turn per move number; the sowings of an extra turn are joined by '+'; a capture of N seeds is
// marked xN, a castle c, a relay cut ~; "--" is a pass, "swap" the pie rule, "split" an agreed share.
// A match of several sets writes "set K" before each set's turns.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/Game.hpp"

namespace semis {

using Tags = std::vector<std::pair<std::string, std::string>>;

struct Record {
  Tags tags;               // the tags other than the ones the printer derives (Rules, Position, Result, Score)
  Game game;
  std::string adjudicated; // a result given for an unfinished game (resignation, time, agreement), or empty
};

// The sowing as the record writes it: "3", "5x4", "2c", "6~".
[[nodiscard]] std::string sowingText(const Ply& ply);
[[nodiscard]] std::string printRecord(const Record& record);
[[nodiscard]] Result<Record> parseRecord(std::string_view text);

}  // namespace semis
