#pragma once
// Random legal moves, for the engine tests that play games to reach varied positions. The draw
// from `rng` is the same for every caller, so a seed names the same positions in every test.

#include <bit>
#include <cstdint>
#include <random>

#include "rules/Board.hpp"

namespace semis::engine {

// A house picked uniformly among the set bits of `mask` (bit h-1 for house h).
inline int randomMove(std::uint32_t mask, std::mt19937& rng) {
  for (int k = static_cast<int>(rng() % static_cast<unsigned>(std::popcount(mask))); k > 0; --k) mask &= mask - 1;
  return std::countr_zero(mask) + 1;
}

// Plays one random legal move of pos (not over).
inline void playRandomMove(const Board& board, Position& pos, std::mt19937& rng) {
  board.apply(pos, randomMove(board.legalMask(pos), rng));
}

}  // namespace semis::engine
