#pragma once
// Perft on the Kalah-family kernel: the same count as semis::perft (rules/Perft.hpp), positions
// reached after exactly `depth` sowings, finished games counting nothing before that depth, for
// the rules FastBoard::supports. `semis perft` takes this path for them: a sowing is a few word
// additions here, against the general Board's pit-by-pit loop.

#include <bit>
#include <cstdint>

#include "engine/FastBoard.hpp"

namespace semis::engine {

// The moves of the player to move: the count of his nonempty houses (bytes above his row are 0).
[[nodiscard]] inline int fastMoveCount(const FastPos& p) {
  const std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  return std::popcount((((p.mine & low7) + low7) | p.mine) & ~low7);
}

// `pos` must not be finished (its mover has a move, as after any FastBoard::play that did not end
// the game); depth >= 1.
[[nodiscard]] inline std::uint64_t fastPerft(const FastBoard& board, const FastPos& pos, int depth) {
  if (depth == 1) return static_cast<std::uint64_t>(fastMoveCount(pos));
  std::uint64_t leaves = 0;
  FastMove mv;
  for (std::uint32_t m = FastBoard::legalMask(pos); m != 0; m &= m - 1) {
    FastPos child = pos;
    board.play(child, std::countr_zero(m) + 1, mv);
    if (mv.over) continue;  // a finished game has no moves: it counts nothing at depth >= 1
    leaves += depth == 2 ? static_cast<std::uint64_t>(fastMoveCount(child)) : fastPerft(board, child, depth - 1);
  }
  return leaves;
}

}  // namespace semis::engine
