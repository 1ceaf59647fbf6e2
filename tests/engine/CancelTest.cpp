// Limits::cancel: a flag the search reads with its clock. Turned true after the first iteration
// (from the progress callback, so mid-search without any timing), it ends a search that would
// otherwise solve the game: the result is then a legal move but not proven. Uncancelled, the same
// searches prove their value (in a fraction of a second), so the tests can tell the two apart.

#include <gtest/gtest.h>

#include <atomic>

#include "SmallRules.hpp"
#include "engine/Hint.hpp"
#include "engine/Levels.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

// Kalah goes to the Solver, Congkak to the general search: both read the flag. Both boards take
// a few hundred thousand nodes to solve (well past the first iteration and the flag's first check,
// at 1024 nodes), a fraction of a second.
class CancelTest : public ::testing::TestWithParam<Preset> {
 protected:
  static Rules rules() { return GetParam() == Preset::Kalah ? small(Preset::Kalah, 4, 4) : small(Preset::Congkak, 6, 4); }
};

TEST_P(CancelTest, AFlagRaisedMidSearchEndsAnUnlimitedSolve) {
  const Rules rules = CancelTest::rules();
  const Board board(rules);
  for (const Aim aim : {Aim::Value, Aim::ValueFirst, Aim::Move}) {
    Search search(rules, 8);
    std::atomic<bool> cancel{false};
    Limits limits;
    limits.aim = aim;
    limits.cancel = &cancel;
    if (aim != Aim::Value) limits.seconds = 3600;  // ValueFirst and Move need a budget to share
    int iterations = 0;
    const SearchResult r = search.run(board.start(), limits, [&](const SearchResult&) {
      ++iterations;
      cancel = true;
    });
    EXPECT_FALSE(r.exact) << "aim " << static_cast<int>(aim);
    EXPECT_TRUE(board.isLegal(board.start(), r.bestMove));
    EXPECT_GE(iterations, 1);
    // The flag stays raised: a cancelled search is done for good, and the next run ends as soon.
    EXPECT_FALSE(search.run(board.start(), limits).exact);
    cancel = false;
    EXPECT_TRUE(search.run(board.start(), limits).exact) << "aim " << static_cast<int>(aim);
  }
}

TEST_P(CancelTest, ARaisedFlagLeavesEveryHintMoveUnproven) {
  const Rules rules = CancelTest::rules();
  const Board board(rules);
  Search search(rules, 8);
  const std::atomic<bool> cancel{true};
  Limits limits;
  limits.seconds = 3600;
  limits.cancel = &cancel;
  auto h = hint(search, board.start(), limits);
  ASSERT_TRUE(h.has_value());
  EXPECT_TRUE(board.isLegal(board.start(), h->move));
  for (const MoveValue& mv : h->moves) {
    Position child = board.start();
    board.apply(child, mv.move);
    if (!child.over) {
      EXPECT_FALSE(mv.exact) << "move " << mv.move;
    }
  }
}

TEST_P(CancelTest, APlayerStopsThinking) {
  const Rules rules = CancelTest::rules();
  const Board board(rules);
  const std::atomic<bool> cancel{true};
  for (const Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    LevelOptions options;
    options.hardSeconds = 3600;
    Player player(rules, level, options);
    player.setCancel(&cancel);
    EXPECT_TRUE(board.isLegal(board.start(), player.choose(board.start()))) << levelName(level);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, CancelTest, ::testing::Values(Preset::Kalah, Preset::Congkak));

}  // namespace
}  // namespace semis::engine
