// The bots' service (bots/BotService.hpp) as the KGP gateway asks it: a token opens its bot (id,
// name, owner) until it is replaced or revoked; a malformed, unknown or ended token is `bad_token`;
// bots are found by name (whatever the case) and id, people are not; the gateway hears which bot's
// token ended. On a real SQLite store and hub, in-process.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "accounts/Passwords.hpp"
#include "accounts/Tokens.hpp"
#include "bots/BotService.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {
namespace {

class BotServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/semis-bots-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    auto s = store::openStore(dir_ + "/t.db");
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
    players_ = std::make_unique<Players>(*store_, metrics_);
    hub_ = std::make_unique<Hub>(*store_, *players_, metrics_, makeGreedyMoveSource(), HubOptions{});
    bots_ = std::make_unique<BotService>(*store_, *hub_, *players_, BotOptions{3});
    alice_ = member("alice");
  }
  void TearDown() override {
    bots_.reset();
    if (hub_) hub_->stopAi();
    hub_.reset();
    std::filesystem::remove_all(dir_);
  }
  // A signed-up member as a request sees him.
  Identity member(const std::string& username) {
    Identity me{accounts::newToken(), "", username, false, true, "127.0.0.1", ""};
    me.id = accounts::guestId(me.token);
    EXPECT_TRUE(store_->createPlayer(store::PlayerRow{me.id, username, 1}, accounts::hashToken(me.token)));
    EXPECT_TRUE(store_->club().createAccount(store::AccountRow{me.id, username, "x", 1, accounts::usernameKey(username)}));
    return me;
  }

  std::string dir_;
  Metrics metrics_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<Players> players_;
  std::unique_ptr<Hub> hub_;
  std::unique_ptr<BotService> bots_;
  Identity alice_;
};

TEST_F(BotServiceTest, ATokenOpensItsBotUntilReplacedOrRevoked) {
  std::vector<std::string> ended;
  bots_->onTokenEnded([&](const std::string& id) { ended.push_back(id); });
  auto made = bots_->create(alice_, "Deep Sower");
  ASSERT_TRUE(made) << made.error().message;
  auto who = bots_->authenticate(made->token);
  ASSERT_TRUE(who) << who.error().message;
  EXPECT_EQ(who->id, made->bot.id);
  EXPECT_EQ(who->name, "Deep Sower");
  EXPECT_EQ(who->ownerId, alice_.id);
  EXPECT_NE(who->id, alice_.id);

  // A token of the cookie's shape that no bot holds, a person's session token, and malformed ones.
  for (const std::string& bad : {accounts::newToken(), alice_.token, std::string(), std::string("secret"),
                                 std::string(64, 'g'), made->token + "0", made->token.substr(1)}) {
    auto r = bots_->authenticate(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::BadToken) << bad;
  }

  auto rotated = bots_->newToken(alice_, made->bot.id);
  ASSERT_TRUE(rotated) << rotated.error().message;
  EXPECT_EQ(ended, std::vector<std::string>{made->bot.id}) << "the gateway hears the old token ended";
  EXPECT_EQ(bots_->authenticate(made->token).error().code, ErrorCode::BadToken) << "the old token stops working";
  ASSERT_TRUE(bots_->authenticate(rotated->token));

  ASSERT_TRUE(bots_->revoke(alice_, made->bot.id));
  EXPECT_EQ(ended.size(), 2U);
  EXPECT_EQ(bots_->authenticate(rotated->token).error().code, ErrorCode::BadToken) << "a revoked bot's token";
}

TEST_F(BotServiceTest, BotsAreFoundByNameAndIdPeopleAreNot) {
  auto made = bots_->create(alice_, "Deep Sower");
  ASSERT_TRUE(made);
  for (const char* name : {"Deep Sower", "deep sower", "DEEP SOWER"}) {
    auto info = bots_->byName(name);
    ASSERT_TRUE(info) << name;
    EXPECT_EQ(info->id, made->bot.id);
    EXPECT_EQ(info->ownerId, alice_.id);
    EXPECT_EQ(info->ownerName, "alice");
    EXPECT_FALSE(info->revoked);
  }
  EXPECT_FALSE(bots_->byName("alice")) << "a member";
  EXPECT_FALSE(bots_->byName("Deep"));
  EXPECT_FALSE(bots_->byName(""));
  EXPECT_FALSE(bots_->byId(alice_.id)) << "a person";
  EXPECT_FALSE(bots_->byId("../../etc"));
  ASSERT_TRUE(bots_->byId(made->bot.id));
  EXPECT_EQ(bots_->byId(made->bot.id)->name, "Deep Sower");
  ASSERT_TRUE(bots_->revoke(alice_, made->bot.id));
  ASSERT_TRUE(bots_->byId(made->bot.id));
  EXPECT_TRUE(bots_->byId(made->bot.id)->revoked) << "a revoked bot keeps its profile: the gateway checks `revoked`";
}

TEST_F(BotServiceTest, OnlySignedInMembersOwnBotsWithinTheirLimit) {
  Identity guest{accounts::newToken(), "", "Guest", true, false, "127.0.0.1", ""};
  guest.id = accounts::guestId(guest.token);
  EXPECT_EQ(bots_->create(guest, "Guest Bot").error().code, ErrorCode::SignInNeeded);
  EXPECT_EQ(bots_->list(guest).error().code, ErrorCode::SignInNeeded);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(bots_->create(alice_, "Bot " + std::to_string(i)));
  EXPECT_EQ(bots_->create(alice_, "Bot 3").error().code, ErrorCode::BotLimit);
  EXPECT_EQ(bots_->create(member("bob"), "bot 0").error().code, ErrorCode::NameTaken);
  EXPECT_EQ(bots_->create(alice_, "").error().code, ErrorCode::BadName);
  EXPECT_EQ(bots_->list(alice_)->size(), 3U);
}

}  // namespace
}  // namespace semis::server
