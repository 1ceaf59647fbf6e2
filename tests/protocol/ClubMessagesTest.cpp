#include <gtest/gtest.h>

#include "protocol/Messages.hpp"

namespace semis::protocol {
namespace {

TEST(ClubMessages, ASeekCarriesItsGameClockAndOptions) {
  auto m = parseClientMessage(
      R"({"type":"seek","rules":"kalah","clock":{"minutes":3,"increment":2},"rated":true,"quick":false,"range":200})");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->type, MsgType::Seek);
  ASSERT_TRUE(m->spec);
  EXPECT_EQ(m->spec->clock.seconds, 180);
  EXPECT_EQ(m->spec->clock.increment, 2);
  EXPECT_TRUE(m->club.rated);
  EXPECT_FALSE(m->club.quick);
  EXPECT_EQ(m->club.range, 200);
  auto quick = parseClientMessage(R"({"type":"seek","rules":"mangala"})");
  ASSERT_TRUE(quick);
  EXPECT_TRUE(quick->club.quick) << "quick unless said";
  EXPECT_FALSE(quick->club.rated);
}

TEST(ClubMessages, BadFieldsAreRefusedWithAReason) {
  for (const char* bad : {
           R"({"type":"seek"})",
           R"({"type":"seek","rules":"kalah","rated":"yes"})",
           R"({"type":"seek","rules":"kalah","range":-5})",
           R"({"type":"seek","rules":"kalah","range":5000})",
           R"({"type":"cancel_seek"})",
           R"({"type":"accept_seek","seek":"a b"})",
           R"({"type":"lobby"})",
           R"({"type":"lobby","on":1})",
           R"({"type":"invite","friend":"abc"})",
           R"({"type":"invite","friend":"abc","spec":{"rules":"nope"}})",
           R"({"type":"invite","spec":{"rules":"kalah"}})",
           R"({"type":"abort"})",
           R"({"type":"claim","game":"../x"})",
           R"({"type":"decline"})",
       }) {
    auto m = parseClientMessage(bad);
    ASSERT_FALSE(m) << bad;
    EXPECT_EQ(m.error().code, semis::protocol::ErrorCode::BadMessage) << bad;
    EXPECT_FALSE(m.error().message.empty()) << bad;
  }
}

TEST(ClubMessages, AnInvitationIsAFriendGame) {
  auto m = parseClientMessage(
      R"({"type":"invite","friend":"Abc123","spec":{"rules":"congkak","mode":"ai","rated":true}})");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->club.friendId, "Abc123");
  ASSERT_TRUE(m->spec);
  EXPECT_EQ(m->spec->mode, Mode::Friend);
  EXPECT_TRUE(m->club.rated);
  auto lobby = parseClientMessage(R"({"type":"lobby","on":true})");
  ASSERT_TRUE(lobby);
  EXPECT_TRUE(lobby->club.on);
  auto claim = parseClientMessage(R"({"type":"claim","game":"G1"})");
  ASSERT_TRUE(claim);
  EXPECT_EQ(claim->type, MsgType::Claim);
  EXPECT_EQ(claim->game, "G1");
}

}  // namespace
}  // namespace semis::protocol
