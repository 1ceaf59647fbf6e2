// The solver on several threads (lazy SMP over one shared table) must prove the same values as on
// one: random mid-game positions of small and full-size Kalah boards, solved exactly both ways.
// With one thread there is no helper and no marking, so the one-thread values are the reference.

#include <gtest/gtest.h>

#include <random>

#include "RandomPlay.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

TEST(SolverThreads, ProveTheSameValuesAsOneThread) {
  std::mt19937 rng(11);
  for (const char* text : {"kalah,houses=4,seeds=4", "kalah-club,houses=5,seeds=3", "kalah,capture=empty", "kalah"}) {
    auto rules = parseRules(text);
    ASSERT_TRUE(rules.has_value()) << text;
    const Board board(*rules);
    Search one(*rules, 16);
    Search many(*rules, 16);
    many.setThreads(3);
    int compared = 0;
    for (int game = 0; game < 40 && compared < 6; ++game) {
      Position pos = board.start();
      // Full-size boards are played down to 26 seeds in the houses, small ones a few moves in.
      const int keep = rules->houses == 6 ? 26 : 2 * rules->houses * rules->seeds - 6;
      while (!pos.over && board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North) > keep) {
        playRandomMove(board, pos, rng);
      }
      if (pos.over) continue;
      one.clear();
      many.clear();
      const SearchResult a = one.run(pos, Limits{});
      const SearchResult b = many.run(pos, Limits{});
      ASSERT_TRUE(a.exact && b.exact) << board.toString(pos);
      EXPECT_EQ(a.value, b.value) << text << " " << board.toString(pos);
      // The several-thread best move must be a best move: its own exact value is the root's.
      ASSERT_TRUE(board.isLegal(pos, b.bestMove));
      bool found = false;
      for (const MoveValue& mv : one.moveValues(pos, Limits{})) {
        if (mv.move == b.bestMove) {
          found = true;
          EXPECT_EQ(mv.value, a.value) << text << " " << board.toString(pos) << " move " << mv.move;
        }
      }
      EXPECT_TRUE(found);
      ++compared;
    }
    EXPECT_GE(compared, 3) << text;
  }
}

}  // namespace
}  // namespace semis::engine
