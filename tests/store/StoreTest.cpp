#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "store/Store.hpp"

namespace semis::store {
namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/semis-store-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/t.db";
  }
  void TearDown() override { (void)std::system(("rm -rf '" + dir_ + "'").c_str()); }
  std::string dir_, path_;
};

TEST_F(StoreTest, KeepsGamesMovesEventsAcrossReopen) {
  {
    auto s = Store::open(path_);
    ASSERT_TRUE(s) << s.error().message;
    Store& st = **s;
    ASSERT_TRUE(st.putPlayer({"tok", "pid", "Ada"}));
    ASSERT_TRUE(st.putPlayer({"tok", "pid", "Ada L."}));  // a rename updates
    ASSERT_TRUE(st.insertGame({"g1", "kalah", "friend", "medium", 5, 3, "tok", "", "waiting", "", 1}));
    ASSERT_TRUE(st.insertGame({"g2", "kalah", "ai", "easy", 0, 0, "tok", "ai", "playing", "", 2}));
    ASSERT_TRUE(st.begin());
    ASSERT_TRUE(st.insertMove({"g1", 1, "move", 0, 3, "\"m1\"", 1000, 2000, 2}));
    ASSERT_TRUE(st.insertEvent("g1", {2, R"({"type":"event"})"}));
    ASSERT_TRUE(st.commit());
    ASSERT_TRUE(st.updateGame("g2", "tok", "ai", "over", R"({"winner":"S"})"));
    // The same move twice is refused: (game, seq) is the key.
    ASSERT_TRUE(st.begin());
    EXPECT_FALSE(st.insertMove({"g1", 1, "move", 0, 4, "", -1, -1, 3}));
    st.rollback();
  }
  auto s = Store::open(path_);
  ASSERT_TRUE(s);
  auto players = (*s)->players();
  ASSERT_TRUE(players);
  ASSERT_EQ(players->size(), 1U);
  EXPECT_EQ((*players)[0].name, "Ada L.");
  auto games = (*s)->unfinishedGames();
  ASSERT_TRUE(games);
  ASSERT_EQ(games->size(), 1U) << "g2 is over";
  EXPECT_EQ((*games)[0].id, "g1");
  EXPECT_EQ((*games)[0].clockSeconds, 5);
  auto moves = (*s)->moves("g1");
  ASSERT_TRUE(moves);
  ASSERT_EQ(moves->size(), 1U);
  EXPECT_EQ((*moves)[0].house, 3);
  EXPECT_EQ((*moves)[0].clientId, "\"m1\"");
  EXPECT_EQ((*moves)[0].clockN, 2000);
  EXPECT_EQ((*moves)[0].eventN, 2);
  auto events = (*s)->events("g1");
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 1U);
  EXPECT_EQ((*events)[0].n, 2);
  EXPECT_EQ(*(*s)->countGames(), 2);
}

TEST_F(StoreTest, UsesWriteAheadLogging) {
  ASSERT_TRUE(Store::open(path_));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

TEST_F(StoreTest, AnUnopenablePathIsAnError) {
  auto s = Store::open(dir_ + "/missing/dir/x.db");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace semis::store

namespace semis::store {
namespace {

TEST(StoreCheckpoint, MovesTheLogIntoTheDatabaseFile) {
  char tmpl[] = "/tmp/semis-store-cp-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, path = dir + "/t.db";
  {
    auto s = Store::open(path);
    ASSERT_TRUE(s);
    ASSERT_TRUE((*s)->insertGame({"g1", "kalah", "friend", "medium", 0, 0, "tok", "", "waiting", "", 1}));
    for (int i = 1; i <= 200; ++i) ASSERT_TRUE((*s)->insertEvent("g1", {i, std::string(2000, 'e')}));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    auto pages = [db] {
      sqlite3_stmt* st = nullptr;
      sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st, nullptr);
      sqlite3_step(st);
      const int n = sqlite3_column_int(st, 0);
      sqlite3_finalize(st);
      return n;
    };
    // Before a checkpoint the file itself holds (almost) nothing: the rows are in the log.
    struct stat before{};
    ASSERT_EQ(stat(path.c_str(), &before), 0);
    ASSERT_TRUE((*s)->checkpoint());
    struct stat after{};
    ASSERT_EQ(stat(path.c_str(), &after), 0);
    EXPECT_GT(after.st_size, before.st_size);
    EXPECT_GE(after.st_size, 200 * 2000);
    EXPECT_GT(pages(), 100);
    sqlite3_close(db);
  }
  (void)std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
}  // namespace semis::store
