#include <gtest/gtest.h>

#include "rules/Rules.hpp"

namespace semis {
namespace {

TEST(Rules, EveryPresetRoundTripsThroughItsName) {
  for (Preset p : allPresets()) {
    auto parsed = parseRules(presetName(p));
    ASSERT_TRUE(parsed) << presetName(p);
    EXPECT_EQ(*parsed, presetRules(p));
    EXPECT_EQ(toString(*parsed), presetName(p));
  }
}

TEST(Rules, OptionsOverrideThePresetAndPrintBack) {
  auto r = parseRules("kalah,houses=4,seeds=6,capture=empty");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->houses, 4);
  EXPECT_EQ(r->seeds, 6);
  EXPECT_EQ(r->capture, Capture::Empty);
  EXPECT_EQ(toString(*r), "kalah,houses=4,seeds=6,capture=empty");
}

TEST(Rules, BadTextIsAClearError) {
  EXPECT_EQ(parseRules("chess").error().message.substr(0, 23), "unknown preset 'chess' ");
  EXPECT_NE(parseRules("kalah,colour=red").error().message.find("unknown option 'colour'"), std::string::npos);
  EXPECT_NE(parseRules("kalah,houses=13").error().message.find("out of range 1..12"), std::string::npos);
  EXPECT_NE(parseRules("kalah,seeds=13").error().message.find("out of range 1..12"), std::string::npos);
  EXPECT_NE(parseRules("kalah,capture=maybe").error().message.find("none|standard|empty"), std::string::npos);
  EXPECT_NE(parseRules("kalah,houses").error().message.find("needs a value"), std::string::npos);
  EXPECT_FALSE(parseRules("kalah,houses=4x"));
  EXPECT_FALSE(parseRules("kalah,"));
}

TEST(Rules, CastleTreasureOptionIsTheCastlePresetsSowOwnStore) {
  auto r = parseRules("mangala-castle,castle_sow_treasures=true");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->sowOwnStore);
  EXPECT_EQ(toString(*r), "mangala-castle,castle_sow_treasures=true");
}

TEST(Rules, KeysDifferWheneverTheRulesDo) {
  EXPECT_NE(rulesKey(*parseRules("kalah")), rulesKey(*parseRules("kalah-club")));
  EXPECT_NE(rulesKey(*parseRules("kalah")), rulesKey(*parseRules("kalah,capture=empty")));
  EXPECT_EQ(rulesKey(*parseRules("kalah")), rulesKey(presetRules(Preset::Kalah)));
}

}  // namespace
}  // namespace semis
