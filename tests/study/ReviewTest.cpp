// Game review: on a board small enough to prove every position, each move's value agrees with the
// position it leads to, marks follow the value given away, and the turning point is the loser's
// last move from a draw or better into a loss.

#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "RandomGame.hpp"
#include "study/Review.hpp"
#include "views/Study.hpp"

namespace semis::study {
namespace {

TEST(Review, EveryMoveIsValuedAsThePositionItLeadsTo) {
  const Rules rules = *parseRules("kalah,houses=4,seeds=3");
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Game game = randomGame(rules, seed);
    engine::Search search(rules, 16);
    ReviewLimits limits;
    limits.secondsPerPosition = 60;  // proves everything on this board
    const auto r = review(search, game, limits);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->plies.size(), game.plies().size());
    for (std::size_t k = 0; k < r->plies.size(); ++k) {
      const PlyReview& p = r->plies[k];
      EXPECT_TRUE(p.bestExact && p.playedExact) << k;
      EXPECT_EQ(p.move, game.plies()[k].move);
      EXPECT_GE(p.bestValue, p.played);
      EXPECT_EQ(p.loss, p.bestValue - p.played);
      EXPECT_EQ(p.mark, markOf(p.bestValue, p.played, p.moves.empty()));
      if (p.mark != Mark::Forced) {
        bool bestListed = false;
        for (const auto& mv : p.moves) {
          EXPECT_LE(mv.value, p.bestValue);
          bestListed = bestListed || (mv.move == p.best && mv.value == p.bestValue);
        }
        EXPECT_TRUE(bestListed);
      }
      if (k + 1 < r->plies.size()) {
        const PlyReview& next = r->plies[k + 1];
        EXPECT_EQ(p.played, next.mover == p.mover ? next.bestValue : -next.bestValue) << "ply " << k;
      } else {
        const Outcome o = game.board().outcome(game.position());
        EXPECT_EQ(p.played, p.mover == Side::South ? o.south - o.north : o.north - o.south);
      }
    }
    if (r->turning >= 0) {
      const PlyReview& t = r->plies[static_cast<std::size_t>(r->turning)];
      EXPECT_GE(t.bestValue, 0);
      EXPECT_LT(t.played, 0);
      const Outcome o = game.board().outcome(game.position());
      EXPECT_NE(o.winner == Winner::South ? Side::South : Side::North, t.mover);
    }
  }
}

TEST(Review, MarksGrowWithTheValueGivenAway) {
  EXPECT_EQ(markOf(3, 3, false), Mark::Best);
  EXPECT_EQ(markOf(3, 2, false), Mark::Good);
  EXPECT_EQ(markOf(5, 2, false), Mark::Inaccuracy);
  EXPECT_EQ(markOf(9, 4, false), Mark::Mistake);
  EXPECT_EQ(markOf(12, 4, false), Mark::Blunder);
  EXPECT_EQ(markOf(1, -1, false), Mark::Blunder);  // a win thrown into a loss
  EXPECT_EQ(markOf(0, -1, false), Mark::Mistake);  // a draw thrown into a loss
  EXPECT_EQ(markOf(5, 5, true), Mark::Forced);
}

TEST(Review, ALostGameNamesTheMoveThatLostIt) {
  // South throws away a won Kalah(4,3) game on purpose: the worst move at each turn.
  const Rules rules = *parseRules("kalah,houses=4,seeds=3");
  Game game(rules);
  engine::Search search(rules, 16);
  while (!game.over()) {
    const auto values = search.moveValues(game.position(), engine::Limits{});
    const engine::MoveValue* pick = &values.front();
    for (const auto& mv : values) {
      const bool worse = mv.value < pick->value;
      const bool better = mv.value > pick->value;
      if (game.position().toMove == Side::South ? worse : better) pick = &mv;
    }
    ASSERT_TRUE(game.play(pick->move));
  }
  ASSERT_EQ(game.board().outcome(game.position()).winner, Winner::North);
  ReviewLimits limits;
  limits.secondsPerPosition = 60;
  const auto r = review(search, game, limits);
  ASSERT_TRUE(r);
  ASSERT_GE(r->turning, 0);
  EXPECT_EQ(r->plies[static_cast<std::size_t>(r->turning)].mover, Side::South);
  const protocol::Json j = views::reviewJson(*r);
  EXPECT_EQ(j["turning"], r->turning);
  EXPECT_EQ(j["plies"].size(), game.plies().size());
  EXPECT_TRUE(j["plies"][0].contains("mark"));
}

TEST(Review, ARecordThatDoesNotFollowIsRefused) {
  const Rules rules = *parseRules("kalah");
  Game game(rules);
  ASSERT_TRUE(game.play(3));
  engine::Search wrong(*parseRules("kalah,houses=4"), 4);
  EXPECT_FALSE(review(wrong, game, ReviewLimits{}));
}

}  // namespace
}  // namespace semis::study
