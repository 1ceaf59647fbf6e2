#include <gtest/gtest.h>

#include <ostream>

#include "protocol/Json.hpp"
#include "protocol/Messages.hpp"

namespace semis::protocol {
namespace {

TEST(Messages, ParsesAMoveWithItsIdAndAfter) {
  auto m = parseClientMessage(R"({"type":"move","game":"Abc123","id":"m7","house":3,"after":12})");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->type, MsgType::Move);
  EXPECT_EQ(m->game, "Abc123");
  EXPECT_EQ(m->id, "m7");
  EXPECT_EQ(m->house, 3);
  ASSERT_TRUE(m->after);
  EXPECT_EQ(*m->after, 12);
  auto n = parseClientMessage(R"({"type":"move","game":"Abc123","id":5,"house":1})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->id, 5);
  EXPECT_FALSE(n->after);
}

TEST(Messages, AliasesAndJoin) {
  EXPECT_EQ(parseClientMessage(R"({"type":"offer_split","game":"g1"})")->type, MsgType::OfferDraw);
  EXPECT_EQ(parseClientMessage(R"({"type":"accept_split","game":"g1"})")->type, MsgType::AcceptDraw);
  auto j = parseClientMessage(R"({"type":"join","game":"g1","last_event":4})");
  ASSERT_TRUE(j);
  EXPECT_EQ(*j->lastEvent, 4);
  EXPECT_EQ(parseClientMessage(R"({"type":"ping","t":1.5})")->t, 1.5);
}

struct Bad {
  const char* text;
  const char* code;
};

// What a failure prints: the message itself (GoogleTest would print the two pointers' bytes).
void PrintTo(const Bad& bad, std::ostream* out) { *out << bad.text << " -> " << bad.code; }

class BadMessages : public ::testing::TestWithParam<Bad> {};

TEST_P(BadMessages, AreRefusedWithACode) {
  auto m = parseClientMessage(GetParam().text);
  ASSERT_FALSE(m) << GetParam().text;
  EXPECT_EQ(wireName(m.error().code), GetParam().code) << GetParam().text;
  EXPECT_FALSE(m.error().message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    All, BadMessages,
    ::testing::Values(Bad{"", "bad_message"}, Bad{"{", "bad_message"}, Bad{"42", "bad_message"},
                      Bad{"[]", "bad_message"}, Bad{R"({"game":"g"})", "bad_message"},
                      Bad{R"({"type":7})", "bad_message"}, Bad{R"({"type":"fly"})", "unknown_type"},
                      Bad{R"({"type":"move","id":1,"house":1})", "bad_message"},
                      Bad{R"({"type":"move","game":"a b","id":1,"house":1})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","house":1})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","id":"","house":1})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","id":[1],"house":1})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","id":1,"house":0})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","id":1,"house":13})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","id":1,"house":2.5})", "bad_message"},
                      Bad{R"({"type":"move","game":"g","id":1,"house":2,"after":-1})", "bad_message"},
                      Bad{R"({"type":"join","game":"g","last_event":"x"})", "bad_message"},
                      Bad{R"({"type":"create","rules":"nope"})", "bad_message"},
                      Bad{R"({"type":"create","rules":"kalah","mode":"solo"})", "bad_message"},
                      Bad{R"({"type":"create","rules":"kalah","clock":{"minutes":0}})", "bad_message"},
                      Bad{R"({"type":"create","rules":"kalah","clock":{"minutes":5,"increment":-1}})", "bad_message"}));

TEST(Messages, OversizedIsTooLarge) {
  const std::string big = R"({"type":"ping","t":")" + std::string(kMaxMessageBytes, 'x') + "\"}";
  auto m = parseClientMessage(big);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, semis::protocol::ErrorCode::TooLarge);
}

TEST(GameSpec, ReadsEveryField) {
  auto s = parseGameSpec(Json::parse(
      R"({"rules":"mangala","mode":"friend","level":"hard","side":"N","clock":{"minutes":5,"increment":3}})"));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->rules.sets, 5);
  EXPECT_EQ(s->mode, Mode::Friend);
  EXPECT_EQ(s->level, "hard");
  EXPECT_EQ(s->side, "N");
  EXPECT_EQ(s->clock.seconds, 300);
  EXPECT_EQ(s->clock.increment, 3);
  auto d = parseGameSpec(Json::parse(R"({"rules":"kalah,houses=4"})"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->rules.houses, 4);
  EXPECT_EQ(d->mode, Mode::Ai);
  EXPECT_FALSE(d->clock.enabled());
}

// Boards up to 12 houses and 12 seeds (issue 24): the spec and the moves take them, no more.
TEST(GameSpec, TakesBoardsUpToTwelveByTwelve) {
  auto s = parseGameSpec(Json::parse(R"({"rules":"kalah,houses=12,seeds=12"})"));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->rules.houses, 12);
  EXPECT_EQ(s->rules.seeds, 12);
  EXPECT_FALSE(parseGameSpec(Json::parse(R"({"rules":"kalah,houses=13"})")));
  EXPECT_FALSE(parseGameSpec(Json::parse(R"({"rules":"kalah,seeds=13"})")));
  auto m = parseClientMessage(R"({"type":"move","game":"g","id":1,"house":12})");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->house, 12);
  auto bad = parseClientMessage(R"({"type":"move","game":"g","id":1,"house":13})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("1..12"), std::string::npos) << bad.error().message;
}

TEST(ErrorMessage, CarriesTheMoveId) {
  const Json e = errorMessage(ErrorCode::IllegalMove, "house 3 is empty", "m1");
  EXPECT_EQ(e["type"], "error");
  EXPECT_EQ(e["id"], "m1");
  EXPECT_EQ(e["code"], "illegal_move");
  EXPECT_FALSE(errorMessage(ErrorCode::BadMessage, "y").contains("id"));
}

// A result says why the rules ended it when the position alone does not: the clients word "end".
TEST(Outcome, TheEndCauseAndTargetAreOnTheWire) {
  Outcome usual{Winner::South, 30, 18};
  EXPECT_EQ(outcomeJson(usual).dump(), R"({"winner":"S","score":[30,18]})");
  Outcome target{Winner::North, 44, 50, EndCause::Target, 50};
  EXPECT_EQ(outcomeJson(target).dump(), R"({"winner":"N","score":[44,50],"end":"target","target":50})");
  Outcome repeated{Winner::Draw, 49, 49, EndCause::Repetition};
  EXPECT_EQ(outcomeJson(repeated)["end"], "repetition");
  EXPECT_EQ(endCauseName(EndCause::IdleLimit), "idle_limit");
}

}  // namespace
}  // namespace semis::protocol
