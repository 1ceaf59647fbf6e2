// The solver against a plain exhaustive minimax (no table, no pruning, no bounds): two independent
// computations of the same game values must agree, on small boards of every preset.

#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <optional>
#include <random>

#include "RandomPlay.hpp"
#include "SmallRules.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

// The value for pos.toMove, or nullopt when the game is longer than `budget` plies (cycles).
std::optional<int> minimax(const Board& board, const Position& pos, int budget) {
  if (pos.over) {
    const Outcome o = board.outcome(pos);
    return pos.toMove == Side::South ? o.south - o.north : o.north - o.south;
  }
  if (budget == 0) return std::nullopt;
  std::optional<int> best;
  for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
    Position child = pos;
    board.apply(child, std::countr_zero(m) + 1);
    auto v = minimax(board, child, budget - 1);
    if (!v) return std::nullopt;
    const int mine = child.toMove == pos.toMove ? *v : -*v;
    if (!best || mine > *best) best = mine;
  }
  return best;
}

void compareFrom(const Rules& rules, int randomStarts, int minCompared = 4) {
  const Board board(rules);
  Search search(rules, 4);
  std::mt19937 rng(7);
  int compared = 0;
  for (int s = 0; s <= randomStarts; ++s) {
    Position pos = board.start();
    // A few random plies, so more than the start is compared.
    const int plies = s == 0 ? 0 : static_cast<int>(rng() % 6);
    for (int i = 0; i < plies && !pos.over; ++i) {
      playRandomMove(board, pos, rng);
    }
    if (pos.over) continue;
    const auto expected = minimax(board, pos, 40);
    if (!expected) continue;  // a cycle (or too long a game) in the bare board: nothing to compare
    search.clear();
    const SearchResult r = search.run(pos, Limits{});
    ASSERT_TRUE(r.exact) << board.toString(pos);
    EXPECT_EQ(r.value, *expected) << board.toString(pos);
    // The best move really achieves the value.
    Position child = pos;
    board.apply(child, r.bestMove);
    const auto after = minimax(board, child, 40);
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(child.toMove == pos.toMove ? *after : -*after, *expected) << board.toString(pos);
    // And every move's value agrees too.
    for (const MoveValue& mv : search.moveValues(pos, Limits{})) {
      Position c = pos;
      board.apply(c, mv.move);
      const auto v = minimax(board, c, 40);
      ASSERT_TRUE(v.has_value());
      EXPECT_TRUE(mv.exact);
      EXPECT_EQ(mv.value, c.toMove == pos.toMove ? *v : -*v) << board.toString(pos) << " move " << mv.move;
    }
    ++compared;
  }
  EXPECT_GE(compared, minCompared) << toString(rules);
  std::printf("%s: %d positions compared\n", toString(rules).c_str(), compared);
}

TEST(Solver, AgreesWithMinimaxKalah) {
  compareFrom(small(Preset::Kalah, 3, 3), 12);
  Rules empty = small(Preset::Kalah, 3, 3);
  empty.capture = Capture::Empty;
  compareFrom(empty, 12);
}
TEST(Solver, AgreesWithMinimaxKalahClub) { compareFrom(small(Preset::KalahClub, 3, 3), 12); }
TEST(Solver, AgreesWithMinimaxMangala) { compareFrom(small(Preset::Mangala, 3, 2), 12); }
TEST(Solver, AgreesWithMinimaxMangalaCastle) { compareFrom(small(Preset::MangalaCastle, 3, 2), 12); }
TEST(Solver, AgreesWithMinimaxAlManqala) {
  // Seeds circulate without stores, so many bare-board games never end; a low win threshold
  // makes most of them finite (the minimax skips the others).
  Rules r = small(Preset::AlManqala, 3, 2);
  r.winAt = 4;
  compareFrom(r, 24, 2);
}
TEST(Solver, AgreesWithMinimaxCongkak) { compareFrom(small(Preset::Congkak, 3, 2), 12); }

TEST(Solver, DepthLimitedSearchIsNotExact) {
  const Rules rules = presetRules(Preset::Kalah);
  Search search(rules, 4);
  Limits limits;
  limits.depth = 3;
  const SearchResult r = search.run(Board(rules).start(), limits);
  EXPECT_FALSE(r.exact);
  EXPECT_TRUE(Board(rules).isLegal(Board(rules).start(), r.bestMove));
}

// A budget on a solve (Aim::Value) bounds the exact search without changing it: within the
// budget it searches the very nodes of the unlimited solve, where a plain timed search deepens ply
// by ply and needs more; past the budget the warm-up's move stands, marked not exact.
TEST(Solver, ABudgetedSolveIsTheExactSolve) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Position start = Board(rules).start();
  Search search(rules, 16);
  const SearchResult unlimited = search.run(start, Limits{});
  ASSERT_TRUE(unlimited.exact);
  auto withBudget = [&](Aim aim) {
    Limits budget;
    budget.seconds = 600;
    budget.aim = aim;
    search.clear();
    const SearchResult r = search.run(start, budget);
    EXPECT_TRUE(r.exact) << "aim " << static_cast<int>(aim);
    EXPECT_EQ(r.value, unlimited.value) << "aim " << static_cast<int>(aim);
    return r;
  };
  const SearchResult solved = withBudget(Aim::Value);
  EXPECT_EQ(solved.nodes, unlimited.nodes);
  const SearchResult deepened = withBudget(Aim::Move);
  EXPECT_GT(deepened.nodes, solved.nodes);

  const Rules big = presetRules(Preset::Kalah);
  Search bigSearch(big, 16);
  Limits few;
  few.nodes = 50000;
  few.aim = Aim::Value;
  const SearchResult cut = bigSearch.run(Board(big).start(), few);
  EXPECT_FALSE(cut.exact);
  EXPECT_TRUE(Board(big).isLegal(Board(big).start(), cut.bestMove));
  EXPECT_GE(cut.depth, 1);
}

TEST(Solver, HashFoldsInTheRules) {
  Rules a = presetRules(Preset::Kalah);
  Rules b = a;
  b.capture = Capture::Empty;
  const Position pos = Board(a).start();
  EXPECT_NE(Search(a, 1).hash(pos), Search(b, 1).hash(pos));
}

}  // namespace
}  // namespace semis::engine
