// The move sources the AI pool runs: legal moves at every level, cancellation that ends a long
// search, the greedy source's fixed answers, and the AI's time budget against its clock.

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <thread>

#include "ai/MoveSource.hpp"
#include "rules/Board.hpp"

namespace semis::server {
namespace {

Rules small(Preset preset, int houses, int seeds) {
  Rules r = presetRules(preset);
  r.houses = houses;
  r.seeds = seeds;
  return r;
}

TEST(AiBudget, TheLevelsBudgetWithoutAClock) {
  EXPECT_EQ(aiBudgetMs("easy", kNoClock, 0), 200);
  EXPECT_EQ(aiBudgetMs("medium", kNoClock, 0), 500);
  EXPECT_EQ(aiBudgetMs("hard", kNoClock, 0), 1000);
  EXPECT_EQ(aiBudgetMs("perfect", kNoClock, 5000), 3000);
  EXPECT_EQ(aiBudgetMs("nonsense", kNoClock, 0), 500);
}

TEST(AiBudget, AClockCutsIt) {
  EXPECT_EQ(aiBudgetMs("hard", 600000, 0), 1000);      // ten minutes: the level's budget
  EXPECT_EQ(aiBudgetMs("hard", 10000, 0), 500);        // ten seconds: a twentieth
  EXPECT_EQ(aiBudgetMs("perfect", 4000, 2000), 1800);  // 200 + 80% of the increment
  EXPECT_EQ(aiBudgetMs("hard", 4000, 2000), 1000);
  EXPECT_EQ(aiBudgetMs("perfect", 100, 5000), 50);  // the increment comes after: half the time left
  EXPECT_EQ(aiBudgetMs("easy", 0, 0), kMinAiBudgetMs);
  EXPECT_EQ(aiBudgetMs("easy", 3, 0), kMinAiBudgetMs);
  EXPECT_EQ(aiBudgetMs("easy", 60000, -5), 200);  // a negative increment counts as none
}

// However the clock stands, the budget is at most half the time left (or the floor) and never
// more than the level's.
TEST(AiBudget, NeverMoreThanTheClockAllows) {
  for (const char* level : {"easy", "medium", "hard", "perfect"}) {
    const int byLevel = aiBudgetMs(level, kNoClock, 0);
    for (long long remaining = 0; remaining <= 200000; remaining += 997) {
      for (int increment : {0, 1000, 5000, 30000}) {
        const int b = aiBudgetMs(level, remaining, increment);
        EXPECT_GE(b, kMinAiBudgetMs);
        EXPECT_LE(b, byLevel);
        EXPECT_LE(b, std::max<long long>(kMinAiBudgetMs, remaining / 2)) << level << " " << remaining;
      }
    }
  }
}

TEST(EngineMoveSource, EveryLevelPlaysALegalMove) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  auto source = makeEngineMoveSource();
  const std::atomic<bool> never{false};
  Position pos = board.start();
  for (const char* level : {"easy", "medium", "hard", "perfect", "unknown"}) {
    const int house = source->choose(MoveRequest{rules, pos, level, 30}, never);
    EXPECT_TRUE(board.isLegal(pos, house)) << level << " played " << house;
    board.apply(pos, house);
    if (pos.over) pos = board.start();
  }
}

TEST(EngineMoveSource, AFlaggedRequestAnswersZero) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  auto source = makeEngineMoveSource();
  const std::atomic<bool> cancelled{true};
  EXPECT_EQ(source->choose(MoveRequest{rules, board.start(), "hard", 600000}, cancelled), 0);
  EXPECT_FALSE(source->hint(HintRequest{rules, board.start(), 600000}, cancelled).has_value());
}

// A ten-minute search flagged while it runs returns 0 (a search that ignored the flag would run
// past the test's timeout, or prove the start and answer a house).
TEST(EngineMoveSource, CancelEndsALongSearch) {
  // Kalah club rules: Kalah's opening book would answer the start at once, with no search to cancel.
  const Rules rules = presetRules(Preset::KalahClub);
  const Board board(rules);
  auto source = makeEngineMoveSource();
  for (const char* level : {"hard", "perfect"}) {
    std::atomic<bool> cancelled{false};
    std::thread flagger([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      cancelled = true;
    });
    EXPECT_EQ(source->choose(MoveRequest{rules, board.start(), level, 600000}, cancelled), 0) << level;
    flagger.join();
  }
  std::atomic<bool> cancelled{false};
  std::thread flagger([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancelled = true;
  });
  EXPECT_FALSE(source->hint(HintRequest{rules, board.start(), 3600000}, cancelled).has_value());
  flagger.join();
}

TEST(EngineMoveSource, HintsValueEveryLegalMove) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  auto source = makeEngineMoveSource();
  const std::atomic<bool> never{false};
  const Position pos = board.start();
  auto h = source->hint(HintRequest{rules, pos, 400}, never);
  ASSERT_TRUE(h.has_value());
  EXPECT_TRUE(board.isLegal(pos, h->move));
  EXPECT_EQ(h->moves.size(), static_cast<std::size_t>(std::popcount(board.legalMask(pos))));
  Position over = pos;
  over.over = true;
  EXPECT_FALSE(source->hint(HintRequest{rules, over, 400}, never).has_value());
}

TEST(GreedyMoveSource, TakesTheBiggestCaptureThenAnExtraTurn) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  auto source = makeGreedyMoveSource();
  const std::atomic<bool> never{false};
  // House 1 captures 4 (one seed into empty house 2, facing North's 3); house 3 plays again.
  auto pos = parsePositionFor(board, "1,0,2,5/3,4,3,3/2,1/S");
  ASSERT_TRUE(pos.has_value()) << pos.error().message;
  EXPECT_EQ(source->choose(MoveRequest{rules, *pos, "hard", 1000}, never), 1);
  auto h = source->hint(HintRequest{rules, *pos, 1000}, never);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->move, 1);
  EXPECT_EQ(h->value, 4);
  EXPECT_FALSE(h->exact);
  EXPECT_EQ(h->verdict, (engine::Verdict{engine::VerdictCode::Estimate, 4}));
  ASSERT_FALSE(h->reasons.empty());
  EXPECT_EQ(h->reasons.front(), (engine::MoveReason{engine::Reason::Captures, 4}));
  // At the start of Kalah(4,3) nothing captures: the extra turn (house 2's three seeds) wins.
  EXPECT_EQ(source->choose(MoveRequest{rules, board.start(), "easy", 1000}, never), 2);
  const std::atomic<bool> cancelled{true};
  EXPECT_EQ(source->choose(MoveRequest{rules, *pos, "hard", 1000}, cancelled), 0);
}

}  // namespace
}  // namespace semis::server
