// `semis perft` counts the Kalah family on FastBoard: its counts must be the general Board's,
// from the start and from random positions of many rule variants, at every depth.

#include <gtest/gtest.h>

#include <random>

#include "RandomPlay.hpp"
#include "engine/FastPerft.hpp"
#include "rules/Perft.hpp"

namespace semis::engine {
namespace {

TEST(FastPerft, CountsLikeTheGeneralBoard) {
  std::mt19937 rng(24);
  for (const char* text : {"kalah", "kalah-club", "kalah,capture=empty", "kalah,capture=none", "kalah,end=on_turn",
                           "kalah,extra_turn=false", "kalah,houses=3,seeds=9", "kalah-club,houses=7,seeds=10",
                           "kalah,houses=4,seeds=2,end=on_turn,capture=empty"}) {
    auto rules = parseRules(text);
    ASSERT_TRUE(rules.has_value()) << text;
    ASSERT_TRUE(FastBoard::supports(*rules)) << text;
    const Board board(*rules);
    const FastBoard fast(*rules);
    for (int trial = 0; trial < 12; ++trial) {
      Position pos = board.start();
      const int plies = trial == 0 ? 0 : static_cast<int>(rng() % 30);
      for (int i = 0; i < plies && !pos.over; ++i) board.apply(pos, randomMove(board.legalMask(pos), rng));
      if (pos.over) continue;
      for (int depth = 1; depth <= 6; ++depth) {
        ASSERT_EQ(fastPerft(fast, fast.fromPosition(pos), depth), perft(board, pos, depth))
            << text << " " << board.toString(pos) << " depth " << depth;
      }
    }
  }
}

// The first counts of Kalah(6,4), as published for the general Board (docs/engine.md: depth 10).
TEST(FastPerft, KalahFromTheStart) {
  auto rules = parseRules("kalah");
  ASSERT_TRUE(rules.has_value());
  const FastBoard fast(*rules);
  const FastPos start = fast.fromPosition(Board(*rules).start());
  EXPECT_EQ(fastPerft(fast, start, 1), 6U);
  EXPECT_EQ(fastPerft(fast, start, 10), 13519607U);
}

}  // namespace
}  // namespace semis::engine
