#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "rating/Glicko2.hpp"
#include "rating/RatedKey.hpp"

namespace semis::rating {
namespace {

// Glickman's worked example ("Example of the Glicko-2 system", section "Example calculation").
TEST(Glicko2, ThePapersWorkedExample) {
  const Glicko player{1500, 200, 0.06};
  const std::array<Opponent, 3> games{{{{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}}};
  GlickoParams params;
  params.tau = 0.5;
  const Glicko after = ratePeriod(player, games, params);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Glicko player{1700, 100, 0.06};
  const Glicko after = ratePeriod(player, {});
  EXPECT_EQ(after.rating, 1700);
  EXPECT_NEAR(after.deviation, 173.7178 * std::sqrt((100 / 173.7178) * (100 / 173.7178) + 0.06 * 0.06), 1e-9);
  EXPECT_EQ(after.volatility, 0.06);
}

TEST(Glicko2, AGameMovesBothPlayersOppositeWays) {
  const Glicko a, b;
  const Glicko aWins = rateGame(a, b, 1), bLoses = rateGame(b, a, 0);
  EXPECT_GT(aWins.rating, 1500);
  EXPECT_LT(bLoses.rating, 1500);
  EXPECT_NEAR(aWins.rating - 1500, 1500 - bLoses.rating, 1e-9) << "equal players: symmetric";
  EXPECT_LT(aWins.deviation, 500) << "a game teaches something";
  const Glicko draw = rateGame(a, b, 0.5);
  EXPECT_NEAR(draw.rating, 1500, 1e-9);
  // Beating a much stronger player is worth more than beating an equal one.
  EXPECT_GT(rateGame(a, Glicko{1900, 60, 0.06}, 1).rating, aWins.rating);
}

TEST(Glicko2, TheDeviationStaysWithinItsBoundsAndGrowsBackWithIdleTime) {
  Glicko veteran{1800, 45, 0.06};
  for (int i = 0; i < 50; ++i) veteran = rateGame(veteran, Glicko{1800, 45, 0.06}, 0.5);
  EXPECT_GE(veteran.deviation, 45);
  EXPECT_FALSE(provisional(veteran));
  const Glicko later = aged(veteran, 365);
  EXPECT_GT(later.deviation, veteran.deviation);
  EXPECT_EQ(later.rating, veteran.rating);
  EXPECT_LE(aged(veteran, 1e9).deviation, 500);
  EXPECT_EQ(aged(veteran, 0).deviation, veteran.deviation);
  EXPECT_TRUE(provisional(Glicko{}));
  EXPECT_TRUE(provisional(Glicko{1500, 110, 0.09}));
  EXPECT_FALSE(provisional(Glicko{1500, 109.9, 0.09}));
}

TEST(RatedKey, ThePresetsAtTheirStandardOptionsOnly) {
  ASSERT_EQ(ratedKeys().size(), 7U);  // awale among them (issue 26)
  for (const std::string& key : ratedKeys()) {
    auto rules = parseRules(key);
    ASSERT_TRUE(rules) << key;
    EXPECT_EQ(ratedKey(*rules), key);
  }
  EXPECT_FALSE(ratedKey(*parseRules("kalah,seeds=3")));
  EXPECT_FALSE(ratedKey(*parseRules("kalah,houses=4")));
}

}  // namespace
}  // namespace semis::rating
