// Black-box regressions for the hub's defects: guests that write nothing until they act, limits per
// player and address, a database locked by another process, store writes never swallowed, replayed
// move ids, and friends' seats kept for the friend.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <unistd.h>

#include <cstdlib>

#include "Play.hpp"

namespace semis::test {
namespace {

bool onSqlite() {
  const char* db = std::getenv("SEMIS_SERVER_TEST_DB");
  return db == nullptr || (std::string(db) != "postgresql" && std::string(db) != "cluster");
}

// A row count in the server's SQLite file, read by a second connection (as an operator would).
long long countRows(const std::string& dbPath, const std::string& table) {
  sqlite3* db = nullptr;
  long long n = -1;
  if (sqlite3_open_v2(dbPath.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    const std::string sql = "SELECT count(*) FROM " + table;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
      n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  return n;
}

Json metric(unsigned short port, const std::string& name) {
  const std::string body = http(port, "GET", "/metrics").body;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return nullptr;
  return std::stoll(body.substr(at + name.size() + 2));
}

const Json kAiGame = {{"rules", "kalah"}, {"mode", "ai"}, {"level", "easy"}};

TEST(ServerTrust, VisitsWithoutACookieWriteNoPlayer) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  for (int i = 0; i < 300; ++i) {
    const char* target = i % 3 == 0 ? "/" : i % 3 == 1 ? "/api/me" : "/g/abcdef";
    ASSERT_NE(http(server.port(), "GET", target).status, 0);
  }
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port()));
  ASSERT_TRUE(ws.untilType("hello"));
  if (onSqlite()) {
    EXPECT_EQ(countRows(server.dir() + "/semis.db", "players"), 0) << "nobody acted";
  }
  // Acting writes the guest once, under the id he was shown.
  const std::string cookie = newCookie(server.port());
  const Json me = Json::parse(http(server.port(), "GET", "/api/me", "", cookie).body);
  ASSERT_FALSE(createGame(server.port(), cookie, kAiGame).empty());
  EXPECT_EQ(Json::parse(http(server.port(), "GET", "/api/me", "", cookie).body)["id"], me["id"]);
  if (onSqlite()) {
    EXPECT_EQ(countRows(server.dir() + "/semis.db", "players"), 1);
  }
}

TEST(ServerTrust, OneGuestHoldsABoundedNumberOfUnfinishedGames) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string cookie = newCookie(server.port());
  std::vector<std::string> games;
  for (int i = 0; i < 20; ++i) games.push_back(createGame(server.port(), cookie, kAiGame));
  auto refused = http(server.port(), "POST", "/api/games", kAiGame.dump(), cookie);
  EXPECT_EQ(refused.status, 429) << refused.body;
  EXPECT_NE(refused.body.find("too_many_games"), std::string::npos) << refused.body;
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port(), cookie));
  joinGame(ws, games[0]);
  ws.send({{"type", "resign"}, {"game", games[0]}});
  auto over = ws.until([](const Json& m) { return m["type"] == "error" || m.dump().find("game_over") != std::string::npos; });
  ASSERT_TRUE(over);
  ASSERT_EQ((*over)["type"], "event") << over->dump();
  EXPECT_EQ(http(server.port(), "POST", "/api/games", kAiGame.dump(), cookie).status, 200)
      << "a finished game frees its place";
}

TEST(ServerTrust, OneAddressCreatesGamesAtABoundedRate) {
  if (onCluster()) GTEST_SKIP() << "cluster: each instance has its own bucket per address";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  int created = 0;
  int limited = 0;
  for (int i = 0; i < 60; ++i) {
    // No cookie: a new guest each time, so only the address can bound it.
    auto r = http(server.port(), "POST", "/api/games", kAiGame.dump());
    created += r.status == 200 ? 1 : 0;
    limited += r.status == 429 ? 1 : 0;
  }
  EXPECT_GE(created, 20);
  EXPECT_LT(created, 60);
  EXPECT_EQ(created + limited, 60);
}

TEST(ServerTrust, ADatabaseLockedByAnotherProcessGetsBusyNotAFrozenServer) {
  if (!onSqlite()) GTEST_SKIP() << "an SQLite file lock";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string cookie = newCookie(server.port());
  const std::string game = createGame(server.port(), cookie, {{"rules", "kalah"}, {"mode", "local"}});
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port(), cookie));
  Board board = fromState(joinGame(ws, game));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(std::string(server.dir() + "/semis.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  ws.send({{"type", "move"}, {"game", game}, {"id", "locked"}, {"house", 1}});
  auto answer = ws.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; }, 3000ms);
  ASSERT_TRUE(answer) << "no answer while the database was locked";
  EXPECT_EQ((*answer)["type"], "error");
  EXPECT_EQ((*answer)["code"], "busy") << answer->dump();
  EXPECT_EQ(http(server.port(), "GET", "/api/me", "", cookie).status, 200) << "reads go on";
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  // Nothing was half-applied: the same move id is played now, as event 1.
  EXPECT_EQ(playMove(ws, {}, game, 1, "locked", board), 1);
}

TEST(ServerTrust, AReadOnlyDatabaseStopsTheServerAtStart) {
  if (!onSqlite()) GTEST_SKIP() << "an SQLite file";
  ServerProcess first;
  ASSERT_TRUE(first.start()) << first.logs();
  ASSERT_EQ(first.terminate(), 0);
  ASSERT_EQ(std::system(("chmod 0444 '" + first.dir() + "/semis.db'").c_str()), 0);
  if (geteuid() == 0) GTEST_SKIP() << "root writes read-only files";
  EXPECT_FALSE(first.start()) << "started on a database it cannot write";
  EXPECT_NE(first.logs().find("store_open_failed"), std::string::npos) << first.logs();
}

TEST(ServerTrust, ADrawOfferIsStoredBeforeItIsShown) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string alice = newCookie(server.port());
  const std::string bob = newCookie(server.port());
  const std::string game = createGame(server.port(), alice, {{"rules", "kalah"}, {"mode", "friend"}});
  WsClient a;
  WsClient b;
  ASSERT_TRUE(a.connect(server.port(), alice));
  ASSERT_TRUE(b.connect(server.port(), bob));
  joinGame(a, game);
  joinGame(b, game);
  a.send({{"type", "offer_draw"}, {"game", game}});
  ASSERT_TRUE(b.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "draw_offered"; }));
  server.kill9();
  ASSERT_TRUE(server.start()) << server.logs();
  auto state = Json::parse(http(server.port(), "GET", "/api/games/" + game, "", bob).body);
  EXPECT_EQ(state["draw_offer"], "S") << state.dump();
  WsClient b2;
  ASSERT_TRUE(b2.connect(server.port(), bob));
  joinGame(b2, game);
  b2.send({{"type", "accept_draw"}, {"game", game}});
  ASSERT_TRUE(b2.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; }));
}

TEST(ServerTrust, ReplayedMoveIdsAreStaleWithTheirEvent) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  // A local game: the same player holds both sides; a replay without `after` is not played twice.
  const std::string me = newCookie(server.port());
  const std::string local = createGame(server.port(), me, {{"rules", "kalah"}, {"mode", "local"}});
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port(), me));
  joinGame(ws, local);
  ws.send({{"type", "move"}, {"game", local}, {"id", "r1"}, {"house", 1}});
  ASSERT_TRUE(ws.untilType("ack"));
  ws.send({{"type", "move"}, {"game", local}, {"id", "r1"}, {"house", 1}});
  auto again = ws.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; });
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)["code"], "stale") << again->dump();
  EXPECT_EQ((*again)["n"], 1);
  // A friend game: the replay comes when it is the other player's turn; still stale, with its n.
  const std::string bob = newCookie(server.port());
  const std::string game = createGame(server.port(), me, {{"rules", "kalah"}, {"mode", "friend"}});
  WsClient b;
  ASSERT_TRUE(b.connect(server.port(), bob));
  joinGame(ws, game);
  joinGame(b, game);
  ws.send({{"type", "move"}, {"game", game}, {"id", 9}, {"house", 1}});
  auto ack = ws.untilType("ack");
  ASSERT_TRUE(ack);
  ws.send({{"type", "move"}, {"game", game}, {"id", 9}, {"house", 1}});
  auto replay = ws.until([](const Json& m) { return m["type"] == "error"; });
  ASSERT_TRUE(replay);
  EXPECT_EQ((*replay)["code"], "stale") << replay->dump();
  EXPECT_EQ((*replay)["n"], (*ack)["n"]);
}

TEST(ServerTrust, AFriendsWaitingGameIsInNoListAndKeepsItsSeatForTheLink) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string alice = newCookie(server.port());
  const std::string game = createGame(server.port(), alice, {{"rules", "kalah"}, {"mode", "friend"}});
  const auto listed = [&] {
    auto live = Json::parse(http(server.port(), "GET", "/api/games?live=1").body);
    for (const Json& g : live["games"])
      if (g["id"] == game) return true;
    return false;
  };
  EXPECT_FALSE(listed()) << "a stranger could take the seat from the list";
  WsClient bob;
  ASSERT_TRUE(bob.connect(server.port(), newCookie(server.port())));
  EXPECT_EQ(joinGame(bob, game)["you"], "N") << "the link's holder sits down";
  // (A cluster writes the shared list just after answering.)
  EXPECT_TRUE(eventually(listed)) << "a game being played is listed for spectators";
  WsClient carol;
  ASSERT_TRUE(carol.connect(server.port(), newCookie(server.port())));
  EXPECT_EQ(joinGame(carol, game)["you"], "spectator");
}

TEST(ServerTrust, MemoryHoldsOnlyWhatIsPlayed) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string cookie = newCookie(server.port());
  for (int i = 0; i < 5; ++i) createGame(server.port(), cookie, kAiGame);
  server.kill9();
  ASSERT_TRUE(server.start()) << server.logs();
  EXPECT_EQ(metric(server.port(), "semis_games_in_memory"), 0) << "unfinished games load on demand, not at start";
  // A cluster's live list is in Redis: lines of games no instance holds any more stay until they end
  // (docs/scaling.md, limits).
  if (!onCluster()) {
    EXPECT_EQ(Json::parse(http(server.port(), "GET", "/api/games?live=1").body)["games"].size(), 0U);
  }
}


// A small tmpfs of its own (root only: the test is skipped where it cannot mount), so the disk can
// be filled and made read-only under a running server.
class SmallDisk {
 public:
  SmallDisk() {
    char tmpl[] = "/tmp/semis-disk-XXXXXX";
    const char* d = mkdtemp(tmpl);
    if (d == nullptr) return;
    dir_ = d;
    mounted_ = geteuid() == 0 && std::system(("mount -t tmpfs -o size=3m tmpfs '" + dir_ + "' 2>/dev/null").c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) (void)std::system(("umount -l '" + dir_ + "'").c_str());
    if (!dir_.empty()) (void)std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  [[nodiscard]] bool mounted() const { return mounted_; }
  [[nodiscard]] const std::string& dir() const { return dir_; }
  void fill() { (void)std::system(("dd if=/dev/zero of='" + dir_ + "/fill' bs=4k 2>/dev/null").c_str()); }
  void free() { (void)std::system(("rm -f '" + dir_ + "/fill'").c_str()); }
  bool readOnly() { return std::system(("mount -o remount,ro '" + dir_ + "'").c_str()) == 0; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

TEST(ServerTrust, AFullDiskAnswersClearErrorsAndLosesNothing) {
  if (!onSqlite()) GTEST_SKIP() << "an SQLite file on a small disk";
  SmallDisk disk;
  if (!disk.mounted()) GTEST_SKIP() << "needs root to mount a small tmpfs";
  ServerProcess server({"--db", disk.dir() + "/semis.db"});
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string cookie = newCookie(server.port());
  const std::string game = createGame(server.port(), cookie, {{"rules", "kalah,houses=8,seeds=8"}, {"mode", "local"}});
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port(), cookie));
  Board board = fromState(joinGame(ws, game));
  disk.fill();
  std::mt19937 rng(3);
  int acked = 0;
  int refused = 0;
  for (int i = 0; i < 300 && !board.over && refused == 0; ++i) {
    ws.send({{"type", "move"}, {"game", game}, {"id", i}, {"house", pickHouse(board.legal, rng)}});
    auto m = ws.until([&](const Json& j) {
      if (j["type"] == "event") applyEvent(board, j);
      return j["type"] == "ack" || j["type"] == "error";
    });
    ASSERT_TRUE(m) << "no answer on a full disk";
    if ((*m)["type"] == "ack") {
      ++acked;
    } else {
      ++refused;
      EXPECT_EQ((*m)["code"], "internal") << m->dump();
      EXPECT_NE((*m)["message"].get<std::string>().find("nothing was changed"), std::string::npos) << m->dump();
    }
  }
  ASSERT_EQ(refused, 1) << "the disk never filled: " << acked << " moves stored";
  EXPECT_EQ(http(server.port(), "GET", "/healthz").status, 200);
  auto state = Json::parse(http(server.port(), "GET", "/api/games/" + game, "", cookie).body);
  EXPECT_EQ(state["plies"].size(), static_cast<std::size_t>(acked)) << "memory holds only what was stored";
  disk.free();
  board = fromState(joinGame(ws, game));
  EXPECT_GT(playMove(ws, {}, game, pickHouse(board.legal, rng), "after", board), 0) << "writes resume";
  server.kill9();
  ASSERT_TRUE(server.start()) << server.logs();
  state = Json::parse(http(server.port(), "GET", "/api/games/" + game, "", cookie).body);
  EXPECT_EQ(state["plies"].size(), static_cast<std::size_t>(acked + 1)) << "every acknowledged move, and no other";
  ASSERT_EQ(server.terminate(), 0);
  ASSERT_TRUE(disk.readOnly());
  EXPECT_FALSE(server.start()) << "started on a read-only disk";
  EXPECT_NE(server.logs().find("store_open_failed"), std::string::npos) << server.logs();
}

}  // namespace
}  // namespace semis::test
