// A player's accuracy read off a review (study/Accuracy.hpp): only his moves chosen among two or
// more with both values proven count, and a move is perfect when it keeps the best proven value.

#include <gtest/gtest.h>

#include "RandomGame.hpp"
#include "study/Accuracy.hpp"

namespace semis::study {
namespace {

PlyReview ply(Side mover, int best, int played, bool bestExact, bool playedExact, bool forced = false) {
  PlyReview p;
  p.mover = mover;
  p.bestValue = best;
  p.played = played;
  p.bestExact = bestExact;
  p.playedExact = playedExact;
  p.loss = std::max(0, best - played);
  p.mark = markOf(best, played, forced);
  return p;
}

TEST(Accuracy, OnlyProvenChoicesCountAndPerfectKeepsTheBest) {
  Review r;
  r.plies = {
      ply(Side::South, 4, 4, true, true),          // proven, perfect
      ply(Side::North, -4, -6, true, true),        // proven, gave 2 away
      ply(Side::South, 6, 6, true, false),         // the played value is an estimate: not counted
      ply(Side::North, -6, -6, false, true),       // the best's is an estimate: not counted
      ply(Side::South, 6, 6, true, true, true),    // forced: no choice
      ply(Side::South, 6, 5, true, true),          // proven, gave 1 away
      ply(Side::North, -5, -5, true, true),        // proven, perfect
      ply(Side::North, 0, -1, true, true),         // proven, a draw thrown away
  };
  const auto t = tally(r);
  EXPECT_EQ(t[0].proven, 2);
  EXPECT_EQ(t[0].perfect, 1);
  EXPECT_EQ(t[1].proven, 3);
  EXPECT_EQ(t[1].perfect, 1);
  EXPECT_TRUE(provenMove(r.plies[0]));
  EXPECT_FALSE(provenMove(r.plies[2]));
  EXPECT_FALSE(provenMove(r.plies[4]));
  EXPECT_FALSE(perfectMove(r.plies[4])) << "a forced move is not counted as perfect";
  EXPECT_FALSE(perfectMove(r.plies[5]));
}

TEST(Accuracy, AnEmptyReviewHasNothing) {
  const auto t = tally(Review{});
  EXPECT_EQ(t[0].proven + t[0].perfect + t[1].proven + t[1].perfect, 0);
}

// On a board the search proves whole, every unforced move is proven and the perfect ones are the
// moves marked best: the tally agrees with the review's own marks, side by side.
TEST(Accuracy, AProvenGameTalliesItsMarks) {
  const Rules rules = *parseRules("kalah,houses=4,seeds=3");
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Game game = randomGame(rules, seed);
    engine::Search search(rules, 16);
    ReviewLimits limits;
    limits.secondsPerPosition = 60;
    const auto r = review(search, game, limits);
    ASSERT_TRUE(r) << r.error().message;
    std::array<Accuracy, 2> expected;
    for (const PlyReview& p : r->plies) {
      if (p.mark == Mark::Forced) continue;
      Accuracy& a = expected[p.mover == Side::South ? 0 : 1];
      ++a.proven;
      if (p.mark == Mark::Best) ++a.perfect;
    }
    const auto t = tally(*r);
    for (std::size_t s = 0; s < 2; ++s) {
      EXPECT_EQ(t[s].proven, expected[s].proven) << "seed " << seed << " side " << s;
      EXPECT_EQ(t[s].perfect, expected[s].perfect) << "seed " << seed << " side " << s;
    }
    EXPECT_GT(t[0].proven + t[1].proven, 0);
  }
}

}  // namespace
}  // namespace semis::study
