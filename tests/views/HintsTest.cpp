// The hint message's exact wire form (the web client words these codes), and the codes of every
// verdict and reason.

#include <gtest/gtest.h>

#include "views/Hints.hpp"

namespace semis::views {
namespace {

using engine::MoveReason;
using engine::Reason;
using engine::VerdictCode;

TEST(HintJson, TheExactMessage) {
  engine::Hint h;
  h.move = 3;
  h.value = 4;
  h.exact = true;
  h.verdict = {VerdictCode::WinsBy, 4};
  h.reasons = {{Reason::ExtraTurn}, {Reason::Captures, 5}};
  h.moves = {{1, 2, false}, {3, 4, true}};
  h.nodes = 12345;  // not on the wire
  EXPECT_EQ(hintJson("g42", h).dump(),
            R"({"type":"hint","game":"g42","house":3,"exact":true,"value":4,)"
            R"("verdict":{"code":"wins_by","n":4},"reasons":[{"code":"extra_turn"},{"code":"captures","n":5}],)"
            R"("moves":[{"house":1,"value":2,"exact":false},{"house":3,"value":4,"exact":true}]})");
}

TEST(HintJson, NoReasonsIsAnEmptyList) {
  engine::Hint h;
  h.move = 1;
  h.value = -2;
  h.verdict = {VerdictCode::Estimate, -2};
  h.moves = {{1, -2, false}};
  const Json j = hintJson("x", h);
  EXPECT_EQ(j["reasons"], Json::array());
  EXPECT_EQ(j["verdict"].dump(), R"({"code":"estimate","n":-2})");
}

TEST(HintJson, VerdictCodes) {
  EXPECT_EQ(verdictJson({VerdictCode::WinsBy, 4}).dump(), R"({"code":"wins_by","n":4})");
  EXPECT_EQ(verdictJson({VerdictCode::Draws, 0}).dump(), R"({"code":"draws"})");
  EXPECT_EQ(verdictJson({VerdictCode::LosesByAtMost, 3}).dump(), R"({"code":"loses_by_at_most","n":3})");
  EXPECT_EQ(verdictJson({VerdictCode::Estimate, 0}).dump(), R"({"code":"estimate","n":0})");
}

TEST(HintJson, ReasonCodes) {
  EXPECT_EQ(reasonJson({Reason::ExtraTurn}).dump(), R"({"code":"extra_turn"})");
  EXPECT_EQ(reasonJson({Reason::Captures, 5}).dump(), R"({"code":"captures","n":5})");
  EXPECT_EQ(reasonJson({Reason::Protects, 4, 1}).dump(), R"({"code":"protects","n":4})");
  EXPECT_EQ(reasonJson({Reason::StopsCapture, 6, 2}).dump(), R"({"code":"stops_capture","n":6})");
  EXPECT_EQ(reasonJson({Reason::NoExtraTurnForOpponent}).dump(), R"({"code":"no_extra_turn_for_opponent"})");
  EXPECT_EQ(reasonJson({Reason::Feeds}).dump(), R"({"code":"feeds"})");
}

// The engine's own hint, on the wire: Kalah(4,3) solved from the start.
TEST(HintJson, AnEnginesHint) {
  Rules rules = presetRules(Preset::Kalah);
  rules.houses = 4;
  rules.seeds = 3;
  engine::Search search(rules, 4);
  const Position start = search.board().start();
  auto h = engine::hint(search, start, engine::Limits{});
  ASSERT_TRUE(h.has_value());
  ASSERT_TRUE(h->exact);
  const Json j = hintJson("abc", *h);
  EXPECT_EQ(j["game"], "abc");
  EXPECT_EQ(j["house"], h->move);
  EXPECT_EQ(j["exact"], true);
  EXPECT_EQ(j["value"], h->value);
  const char* code = h->value > 0 ? "wins_by" : h->value < 0 ? "loses_by_at_most" : "draws";
  EXPECT_EQ(j["verdict"]["code"], code);
  Json reasons = Json::array();
  for (const auto& r : engine::moveReasons(search.board(), start, h->move)) reasons.push_back(reasonJson(r));
  EXPECT_EQ(j["reasons"], reasons);
  ASSERT_EQ(j["moves"].size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(j["moves"][i]["house"], static_cast<int>(i) + 1);
}

}  // namespace
}  // namespace semis::views
