#pragma once
// A game played to its end by random legal moves (the same game for the same seed).

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "rules/Game.hpp"

namespace semis::study {

inline Game randomGame(const Rules& rules, unsigned seed) {
  Game game(rules);
  std::mt19937 rng(seed);
  while (!game.over()) {
    const std::uint32_t mask = game.board().legalMask(game.position());
    std::vector<int> legal;
    for (std::uint32_t m = mask; m != 0; m &= m - 1) legal.push_back(std::countr_zero(m) + 1);
    EXPECT_TRUE(game.play(legal[rng() % legal.size()]));
  }
  return game;
}

}  // namespace semis::study
