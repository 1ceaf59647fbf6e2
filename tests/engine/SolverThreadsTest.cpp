// The solver with several searchers (threads over one shared table, fibers taking turns on a thread)
// must prove the same values as with one: random mid-game positions of small and full-size Kalah
// boards, solved exactly both ways. One thread with one fiber has no helper and no marking, so its
// values are the reference.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "RandomPlay.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

struct Searchers {
  int threads;
  int fibers;
};

class SolverSearchers : public ::testing::TestWithParam<Searchers> {};

TEST_P(SolverSearchers, ProveTheSameValuesAsOne) {
  std::mt19937 rng(11);
  for (const char* text : {"kalah,houses=4,seeds=4", "kalah-club,houses=5,seeds=3", "kalah,capture=empty", "kalah"}) {
    auto rules = parseRules(text);
    ASSERT_TRUE(rules.has_value()) << text;
    const Board board(*rules);
    Search one(*rules, 16);
    one.setThreads(1);
    one.setFibers(1);
    Search many(*rules, 16);
    many.setThreads(GetParam().threads);
    many.setFibers(GetParam().fibers);
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

INSTANTIATE_TEST_SUITE_P(Configurations, SolverSearchers,
                         ::testing::Values(Searchers{3, 1}, Searchers{1, 3}, Searchers{2, 2}), [](const auto& info) {
                           return std::to_string(info.param.threads) + "threads" + std::to_string(info.param.fibers) +
                                  "fibers";
                         });

// The main thread runs the warm-up's iterations alone, on its growing table, and the helper threads
// join at the exact search, so that it starts from the table one thread leaves (docs/engine.md,
// "Threads"): a search that stops within the warm-up's depth is then the one-thread search, node
// for node, whatever the thread count.
TEST(SolverThreads, TheWarmUpRunsOnTheMainThreadAlone) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  Limits limits;
  limits.depth = 12;
  Search one(rules, 16);
  one.setThreads(1);
  const SearchResult a = one.run(board.start(), limits);
  for (int run = 0; run < 3; ++run) {
    Search two(rules, 16);
    two.setThreads(2);
    const SearchResult b = two.run(board.start(), limits);
    EXPECT_EQ(b.nodes, a.nodes);
    EXPECT_EQ(b.value, a.value);
    EXPECT_EQ(b.bestMove, a.bestMove);
  }
}

// Fibers take turns in a fixed order, so on one thread a solve is repeatable node for node: the
// bench signature relies on it.
TEST(SolverFibers, OneThreadIsDeterministic) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  Position pos = board.start();
  std::mt19937 rng(5);
  while (board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North) > 30) playRandomMove(board, pos, rng);
  ASSERT_FALSE(pos.over);
  SearchResult first;
  for (int run = 0; run < 2; ++run) {
    Search search(rules, 16);
    search.setFibers(3);
    const SearchResult r = search.run(pos, Limits{});
    ASSERT_TRUE(r.exact);
    if (run == 0) {
      first = r;
      continue;
    }
    EXPECT_EQ(r.nodes, first.nodes);
    EXPECT_EQ(r.value, first.value);
    EXPECT_EQ(r.bestMove, first.bestMove);
  }
}

}  // namespace
}  // namespace semis::engine
