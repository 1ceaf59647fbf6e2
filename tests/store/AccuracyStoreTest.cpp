// Bots' accuracy against the solver (store/AccuracyStore.hpp) on every backend: SQLite always,
// PostgreSQL with SEMIS_TEST_PG. The finished games with a bot in a seat and no review are found
// (and no other game), a game's rows are kept once, a bot's sums add its games; a database of the
// version before gains the table when opened.

#include <gtest/gtest.h>
#include "store/AccuracyStore.hpp"
#include "store/BotStore.hpp"
#include "store/ClubStore.hpp"
#include "BackendSuite.hpp"

namespace semis::store {
namespace {

class AccuracySuite : public testing::BackendSuite {
 protected:
  void SetUp() override {
    BackendSuite::SetUp();
    if (notReady()) return;
    for (const char* id : {"alice00001", "bob0000001"}) {
      ASSERT_TRUE(store_->createPlayer(PlayerRow{id, id, 10}, std::string(63, '0') + id[0]));
    }
    ASSERT_TRUE(store_->club().createAccount(AccountRow{"alice00001", "Alice", "x", 10, "alice"}));
    for (const auto& [id, name, token] : {std::tuple{"botalice01", "One", 'c'}, std::tuple{"botalice02", "Two", 'd'}}) {
      auto made = store_->bots().createBot(BotRow{id, name, "alice00001", 100, 0}, name, std::string(64, token), 5);
      ASSERT_TRUE(made && *made == BotChange::Done);
    }
  }
  AccuracyStore& accuracy() { return store_->accuracy(); }
  void game(const std::string& id, const std::string& s, const std::string& n, const std::string& status, long long at,
            const std::string& result = R"({"winner":"S","reason":"resigned"})") {
    GameRow g{id, "kalah", "bot", "", 0, 0, s, n, status, status == "over" ? result : "", at, at, false};
    ASSERT_TRUE(store_->createGame(g, {}));
  }
  std::vector<std::string> unreviewed(long long since = 0) {
    auto ids = accuracy().unreviewedBotGames(since, 100);
    EXPECT_TRUE(ids) << ids.error().message;
    return ids ? *ids : std::vector<std::string>{};
  }
};

TEST_P(AccuracySuite, FinishedBotGamesWithoutAReviewAreFound) {
  game("g000000001", "alice00001", "botalice01", "over", 1000);
  game("g000000002", "botalice02", "bob0000001", "over", 900);
  game("g000000003", "alice00001", "bob0000001", "over", 1000);   // no bot
  game("g000000004", "alice00001", "botalice01", "playing", 1000);  // not over
  game("g000000005", "botalice01", "ai", "abandoned", 1000);        // not over
  game("g000000006", "botalice01", "botalice02", "over", 50);       // bot against bot, long ago
  game("g000000007", "alice00001", "botalice01", "over", 1000, R"({"winner":"N","reason":"aborted"})");  // not played
  EXPECT_EQ(unreviewed(), (std::vector<std::string>{"g000000006", "g000000002", "g000000001"})) << "oldest first";
  EXPECT_EQ(unreviewed(950), (std::vector<std::string>{"g000000001"})) << "since the given time";
  auto one = accuracy().unreviewedBotGames(0, 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1U) << "at most the limit";
}

TEST_P(AccuracySuite, AGameIsKeptOnceAndABotsSumsAddItsGames) {
  game("g000000001", "botalice01", "botalice02", "over", 1000);
  game("g000000002", "alice00001", "botalice01", "over", 2000);
  auto kept = accuracy().keepAccuracy({{"g000000001", "botalice01", 9, 12, 5}, {"g000000001", "botalice02", 3, 10, 5}});
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_TRUE(*kept);
  EXPECT_EQ(unreviewed(), (std::vector<std::string>{"g000000002"})) << "a reviewed game is not found again";
  auto again = accuracy().keepAccuracy({{"g000000001", "botalice01", 1, 1, 6}});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(*again) << "a second review of the same game changes nothing";
  ASSERT_TRUE(accuracy().keepAccuracy({{"g000000002", "botalice01", 0, 0, 7}}));
  auto total = accuracy().accuracyOf("botalice01");
  ASSERT_TRUE(total) << total.error().message;
  EXPECT_EQ(total->perfect, 9);
  EXPECT_EQ(total->proven, 12);
  EXPECT_EQ(total->games, 2) << "a game without a proven move is a reviewed game all the same";
  auto two = accuracy().accuracyOf("botalice02");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->perfect, 3);
  EXPECT_EQ(two->proven, 10);
  EXPECT_EQ(two->games, 1);
  auto none = accuracy().accuracyOf("alice00001");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->games, 0);
  EXPECT_EQ(none->proven, 0);
  auto rows = accuracy().accuracyOfGame("g000000001");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2U);
  EXPECT_EQ((*rows)[0].player, "botalice01");
  EXPECT_EQ((*rows)[0].perfect, 9);
  EXPECT_EQ((*rows)[0].at, 5);
  EXPECT_TRUE(accuracy().accuracyOfGame("g000000009")->empty());
}

// A database of the contests' version (7), with its bots and games, gains the table when opened.
TEST_P(AccuracySuite, ABotsDatabaseGainsAccuracyAndKeepsItsGames) {
  game("g000000001", "alice00001", "botalice01", "over", 1000);
  store_.reset();
  ASSERT_EQ(testing::rawExec(*db_, "DROP TABLE bot_accuracy"), "");
  ASSERT_EQ(testing::rawExec(*db_, "UPDATE schema_version SET version=7"), "");
  auto reopened = openStore(db_->where());
  ASSERT_TRUE(reopened) << reopened.error().message;
  store_ = std::move(*reopened);
  EXPECT_EQ(unreviewed(), (std::vector<std::string>{"g000000001"})) << "the game before the upgrade is found";
  ASSERT_TRUE(accuracy().keepAccuracy({{"g000000001", "botalice01", 2, 3, 5}}));
  EXPECT_EQ(accuracy().accuracyOf("botalice01")->proven, 3);
}

INSTANTIATE_TEST_SUITE_P(Backends, AccuracySuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace semis::store
