#pragma once
// Perft: the number of positions reached after exactly `depth` sowings (each sowing is one ply,
// extra turns included). Finished games before that depth count nothing, as in chess perft.

#include <bit>
#include <cstdint>

#include "rules/Board.hpp"

namespace semis {

inline std::uint64_t perft(const Board& board, const Position& pos, int depth) {
  const std::uint32_t mask = board.legalMask(pos);
  if (depth <= 1) return depth == 1 ? static_cast<std::uint64_t>(std::popcount(mask)) : 1;
  std::uint64_t leaves = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    Position child = pos;
    board.apply(child, std::countr_zero(m) + 1);
    leaves += perft(board, child, depth - 1);
  }
  return leaves;
}

}  // namespace semis
