// Bot accounts (store/BotStore.hpp) on every backend: SQLite always, PostgreSQL with SEMIS_TEST_PG.
// A bot is a player row with an owner and a hashed token; its name is unique among bots' names and
// usernames whatever the case; the per-owner limit counts bots not revoked; renames, new tokens and
// revocations touch only the owner's bots; a revoked bot's token opens nothing (schema version 6).

#include <gtest/gtest.h>

#include "store/BotStore.hpp"
#include "store/ClubStore.hpp"
#include "BackendSuite.hpp"

namespace semis::store {
namespace {

using testing::hashOf;

// Keys as the caller computes them (accounts::usernameKey): lower case.
std::string key(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

class BotSuite : public testing::BackendSuite {
 protected:
  void SetUp() override {
    BackendSuite::SetUp();
    if (notReady()) return;
    for (const char* id : {"alice00001", "bob0000001", "guest00001"}) {
      ASSERT_TRUE(store_->createPlayer(PlayerRow{id, id, 10}, std::string(63, '0') + id[0]));
    }
    ASSERT_TRUE(store_->club().createAccount(AccountRow{"alice00001", "Alice", "x", 10, "alice"}));
    ASSERT_TRUE(store_->club().createAccount(AccountRow{"bob0000001", "Bob", "x", 10, "bob"}));
  }
  BotStore& bots() { return store_->bots(); }
  StoreResult<BotChange> make(const std::string& id, const std::string& name, const std::string& owner, char token,
                              int max = 5) {
    return bots().createBot(BotRow{id, name, owner, 100, 0}, key(name), hashOf(token), max);
  }
};

TEST_P(BotSuite, ABotIsAPlayerWithAnOwnerAndAHashedToken) {
  auto made = make("botalice01", "Kalah Crusher", "alice00001", 'c');
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(*made, BotChange::Done);
  auto player = store_->player("botalice01");
  ASSERT_TRUE(player && *player);
  EXPECT_EQ((*player)->name, "Kalah Crusher") << "a bot is a player row: games, ratings and profile";
  auto byToken = bots().botByTokenHash(hashOf('c'));
  ASSERT_TRUE(byToken && *byToken);
  EXPECT_EQ((*byToken)->player, "botalice01");
  EXPECT_EQ((*byToken)->owner, "alice00001");
  EXPECT_EQ((*byToken)->name, "Kalah Crusher");
  EXPECT_EQ((*byToken)->created, 100);
  EXPECT_EQ((*byToken)->revoked, 0);
  EXPECT_FALSE(*store_->playerByToken(hashOf('c'))) << "a bot's token is no cookie session";
  auto byName = bots().botByName("kalah crusher");
  ASSERT_TRUE(byName && *byName);
  EXPECT_EQ((*byName)->player, "botalice01");
  EXPECT_TRUE(*bots().bot("botalice01"));
  EXPECT_FALSE(*bots().bot("alice00001")) << "a person is no bot";
  EXPECT_FALSE(*bots().botByTokenHash(hashOf('d')));
}

TEST_P(BotSuite, NamesAreUniqueAmongBotsAndUsernamesWhateverTheCase) {
  ASSERT_EQ(*make("bot0000001", "Crusher", "alice00001", 'c'), BotChange::Done);
  EXPECT_EQ(*make("bot0000002", "CRUSHER", "bob0000001", 'd'), BotChange::NameTaken);
  EXPECT_EQ(*make("bot0000002", "bob", "alice00001", 'd'), BotChange::NameTaken) << "a member's username";
  EXPECT_FALSE(*store_->player("bot0000002")) << "a refusal writes nothing";
  EXPECT_FALSE(*bots().botByTokenHash(hashOf('d')));
  // And the other way: a username may not be a bot's name.
  ASSERT_TRUE(store_->createPlayer(PlayerRow{"carol00001", "carol", 10}, hashOf('e')));
  auto account = store_->club().createAccount(AccountRow{"carol00001", "crusher", "x", 10, "crusher"});
  ASSERT_FALSE(account);
  EXPECT_EQ(account.error().fault, Fault::Conflict);
  EXPECT_FALSE(*store_->club().accountOf("carol00001"));
}

TEST_P(BotSuite, OnlyMembersOwnBotsAndTheLimitCountsThoseNotRevoked) {
  EXPECT_EQ(*make("bot0000009", "Orphan", "guest00001", 'g'), BotChange::NotAMember);
  EXPECT_EQ(*make("bot0000009", "Orphan", "nobody0001", 'g'), BotChange::NotAMember);
  EXPECT_FALSE(*store_->player("bot0000009"));
  ASSERT_EQ(*make("bot0000001", "One", "alice00001", 'a', 2), BotChange::Done);
  ASSERT_EQ(*make("bot0000002", "Two", "alice00001", 'b', 2), BotChange::Done);
  EXPECT_EQ(*make("bot0000003", "Three", "alice00001", 'c', 2), BotChange::LimitReached);
  EXPECT_FALSE(*store_->player("bot0000003"));
  EXPECT_EQ(*make("bot0000004", "Four", "bob0000001", 'd', 2), BotChange::Done) << "each owner his own limit";
  ASSERT_EQ(*bots().revokeBot("alice00001", "bot0000001", 500), BotChange::Done);
  EXPECT_EQ(*make("bot0000003", "Three", "alice00001", 'c', 2), BotChange::Done) << "a revoked bot frees its place";
  auto list = bots().botsOf("alice00001");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->size(), 3U) << "revoked ones are listed too";
  EXPECT_EQ((*list)[0].player, "bot0000001");
  EXPECT_EQ((*list)[0].revoked, 500);
  EXPECT_EQ(bots().botsOf("bob0000001")->size(), 1U);
}

TEST_P(BotSuite, OnlyTheOwnerRenamesRotatesAndRevokes) {
  ASSERT_EQ(*make("bot0000001", "Crusher", "alice00001", 'c'), BotChange::Done);
  ASSERT_EQ(*make("bot0000002", "Sower", "alice00001", 'd'), BotChange::Done);
  EXPECT_EQ(*bots().renameBot("bob0000001", "bot0000001", "Mine", "mine"), BotChange::NotFound);
  EXPECT_EQ(*bots().newBotToken("bob0000001", "bot0000001", hashOf('e')), BotChange::NotFound);
  EXPECT_EQ(*bots().revokeBot("bob0000001", "bot0000001", 5), BotChange::NotFound);
  EXPECT_EQ(*bots().renameBot("alice00001", "bot0000001", "sower", "sower"), BotChange::NameTaken);
  EXPECT_EQ(*bots().renameBot("alice00001", "bot0000001", "Alice", "alice"), BotChange::NameTaken);
  EXPECT_EQ((*store_->player("bot0000001"))->name, "Crusher") << "refusals change nothing";
  EXPECT_EQ(*bots().renameBot("alice00001", "bot0000001", "CRUSHER 2", "crusher 2"), BotChange::Done);
  EXPECT_EQ((*store_->player("bot0000001"))->name, "CRUSHER 2");
  EXPECT_EQ(*bots().renameBot("alice00001", "bot0000001", "Crusher 2", "crusher 2"), BotChange::Done)
      << "its own name in another case";
  EXPECT_TRUE(*bots().botByName("crusher 2"));
  EXPECT_FALSE(*bots().botByName("crusher")) << "the old name is free again";
  // A new token: the old one opens nothing.
  ASSERT_EQ(*bots().newBotToken("alice00001", "bot0000001", hashOf('e')), BotChange::Done);
  EXPECT_FALSE(*bots().botByTokenHash(hashOf('c')));
  EXPECT_TRUE(*bots().botByTokenHash(hashOf('e')));
  // Revoked: its token opens nothing, its name and player stay, and it changes no more.
  ASSERT_EQ(*bots().revokeBot("alice00001", "bot0000001", 700), BotChange::Done);
  EXPECT_FALSE(*bots().botByTokenHash(hashOf('e')));
  EXPECT_TRUE(*store_->player("bot0000001"));
  EXPECT_EQ((*bots().bot("bot0000001"))->revoked, 700);
  EXPECT_EQ(*bots().revokeBot("alice00001", "bot0000001", 900), BotChange::Done) << "twice is fine";
  EXPECT_EQ((*bots().bot("bot0000001"))->revoked, 700) << "the first time stays";
  EXPECT_EQ(*bots().newBotToken("alice00001", "bot0000001", hashOf('f')), BotChange::Revoked);
  EXPECT_EQ(*bots().renameBot("alice00001", "bot0000001", "Back", "back"), BotChange::Revoked);
  EXPECT_FALSE(*bots().botByTokenHash(hashOf('f')));
  EXPECT_EQ(*make("bot0000003", "crusher 2", "bob0000001", 'g'), BotChange::NameTaken) << "a revoked bot keeps its name";
  EXPECT_TRUE(*bots().botByTokenHash(hashOf('d'))) << "the other bot untouched";
}

TEST_P(BotSuite, DeletingTheOwnersAccountRevokesHisBots) {
  ASSERT_EQ(*make("bot0000001", "Crusher", "alice00001", 'c'), BotChange::Done);
  ASSERT_EQ(*make("bot0000002", "Other", "bob0000001", 'd'), BotChange::Done);
  ASSERT_TRUE(store_->club().deleteAccount("alice00001", "Deleted player"));
  EXPECT_FALSE(*bots().botByTokenHash(hashOf('c')));
  EXPECT_NE((*bots().bot("bot0000001"))->revoked, 0);
  EXPECT_TRUE(*store_->player("bot0000001")) << "its games and profile stay";
  EXPECT_TRUE(*bots().botByTokenHash(hashOf('d')));
}

// A database of schema version 5 (before bots), with its members, is upgraded in place when opened.
TEST_P(BotSuite, AVersion5DatabaseGainsBotsAndKeepsItsMembers) {
  store_.reset();
  ASSERT_EQ(testing::rawExec(*db_, "DROP TABLE bot_accuracy"), "");  // (later versions')
  ASSERT_EQ(testing::rawExec(*db_, "DROP TABLE contests"), "");
  ASSERT_EQ(testing::rawExec(*db_, "DROP TABLE bots"), "");
  ASSERT_EQ(testing::rawExec(*db_, "UPDATE schema_version SET version=5"), "");
  auto reopened = openStore(db_->where());
  ASSERT_TRUE(reopened) << reopened.error().message;
  store_ = std::move(*reopened);
  EXPECT_TRUE(*store_->club().accountOf("alice00001")) << "its members kept";
  EXPECT_EQ(*make("bot0000001", "Crusher", "alice00001", 'c'), BotChange::Done);
  EXPECT_EQ(*make("bot0000002", "crusher", "bob0000001", 'd'), BotChange::NameTaken) << "the unique name key is there";
}

INSTANTIATE_TEST_SUITE_P(Backends, BotSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace semis::store
