#include <gtest/gtest.h>

#include <algorithm>

#include "rules/Rules.hpp"

namespace semis {
namespace {

TEST(Rules, EveryPresetRoundTripsThroughItsName) {
  for (Preset p : knownPresets()) {
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

TEST(Rules, AwaleIsOfferedByThePlatform) {
  // The platform's lists (home page, ratings, daily challenge, bench, /api/rules) iterate
  // allPresets(); awale is among them since the engine and the page play it (issue 26).
  EXPECT_EQ(std::count(allPresets().begin(), allPresets().end(), Preset::Awale), 1);
  EXPECT_EQ(knownPresets(), allPresets());
  const Rules r = presetRules(Preset::Awale);
  EXPECT_EQ(r.totalSeeds(), 48);
  EXPECT_FALSE(r.stores);
  EXPECT_TRUE(r.skipOrigin);
  EXPECT_EQ(r.chainValues, (1 << 2) | (1 << 3));
  EXPECT_EQ(r.chainRows, ChainRows::Opponent);
  EXPECT_EQ(r.grandSlam, GrandSlam::Nothing);
  EXPECT_EQ(r.unfed, Unfed::Owner);
  EXPECT_EQ(r.winAt, 25);
  EXPECT_EQ(r.split, SplitRule::Own);
}

TEST(Rules, AwaleOptionsParseAndPrintBack) {
  for (const char* text : {"awale,grand_slam=all", "awale,grand_slam=illegal", "awale,grand_slam=opponent",
                           "awale,chain_values=1+2+3", "awale,chain_values=2+3+4", "awale,feeding=false",
                           "awale,first=north", "awale,unfed=starved", "awale,split=equal", "awale,chain_rows=both",
                           "al-manqala,chain_values=2+3,chain_rows=opponent,grand_slam=nothing"}) {
    auto r = parseRules(text);
    ASSERT_TRUE(r) << text << ": " << r.error().message;
    EXPECT_EQ(toString(*r), text);
  }
  // Set values print in order, whatever order they were written in; repeats count once.
  EXPECT_EQ(toString(*parseRules("awale,chain_values=3+2+3+1")), "awale,chain_values=1+2+3");
  // The old boolean spellings of grand_slam still read, and print as the mode they mean.
  EXPECT_EQ(toString(*parseRules("al-manqala,grand_slam=false")), "al-manqala,grand_slam=nothing");
  EXPECT_EQ(*parseRules("awale,grand_slam=true"), *parseRules("awale,grand_slam=all"));
  EXPECT_NE(parseRules("awale,chain_values=0").error().message.find("out of range 1..30"), std::string::npos);
  EXPECT_NE(parseRules("awale,chain_values=31").error().message.find("out of range 1..30"), std::string::npos);
  EXPECT_NE(parseRules("awale,chain_values=2+").error().message.find("takes a number"), std::string::npos);
  EXPECT_NE(parseRules("awale,chain_values=").error().message.find("takes a number"), std::string::npos);
  EXPECT_NE(parseRules("awale,grand_slam=maybe").error().message.find("nothing|all|illegal|opponent"),
            std::string::npos);
  EXPECT_NE(parseRules("awal").error().message.find("awale"), std::string::npos);
}

TEST(Rules, OptionsAddedLaterKeepEveryOlderKey) {
  // The keys the rule sets had before chain_values, chain_rows, unfed and split existed (and while
  // grand_slam was a boolean): the engine folds them into its hashes, so they must not move.
  EXPECT_EQ(rulesKey(*parseRules("kalah")), 0xC1BA0E833AB7EE52ULL);
  EXPECT_EQ(rulesKey(*parseRules("kalah-club")), 0x8BE14B5D2E4879DEULL);
  EXPECT_EQ(rulesKey(*parseRules("mangala")), 0xF0206468C483894BULL);
  EXPECT_EQ(rulesKey(*parseRules("mangala-castle")), 0x1ACE52F608D43CE6ULL);
  EXPECT_EQ(rulesKey(*parseRules("al-manqala")), 0xEEBD718751400F83ULL);
  EXPECT_EQ(rulesKey(*parseRules("congkak")), 0x5CC288E3D14F6A21ULL);
  EXPECT_EQ(rulesKey(*parseRules("al-manqala,grand_slam=false")), 0x12B48B5605481079ULL);
  // And every new option, at any other value, makes a new key.
  const std::uint64_t awale = rulesKey(*parseRules("awale"));
  for (const char* text : {"awale,grand_slam=all", "awale,grand_slam=illegal", "awale,grand_slam=opponent",
                           "awale,chain_values=2+4", "awale,chain_values=2", "awale,chain_rows=both",
                           "awale,unfed=starved", "awale,split=equal"}) {
    EXPECT_NE(rulesKey(*parseRules(text)), awale) << text;
  }
  EXPECT_NE(rulesKey(*parseRules("awale,split=equal")), rulesKey(*parseRules("awale,unfed=starved")));
}

}  // namespace
}  // namespace semis
