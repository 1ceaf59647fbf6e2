// What only the SQLite backend has: its file (WAL, read-only at open), other processes' locks, and
// the migration of the unversioned schema (version 1) to version 2.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "TestDb.hpp"
#include "accounts/Tokens.hpp"
#include "store/SqliteStore.hpp"
#include "store/Store.hpp"

namespace semis::store {
namespace {

using testing::TestDb;

// A plain connection to the file, as the sqlite3 shell or a backup would hold it.
class Raw {
 public:
  explicit Raw(const std::string& path) { EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK); }
  ~Raw() { sqlite3_close(db_); }
  Raw(const Raw&) = delete;
  Raw& operator=(const Raw&) = delete;
  int exec(const std::string& sql) { return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr); }
  std::string text(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    std::string out = "<error>";
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) == SQLITE_OK) {
      const int rc = sqlite3_step(s);
      if (rc == SQLITE_ROW) out = sqlite3_column_text(s, 0) ? reinterpret_cast<const char*>(sqlite3_column_text(s, 0)) : "";
      if (rc == SQLITE_DONE) out = "<none>";
    }
    sqlite3_finalize(s);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

TEST(SqliteStore, MapsResultCodesToFaults) {
  EXPECT_EQ(sqliteFault(SQLITE_BUSY), Fault::Busy);
  EXPECT_EQ(sqliteFault(SQLITE_BUSY_SNAPSHOT), Fault::Busy);
  EXPECT_EQ(sqliteFault(SQLITE_LOCKED), Fault::Busy);
  EXPECT_EQ(sqliteFault(SQLITE_FULL), Fault::Full);
  EXPECT_EQ(sqliteFault(SQLITE_READONLY), Fault::ReadOnly);
  EXPECT_EQ(sqliteFault(SQLITE_READONLY_DBMOVED), Fault::ReadOnly);
  EXPECT_EQ(sqliteFault(SQLITE_CONSTRAINT_PRIMARYKEY), Fault::Conflict);
  EXPECT_EQ(sqliteFault(SQLITE_CORRUPT), Fault::Corrupt);
  EXPECT_EQ(sqliteFault(SQLITE_NOTADB), Fault::Corrupt);
  EXPECT_EQ(sqliteFault(SQLITE_ERROR), Fault::Other);
}

// SQLite numbers "$N" parameters by their first appearance in the text, not by N: the runner binds
// each by its number, so one statement text serves both backends whatever order it names them in.
TEST(SqliteStore, BindsParametersByTheirNumber) {
  TestDb db("sqlite");
  auto runner = openSqliteRunner(db.where(), {});
  ASSERT_TRUE(runner) << runner.error().message;
  auto r = (*runner)->run(Access::Read, "SELECT $2, $1, $2 || $3, ?3", {std::string("one"), 2LL, std::string("x")});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->rows.size(), 1U);
  EXPECT_EQ(r->rows[0].integer(0), 2);
  EXPECT_EQ(r->rows[0].text(1), "one");
  EXPECT_EQ(r->rows[0].text(2), "2x");
  EXPECT_EQ(r->rows[0].text(3), "x");
  auto missing = (*runner)->run(Access::Read, "SELECT $1, $2", {std::string("only one")});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("$2"), std::string::npos) << missing.error().message;
}

TEST(SqliteStore, RefusesAFileThatIsNoDatabase) {
  TestDb db("sqlite");
  {
    std::ofstream junk(db.where(), std::ios::binary);
    junk << std::string(8192, 'x');
  }
  auto s = openStore(db.where());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().fault, Fault::Corrupt) << s.error().message;
}

TEST(SqliteStore, UsesWriteAheadLogging) {
  TestDb db("sqlite");
  auto s = openStore("sqlite:" + db.where());
  ASSERT_TRUE(s) << s.error().message;
  Raw raw(db.where());
  EXPECT_EQ(raw.text("PRAGMA journal_mode"), "wal");
  EXPECT_EQ(raw.text("SELECT version FROM schema_version"), std::to_string(kSchemaVersion));
}

TEST(SqliteStore, AnswersBusyWhileAnotherConnectionHoldsTheLock) {
  TestDb db("sqlite");
  OpenOptions options;
  options.busyTimeoutMs = 100;
  auto s = openStore(db.where(), options);
  ASSERT_TRUE(s) << s.error().message;
  Store& st = **s;
  const std::string hash = accounts::hashToken(accounts::newToken());
  ASSERT_TRUE(st.createPlayer({"Player0001", "Ada", 1}, hash));
  Raw shell(db.where());
  ASSERT_EQ(shell.exec("BEGIN EXCLUSIVE"), SQLITE_OK);
  auto blocked = st.createPlayer({"Player0002", "Bob", 2}, accounts::hashToken(accounts::newToken()));
  ASSERT_FALSE(blocked);
  EXPECT_EQ(blocked.error().fault, Fault::Busy) << blocked.error().message;
  auto game = st.createGame({"game000001", "kalah(6,4)", "ai", "easy", 0, 0, "Player0001", "ai", "playing", "", 1, 1}, {});
  ASSERT_FALSE(game);
  EXPECT_EQ(game.error().fault, Fault::Busy);
  // Reads go on: in WAL mode a writer's lock does not stop readers.
  auto read = st.playerByToken(hash);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_TRUE(read->has_value());
  EXPECT_TRUE(st.maintain()) << "a busy checkpoint is no failure";
  ASSERT_EQ(shell.exec("COMMIT"), SQLITE_OK);
  // Once the lock is gone, the same call goes through: the refused one left nothing half done.
  ASSERT_TRUE(st.createPlayer({"Player0002", "Bob", 2}, accounts::hashToken(accounts::newToken())));
  EXPECT_EQ(*st.countGames(), 0);
}

// Root writes any file whatever its mode, so the opening is tried as `nobody` in a child process.
// Returns the child's answer: 0 opened, else 10 + the fault.
int openAsUnprivileged(const std::string& path) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(99);
    auto s = openStore(path);
    _exit(s ? 0 : 10 + static_cast<int>(s.error().fault));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 98;
}

TEST(SqliteStore, RefusesAReadOnlyFileAtOpen) {
  TestDb db("sqlite");
  ASSERT_TRUE(openStore(db.where()));  // made, then closed
  ASSERT_EQ(chmod(db.dir().c_str(), 0777), 0);
  ASSERT_EQ(chmod(db.where().c_str(), 0444), 0);
  EXPECT_EQ(openAsUnprivileged(db.where()), 10 + static_cast<int>(Fault::ReadOnly));
}

TEST(SqliteStore, RefusesAReadOnlyDirectoryAtOpen) {
  TestDb db("sqlite");
  ASSERT_TRUE(openStore(db.where()));
  ASSERT_EQ(chmod(db.where().c_str(), 0666), 0);
  ASSERT_EQ(chmod(db.dir().c_str(), 0555), 0);
  const int answer = openAsUnprivileged(db.where());
  EXPECT_NE(answer, 0) << "the -wal file cannot be made: the store must not start";
  EXPECT_NE(answer, 99) << "could not drop privileges";
  // A new file in that directory cannot be made either.
  EXPECT_NE(openAsUnprivileged(db.dir() + "/new.db"), 0);
}

TEST(SqliteStore, RefusesANewerSchema) {
  TestDb db("sqlite");
  ASSERT_TRUE(openStore(db.where()));
  {
    Raw raw(db.where());
    ASSERT_EQ(raw.exec("UPDATE schema_version SET version=99"), SQLITE_OK);
  }
  auto s = openStore(db.where());
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("version 99"), std::string::npos) << s.error().message;
}

// The schema before versions, exactly as the server wrote it.
constexpr const char* kVersion1 = R"SQL(
CREATE TABLE IF NOT EXISTS players(token TEXT PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY, rules TEXT NOT NULL, mode TEXT NOT NULL, level TEXT NOT NULL,
  clock_seconds INTEGER NOT NULL, clock_increment INTEGER NOT NULL,
  seat_s TEXT NOT NULL, seat_n TEXT NOT NULL, status TEXT NOT NULL, result TEXT NOT NULL,
  created INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE TABLE IF NOT EXISTS moves(
  game TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, side INTEGER NOT NULL,
  house INTEGER NOT NULL, client_id TEXT NOT NULL, clock_s INTEGER NOT NULL, clock_n INTEGER NOT NULL, event_n INTEGER NOT NULL,
  PRIMARY KEY(game, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events(
  game TEXT NOT NULL, n INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY(game, n)) WITHOUT ROWID;
)SQL";

// What the server passes to upgrade a version-1 file: the accounts module's token hash and ids.
OpenOptions upgrading() {
  OpenOptions options;
  options.hashToken = [](std::string_view token) { return accounts::hashToken(token); };
  options.newId = [] { return accounts::randomId(10); };
  return options;
}

// The store has no token hash of its own (it does not depend on accounts/): a version-1 file opened
// without the caller's is refused, and left as it was.
TEST(SqliteStore, RefusesToUpgradeVersion1WithoutTheCallersTokenHash) {
  TestDb db("sqlite");
  {
    Raw raw(db.where());
    ASSERT_EQ(raw.exec(kVersion1), SQLITE_OK);
    ASSERT_EQ(raw.exec("INSERT INTO players VALUES('plain-token','AdaId00001','Ada')"), SQLITE_OK);
  }
  auto s = openStore(db.where());
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("schema step 2"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("hashToken"), std::string::npos) << s.error().message;
  Raw raw(db.where());
  EXPECT_EQ(raw.text("SELECT token FROM players"), "plain-token");
  EXPECT_EQ(raw.text("SELECT name FROM sqlite_master WHERE name='schema_version'"), "<none>");
  ASSERT_TRUE(openStore(db.where(), upgrading())) << "the same file upgrades once the caller's hash is given";
}

TEST(SqliteStore, MigratesVersion1ToVersion2) {
  TestDb db("sqlite");
  const std::string ada = accounts::newToken();
  const std::string bob = accounts::newToken();
  const std::string stray = accounts::newToken();  // in a seat, without a player row
  {
    Raw raw(db.where());
    ASSERT_EQ(raw.exec("PRAGMA journal_mode=WAL"), SQLITE_OK);
    ASSERT_EQ(raw.exec(kVersion1), SQLITE_OK);
    ASSERT_EQ(raw.exec("INSERT INTO players VALUES('" + ada + "','AdaId00001','Ada'),('" + bob + "','BobId00001','Bob')"),
              SQLITE_OK);
    ASSERT_EQ(raw.exec("INSERT INTO games VALUES"
                       "('g1','kalah(6,4)','friend','medium',300,5,'" + ada + "','" + bob + "','playing','',1000),"
                       "('g2','kalah(6,4)','ai','hard',0,0,'" + ada + "','ai','over','{\"winner\":\"S\"}',2000),"
                       "('g3','kalah(6,4)','friend','medium',0,0,'" + bob + "','','waiting','',3000),"
                       "('g4','kalah(6,4)','friend','medium',0,0,'" + stray + "','" + ada + "','playing','',4000)"),
              SQLITE_OK);
    ASSERT_EQ(raw.exec("INSERT INTO moves VALUES('g1',1,'move',0,3,'\"m1\"',1000,2000,2),"
                       "('g1',2,'move',1,4,'',900,1900,3)"),
              SQLITE_OK);
    ASSERT_EQ(raw.exec("INSERT INTO events VALUES('g1',1,'{\"e\":1}'),('g1',2,'{\"e\":2}'),('g1',3,'{\"e\":3}')"),
              SQLITE_OK);
  }
  {
    auto s = openStore(db.where(), upgrading());
    ASSERT_TRUE(s) << s.error().message;
    Store& st = **s;
    auto a = st.playerByToken(accounts::hashToken(ada));
    ASSERT_TRUE(a && a->has_value());
    EXPECT_EQ((*a)->id, "AdaId00001");
    EXPECT_EQ((*a)->name, "Ada");
    EXPECT_EQ((*st.playerByToken(accounts::hashToken(bob)))->id, "BobId00001");
    auto g1 = st.loadGame("g1");
    ASSERT_TRUE(g1 && g1->has_value());
    EXPECT_EQ((*g1)->game.seatS, "AdaId00001");
    EXPECT_EQ((*g1)->game.seatN, "BobId00001");
    EXPECT_EQ((*g1)->game.updated, 1000) << "a migrated game was last changed when it was made";
    EXPECT_EQ((*g1)->game.clockSeconds, 300);
    ASSERT_EQ((*g1)->moves.size(), 2U);
    EXPECT_EQ((*g1)->moves[0].clientId, "\"m1\"");
    EXPECT_EQ((*g1)->moves[1].clockN, 1900);
    EXPECT_EQ((*g1)->events.size(), 3U);
    auto g2 = st.game("g2");
    EXPECT_EQ((*g2)->seatS, "AdaId00001");
    EXPECT_EQ((*g2)->seatN, "ai");
    EXPECT_EQ((*g2)->result, "{\"winner\":\"S\"}");
    auto g3 = st.game("g3");
    EXPECT_EQ((*g3)->seatS, "BobId00001");
    EXPECT_EQ((*g3)->seatN, "");
    // The stray token became a player of its own, reachable by its hash.
    auto g4 = st.game("g4");
    const auto strayPlayer = st.playerByToken(accounts::hashToken(stray));
    ASSERT_TRUE(strayPlayer && strayPlayer->has_value());
    EXPECT_EQ((*g4)->seatS, (*strayPlayer)->id);
    EXPECT_EQ((*strayPlayer)->id.size(), 10U);
    EXPECT_EQ((*g4)->seatN, "AdaId00001");
    EXPECT_EQ(*st.openGamesOf("AdaId00001"), 2);  // g1, g4
    EXPECT_EQ(*st.openGamesOf("BobId00001"), 2);  // g1, g3
    // The migrated file takes the new calls.
    Action next;
    next.game = "g1";
    next.move = MoveRow{3, "move", 0, 1, "", -1, -1, 4};
    next.events = {{4, "{}"}};
    next.at = 5000;
    ASSERT_TRUE(st.apply(next));
    EXPECT_EQ(*st.abandonIdle(4500), 2);  // g3 and g4; g1 just moved
  }
  Raw raw(db.where());
  EXPECT_EQ(raw.text("SELECT version FROM schema_version"), std::to_string(kSchemaVersion));
  EXPECT_EQ(raw.text("SELECT name FROM sqlite_master WHERE name IN ('players_v1','games_status')"), "<none>");
  EXPECT_EQ(raw.text("SELECT COUNT(*) FROM tokens"), "3");
  // No plain token is left anywhere in the file, not even in freed pages.
  std::ifstream file(db.where(), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  for (const auto& token : {ada, bob, stray}) EXPECT_EQ(bytes.find(token), std::string::npos);
  EXPECT_NE(bytes.find(accounts::hashToken(ada)), std::string::npos);
}

}  // namespace
}  // namespace semis::store
