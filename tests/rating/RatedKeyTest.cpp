// The bots' pools (rating::botsKey): one key per Kalah board at its standard options, 4..12 houses
// and 3..12 seeds, and only the keys it makes read back as bots' keys.

#include <gtest/gtest.h>

#include "rating/RatedKey.hpp"

namespace semis::rating {
namespace {

TEST(BotsKey, KalahBoardsOnlyEachItsOwnPool) {
  EXPECT_EQ(botsKey(*parseRules("kalah")), "bots-kalah-6x4");
  EXPECT_EQ(botsKey(*parseRules("kalah,houses=12,seeds=12")), "bots-kalah-12x12");
  EXPECT_FALSE(botsKey(*parseRules("kalah,houses=3,seeds=3")));
  EXPECT_FALSE(botsKey(*parseRules("mangala")));
  EXPECT_TRUE(isBotsKey("bots-kalah-4x3"));
  EXPECT_FALSE(isBotsKey("kalah"));
  EXPECT_FALSE(isBotsKey("bots-kalah-04x3"));
  EXPECT_FALSE(isBotsKey("bots-kalah-13x3"));
}

TEST(BotsKey, PeoplesKeysAreNeverBotsKeys) {
  for (const std::string& key : ratedKeys()) EXPECT_FALSE(isBotsKey(key)) << key;
}

}  // namespace
}  // namespace semis::rating
