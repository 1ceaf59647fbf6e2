#pragma once
// The golden tests' helper: play moves from a position and show what a player sees.

#include <initializer_list>
#include <string>

#include "rules/Board.hpp"
#include "rules/Text.hpp"

namespace semis::golden {

// For each move, the event trace (describeTrace) and the board after it (drawBoard); then the final
// position string. A leading newline lets the expected texts start on their own line.
inline std::string scene(const char* position, std::initializer_list<int> moves) {
  Rules rules;
  auto pos = parsePosition(position, &rules);
  if (!pos) return "bad position: " + pos.error().message;
  const Board board(rules);
  std::string out;
  for (int m : moves) {
    Trace trace;
    if (auto r = board.play(*pos, m, &trace); !r) return out + "illegal: " + r.error().message;
    out += describeTrace(board, trace) + drawBoard(board, *pos);
  }
  return "\n" + out + board.toString(*pos) + "\n";
}

}  // namespace semis::golden
