// An account's sessions (store/SessionStore.hpp) on every backend: SQLite always, PostgreSQL with
// SEMIS_TEST_PG. Sessions are described, seen, listed newest first, and ended one by one or all at
// once, never another player's; and one open seek per player, game and clock (schema version 5).

#include <gtest/gtest.h>

#include "store/ClubStore.hpp"
#include "store/SessionStore.hpp"
#include "BackendSuite.hpp"

namespace semis::store {
namespace {

using testing::hashOf;

class SessionSuite : public testing::BackendSuite {
 protected:
  void SetUp() override {
    BackendSuite::SetUp();
    if (notReady()) return;
    for (const char* id : {"alice00001", "bob0000001"}) {
      ASSERT_TRUE(store_->createPlayer(PlayerRow{id, id, 10}, std::string(64, id[0])));
    }
  }
  SessionStore& sessions() { return store_->sessions(); }
};

// A token hash: 64 times one hex digit (Alice's first is 'a', Bob's 'b').

TEST_P(SessionSuite, SessionsAreDescribedSeenListedAndEnded) {
  ASSERT_TRUE(store_->club().addToken("alice00001", hashOf('c')));
  ASSERT_TRUE(store_->club().addToken("alice00001", hashOf('d')));
  ASSERT_TRUE(sessions().describe(hashOf('c'), std::string(500, 'x'), "10.0.0.1", 1000));
  ASSERT_TRUE(sessions().describe(hashOf('d'), "Firefox", "10.0.0.2", 2000));
  ASSERT_TRUE(sessions().seen(hashOf('c'), "10.0.0.9", 3000));
  auto list = sessions().list("alice00001");
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 3U);
  EXPECT_EQ((*list)[0].tokenHash, hashOf('c')) << "the most recently seen first";
  EXPECT_EQ((*list)[0].id, std::string(16, 'c'));
  EXPECT_EQ((*list)[0].created, 1000);
  EXPECT_EQ((*list)[0].seen, 3000);
  EXPECT_EQ((*list)[0].address, "10.0.0.9");
  EXPECT_EQ((*list)[0].device.size(), kDeviceChars) << "a device's description is bounded";
  EXPECT_EQ((*list)[1].device, "Firefox");
  EXPECT_EQ((*list)[2].created, 0) << "the guest's first token, never described";
  // Another player cannot end them; a prefix of an id ends nothing.
  auto none = sessions().revoke("bob0000001", std::string(16, 'c'));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_TRUE(sessions().revoke("alice00001", std::string(8, 'c'))->empty());
  auto one = sessions().revoke("alice00001", std::string(16, 'c'));
  ASSERT_TRUE(one);
  EXPECT_EQ(*one, std::vector<std::string>{hashOf('c')});
  EXPECT_FALSE(*store_->playerByToken(hashOf('c'))) << "an ended session opens nothing";
  auto all = sessions().revoke("alice00001", "");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 2U);
  EXPECT_TRUE(sessions().list("alice00001")->empty());
  EXPECT_EQ(sessions().list("bob0000001")->size(), 1U) << "Bob's untouched";
}

TEST_P(SessionSuite, OnePlayerHasOneOpenSeekPerGameAndClock) {
  SeekRow seek;
  seek.id = "seek000001";
  seek.player = "alice00001";
  seek.rules = "kalah";
  seek.quick = true;
  seek.created = 10;
  ASSERT_TRUE(store_->club().createSeek(seek));
  SeekRow again = seek;
  again.id = "seek000002";
  auto twice = store_->club().createSeek(again);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().fault, Fault::Conflict);
  again.clockSeconds = 180;
  again.clockIncrement = 2;
  EXPECT_TRUE(store_->club().createSeek(again)) << "another clock";
  SeekRow bobs = seek;
  bobs.id = "seek000003";
  bobs.player = "bob0000001";
  EXPECT_TRUE(store_->club().createSeek(bobs)) << "another player";
  ASSERT_TRUE(store_->club().cancelSeek("seek000001", "alice00001"));
  seek.id = "seek000004";
  EXPECT_TRUE(store_->club().createSeek(seek)) << "once the first is gone";
}

INSTANTIATE_TEST_SUITE_P(Backends, SessionSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace semis::store
