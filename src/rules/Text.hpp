#pragma once
// The board drawn as the players see it, as plain text: the terminal game and the golden tests print it.
//
//        6   5   4   3   2   1     North
//      [ 4][ 4][ 4][ 4][ 4][ 4]
//   0                            0
//      [ 4][ 4][ 4][ 4][ 4][ 4]
//        1   2   3   4   5   6     South to move
//
// Counter-clockwise games put South's store on the right; clockwise ones (Congkak) on the left.
// A castle is drawn {n} instead of [n]; boards without stores show the captured counts at the ends.

#include <string>

#include "rules/Board.hpp"

namespace semis {

[[nodiscard]] std::string drawBoard(const Board& board, const Position& pos);
// One line per event: "lift s3 (4)", "drop s4", "capture n2 (5) -> S store", ...
[[nodiscard]] std::string describeTrace(const Board& board, const Trace& trace);
// "s3", "n6", "S store": a pit as the trace descriptions name it.
[[nodiscard]] std::string pitName(const Board& board, int pit);

}  // namespace semis
