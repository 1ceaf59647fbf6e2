// What only the PostgreSQL backend has: other sessions' locks, connections the server drops, a
// read-only database, servers starting together. Skipped without SEMIS_TEST_PG (an admin URL).

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <thread>

#include "TestDb.hpp"
#include "accounts/Tokens.hpp"
#include "store/PgPool.hpp"
#include "store/Store.hpp"

namespace semis::store {
namespace {

using testing::TestDb;

class PgStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::pgAdminUrl()) GTEST_SKIP() << "PostgreSQL store tests skipped: set SEMIS_TEST_PG to an admin URL";
    db_ = std::make_unique<TestDb>("postgresql");
    ASSERT_EQ(db_->error(), "");
  }
  std::unique_ptr<TestDb> db_;
};

// A session of its own on the test database, as psql or a backup would hold it.
class Session {
 public:
  explicit Session(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
    EXPECT_EQ(PQstatus(conn_), CONNECTION_OK) << PQerrorMessage(conn_);
  }
  ~Session() { PQfinish(conn_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  bool exec(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    EXPECT_TRUE(ok) << sql << ": " << PQresultErrorMessage(r);
    PQclear(r);
    return ok;
  }

 private:
  PGconn* conn_;
};

GameRow game(const std::string& id) {
  return GameRow{id, "kalah(6,4)", "ai", "easy", 0, 0, "Player0001", "ai", "playing", "", 10, 10};
}

TEST(PgFaults, MapTheServersErrors) {
  EXPECT_EQ(pgFault("23505", false), Fault::Conflict);
  EXPECT_EQ(pgFault("23503", false), Fault::Conflict);
  EXPECT_EQ(pgFault("53100", false), Fault::Full);
  EXPECT_EQ(pgFault("25006", false), Fault::ReadOnly);
  EXPECT_EQ(pgFault("40001", false), Fault::Busy);
  EXPECT_EQ(pgFault("55P03", false), Fault::Busy);
  EXPECT_EQ(pgFault("57P01", true), Fault::Busy);
  EXPECT_EQ(pgFault("08006", true), Fault::Busy);
  EXPECT_EQ(pgFault(nullptr, true), Fault::Busy);
  EXPECT_EQ(pgFault("XX001", false), Fault::Corrupt);
  EXPECT_EQ(pgFault("42P01", false), Fault::Other);
  EXPECT_EQ(pgFault(nullptr, false), Fault::Other);
}

TEST(PgUnreachable, OpenAnswersBusy) {
  // Nothing listens on port 1: the server is down, which a retry may cure.
  auto s = openStore("postgresql://postgres@127.0.0.1:1/semis");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().fault, Fault::Busy) << s.error().message;
}

TEST_F(PgStoreTest, AnswersBusyWhileAnotherSessionHoldsALock) {
  OpenOptions options;
  options.busyTimeoutMs = 100;
  auto s = openStore(db_->where(), options);
  ASSERT_TRUE(s) << s.error().message;
  Store& st = **s;
  ASSERT_TRUE(st.createGame(game("game000001"), {}));
  Session shell(db_->where());
  // A row lock on the game: its next action waits for it, then answers Busy.
  ASSERT_TRUE(shell.exec("BEGIN"));
  ASSERT_TRUE(shell.exec("SELECT * FROM games WHERE id='game000001' FOR UPDATE"));
  Action a;
  a.game = "game000001";
  a.move = MoveRow{1, "move", 0, 2, "", -1, -1, 1};
  a.events = {{1, "{}"}};
  a.at = 20;
  auto blocked = st.apply(a);
  ASSERT_FALSE(blocked);
  EXPECT_EQ(blocked.error().fault, Fault::Busy) << blocked.error().message;
  // Another game is not held up.
  ASSERT_TRUE(st.createGame(game("game000002"), {}));
  // A whole table locked: writes and reads of it answer Busy.
  ASSERT_TRUE(shell.exec("LOCK TABLE players IN ACCESS EXCLUSIVE MODE"));
  auto player = st.createPlayer({"Player0001", "Ada", 1}, accounts::hashToken(accounts::newToken()));
  ASSERT_FALSE(player);
  EXPECT_EQ(player.error().fault, Fault::Busy);
  ASSERT_TRUE(shell.exec("COMMIT"));
  // The refused action left nothing: it goes through whole now.
  ASSERT_TRUE(st.apply(a));
  EXPECT_EQ((*st.loadGame("game000001"))->moves.size(), 1U);
  ASSERT_TRUE(st.createPlayer({"Player0001", "Ada", 1}, accounts::hashToken(accounts::newToken())));
}

TEST_F(PgStoreTest, ReconnectsWhenTheServerDropsItsConnections) {
  auto s = openStore(db_->where());
  ASSERT_TRUE(s) << s.error().message;
  Store& st = **s;
  ASSERT_TRUE(st.createGame(game("game000001"), {}));
  // Use several pooled connections at once, so more than one is open.
  std::vector<std::thread> readers;
  for (int i = 0; i < 4; ++i) readers.emplace_back([&] { (void)st.countGames(); });
  for (auto& t : readers) t.join();
  Session admin(db_->admin());
  ASSERT_TRUE(admin.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname='" + db_->name() +
                         "' AND pid <> pg_backend_pid()"));
  // Every pooled connection is dead now; each call notices, connects anew and goes through.
  for (int i = 1; i <= 6; ++i) {
    Action a;
    a.game = "game000001";
    a.events = {{i, "{}"}};
    a.at = 10 + i;
    auto r = st.apply(a);
    EXPECT_TRUE(r) << r.error().message;
  }
  auto log = st.loadGame("game000001");
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_EQ((*log)->events.size(), 6U);
}

TEST_F(PgStoreTest, RefusesAReadOnlyDatabaseAtOpen) {
  ASSERT_TRUE(openStore(db_->where()));  // the schema exists
  Session admin(db_->admin());
  ASSERT_TRUE(admin.exec("ALTER DATABASE " + db_->name() + " SET default_transaction_read_only = on"));
  auto s = openStore(db_->where());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().fault, Fault::ReadOnly) << s.error().message;
}

TEST_F(PgStoreTest, ServersStartingTogetherMigrateOnce) {
  std::vector<std::thread> servers;
  std::vector<std::string> errors(4);
  for (int i = 0; i < 4; ++i) {
    servers.emplace_back([&, i] {
      auto s = openStore(db_->where());
      if (!s) errors[i] = s.error().message;
    });
  }
  for (auto& t : servers) t.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  auto s = openStore(db_->where());
  ASSERT_TRUE(s);
  EXPECT_EQ(*(*s)->countGames(), 0);
}

TEST_F(PgStoreTest, RefusesANewerSchema) {
  ASSERT_TRUE(openStore(db_->where()));
  Session session(db_->where());
  ASSERT_TRUE(session.exec("UPDATE schema_version SET version = 99"));
  auto s = openStore(db_->where());
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("version 99"), std::string::npos) << s.error().message;
}

}  // namespace
}  // namespace semis::store
