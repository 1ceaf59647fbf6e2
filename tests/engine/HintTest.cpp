// Hints: the reasons as codes with their numbers on known positions, the verdicts, and the choice
// of move (never a losing one when a win is known; a budget spent on exact solves first).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "engine/Hint.hpp"

namespace semis::engine {
namespace {

Rules small(Preset preset, int houses, int seeds) {
  Rules r = presetRules(preset);
  r.houses = houses;
  r.seeds = seeds;
  return r;
}

using Reasons = std::vector<MoveReason>;

Reasons reasonsAt(const Board& board, const char* fields, int move) {
  auto pos = parsePositionFor(board, fields);
  EXPECT_TRUE(pos.has_value()) << fields << ": " << pos.error().message;
  return pos ? moveReasons(board, *pos, move) : Reasons{};
}

TEST(HintReasons, KalahsFirstMoveThreePlaysAgain) {
  const Board board(presetRules(Preset::Kalah));
  const Position start = board.start();
  EXPECT_EQ(moveReasons(board, start, 3), (Reasons{{Reason::ExtraTurn}}));
  for (int move : {1, 2, 4, 5, 6}) EXPECT_EQ(moveReasons(board, start, move), Reasons{}) << "move " << move;
}

TEST(HintReasons, AnExtraTurnAndACapture) {
  const Board board(small(Preset::Kalah, 4, 3));
  // House 3 with 2 seeds ends in the store; house 1 with 1 seed lands in empty house 2, facing
  // North's house 3 (3 seeds): 3 + 1 captured, and no extra turn for North after it where house 4
  // would give one.
  const char* pos = "1,0,2,5/3,4,3,3/2,1/S";
  EXPECT_EQ(reasonsAt(board, pos, 3), (Reasons{{Reason::ExtraTurn}}));
  EXPECT_EQ(reasonsAt(board, pos, 1), (Reasons{{Reason::Captures, 4}, {Reason::NoExtraTurnForOpponent}}));
  EXPECT_EQ(reasonsAt(board, pos, 4), Reasons{});
}

TEST(HintReasons, ProtectsOrStopsACapture) {
  const Board board(small(Preset::Kalah, 4, 3));
  // North's house 3 (1 seed) would land in his empty house 4, facing South's house 1 (4 seeds).
  // Sowing house 1 takes its seeds away (and ends in the store); sowing house 4 (4 seeds: the
  // store, North's 1, 2, 3) makes North's house 3 reach his store instead.
  const char* pos = "4,1,1,4/5,0,1,0/4,4/S";
  EXPECT_EQ(reasonsAt(board, pos, 1), (Reasons{{Reason::ExtraTurn}, {Reason::Protects, 4, 1}}));
  EXPECT_EQ(reasonsAt(board, pos, 4), (Reasons{{Reason::StopsCapture, 4, 1}}));
  // House 2 leaves the threat where it is.
  EXPECT_EQ(reasonsAt(board, pos, 2), (Reasons{{Reason::NoExtraTurnForOpponent}}));
}

TEST(HintReasons, AvoidsAnExtraTurnForTheOpponent) {
  const Board board(small(Preset::Kalah, 4, 3));
  // North to move: house 4 gives South no extra turn; houses 1 and 2 would.
  const char* pos = "4,4,0,1/1,5,0,5/2,2/N";
  EXPECT_EQ(reasonsAt(board, pos, 4), (Reasons{{Reason::NoExtraTurnForOpponent}}));
  EXPECT_EQ(reasonsAt(board, pos, 1), Reasons{});
}

TEST(HintReasons, FeedsWhenTheRulesRequire) {
  const Board board(presetRules(Preset::AlManqala));
  // South's row is empty: North must sow into it (houses 1 and 6 reach it).
  const char* pos = "0,0,0,0,0,0,0/24,5,1,2,1,3,0/40,22/N";
  const Reasons one = reasonsAt(board, pos, 1);
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(one.front(), (MoveReason{Reason::Feeds}));
  EXPECT_EQ(reasonsAt(board, pos, 6), (Reasons{{Reason::Feeds}}));
}

TEST(HintVerdict, ExactValuesAreWinsDrawsAndLosses) {
  EXPECT_EQ(verdictOf(4, true), (Verdict{VerdictCode::WinsBy, 4}));
  EXPECT_EQ(verdictOf(0, true), (Verdict{VerdictCode::Draws, 0}));
  EXPECT_EQ(verdictOf(-3, true), (Verdict{VerdictCode::LosesByAtMost, 3}));
  EXPECT_EQ(verdictOf(2, false), (Verdict{VerdictCode::Estimate, 2}));
  EXPECT_EQ(verdictOf(-2, false), (Verdict{VerdictCode::Estimate, -2}));
}

TEST(Hint, NeverALosingMoveWhenAWinIsKnown) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  Search search(rules, 8);
  Position pos = board.start();
  for (int ply = 0; ply < 10 && !pos.over; ++ply) {
    auto h = hint(search, pos, Limits{});
    ASSERT_TRUE(h.has_value());
    ASSERT_TRUE(h->exact);
    EXPECT_EQ(h->verdict, verdictOf(h->value, true));
    EXPECT_EQ(h->reasons, moveReasons(board, pos, h->move));
    for (const auto& mv : h->moves) EXPECT_LE(mv.value, h->value);
    EXPECT_TRUE(board.isLegal(pos, h->move));
    board.apply(pos, h->move);
  }
  Position over = board.start();
  over.over = true;
  EXPECT_FALSE(hint(search, over, Limits{}).has_value());
}

// A hint's budget goes first to each move's exact solve: on a Kalah(6,4) middle game it proves
// more move values than a ply-by-ply search given the same nodes, and the values it proves are the
// exact ones.
TEST(Hint, ABudgetProvesMoreMovesThanAPlyByPlySearch) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  auto pos = parsePositionFor(board, "1,2,3,1,1,0/1,6,4,3,3,1/9,13/S");
  ASSERT_TRUE(pos.has_value()) << pos.error().message;
  Limits budget;
  budget.nodes = 100000;  // per move: 4 of the 5 moves proven by the ply-by-ply search alone
  Search search(rules, 16);
  // One searcher: the comparison is between two ways of spending a node budget, and fibers share
  // a budget in an order that moves the count proven either way by one (4 against 4 at this budget).
  search.setFibers(1);
  auto proven = [](const std::vector<MoveValue>& values) {
    return std::count_if(values.begin(), values.end(), [](const MoveValue& mv) { return mv.exact; });
  };
  const auto plain = proven(search.moveValues(*pos, budget));
  search.clear();
  auto h = hint(search, *pos, budget);
  ASSERT_TRUE(h.has_value());
  EXPECT_GT(proven(h->moves), plain);
  search.clear();
  const std::vector<MoveValue> exact = search.moveValues(*pos, Limits{});
  ASSERT_EQ(exact.size(), h->moves.size());
  for (std::size_t i = 0; i < exact.size(); ++i) {
    ASSERT_TRUE(exact[i].exact);
    if (h->moves[i].exact) {
      EXPECT_EQ(h->moves[i].value, exact[i].value) << "move " << exact[i].move;
    }
  }
  std::printf("proven: %ld plain, %ld hint of %zu\n", static_cast<long>(plain), static_cast<long>(proven(h->moves)),
              exact.size());
}


// The values the analysis board shows are the hint's: at Kalah's start, with a budget that proves
// nothing, the opening book's house 3 is exact (+8), as Teach me says it.
TEST(Hint, ValuedMovesCarryTheBooksProvenMove) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  Search search(rules, 4);
  Limits budget;
  budget.nodes = 2000;
  const std::vector<MoveValue> plain = search.moveValues(board.start(), budget);
  search.clear();
  const std::vector<MoveValue> valued = valuedMoves(search, board.start(), budget);
  ASSERT_EQ(valued.size(), 6U);
  const auto three = std::find_if(valued.begin(), valued.end(), [](const MoveValue& mv) { return mv.move == 3; });
  ASSERT_NE(three, valued.end());
  EXPECT_TRUE(three->exact);
  EXPECT_EQ(three->value, 8);
  const auto plainThree = std::find_if(plain.begin(), plain.end(), [](const MoveValue& mv) { return mv.move == 3; });
  ASSERT_NE(plainThree, plain.end());
  EXPECT_FALSE(plainThree->exact) << "the search alone proves nothing at this budget";
  search.clear();
  auto h = hint(search, board.start(), budget);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->move, 3);
  EXPECT_TRUE(h->exact);
  EXPECT_EQ(h->value, 8);
}

}  // namespace
}  // namespace semis::engine
