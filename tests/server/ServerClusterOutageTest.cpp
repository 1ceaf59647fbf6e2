// Black-box tests of a cluster whose shared services go down for a while (docs/scaling.md,
// failures): Redis restarted (moves go on; watchers get what they missed once it is back), and
// PostgreSQL stopped (a move is `busy`, nothing half-written; the same move once it is back).
// Each test runs the service it stops on its own (ClusterServices.hpp).

#include <gtest/gtest.h>

#include "ClusterPlay.hpp"
#include "ClusterServices.hpp"

namespace semis::test {
namespace {

TEST(ServerClusterOutage, MovesGoOnWhileRedisRestartsAndWatchersCatchUpAfter) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  RedisServer redis;
  ASSERT_TRUE(redis.start()) << "no redis-server of its own";
  spec->redis = redis.url();
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const auto p0 = cluster.instancePort(0), p1 = cluster.instancePort(1), p2 = cluster.instancePort(2);
  const std::string ca = newCookie(p0), cb = newCookie(p1), cc = newCookie(p2);
  const std::string game = createGame(p0, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b, c;
  ASSERT_TRUE(a.connect(p0, ca) && b.connect(p1, cb) && c.connect(p2, cc));
  const long long fromA = fromState(joinGame(a, game)).lastEvent;
  const Json sb = joinGame(b, game);
  const long long fromC = fromState(joinGame(c, game)).lastEvent;
  Board board = fromState(sb);
  std::mt19937 rng(31);
  int played = 0;
  const auto id = [&] { return "r" + std::to_string(played); };
  for (int i = 0; i < 3 && !board.over; ++i, ++played) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other, &c}, game, pickHouse(board.legal, rng), id(), board), 0);
  }
  // Every instance has heard the others' heartbeats (each counts one of the three sockets).
  for (const unsigned short p : {p0, p1, p2}) {
    ASSERT_TRUE(eventually(
        [&] {
          auto list = Json::parse(http(p, "GET", "/api/games?live=1").body, nullptr, false);
          return list.is_object() && list.value("online", 0) == 3;
        },
        10000ms))
        << "the instances do not know each other yet";
  }

  redis.stop();
  // Moves still work: each is stored and acknowledged. The other instances miss them (no bus), so
  // the next mover's instance finds its copy behind and reads the record before answering.
  for (int i = 0; i < 6 && !board.over; ++i, ++played) {
    WsClient& mover = board.toMove == "S" ? a : b;
    auto answer = moveAndAnswer(mover, game, pickHouse(board.legal, rng), id(), board.lastEvent, board);
    ASSERT_TRUE(answer) << "no answer to a move while Redis is down";
    ASSERT_EQ((*answer)["type"], "ack") << "refused while Redis is down: " << answer->dump();
  }
  ASSERT_FALSE(board.over) << "the game ended during the outage: pick another seed";
  // A restart that lasts: the instances stop hearing each other's heartbeats and forget each other
  // (the spectator's instance withdraws the players' presence).
  EXPECT_TRUE(eventually([&] { return cluster.instanceLogs(2).find("instances_gone") != std::string::npos; }, 15000ms));

  ASSERT_TRUE(redis.start()) << "Redis did not come back on its port";
  // The spectator sees both players connected again (announced anew after the resubscription).
  EXPECT_TRUE(c.until(
      [](const Json& m) {
        return m["type"] == "presence" && m["seats"]["S"]["connected"] == true && m["seats"]["N"]["connected"] == true;
      },
      15000ms))
      << "presence was not restored";
  // Every watcher gets what it missed once its instance is subscribed again, and every copy has it.
  for (WsClient* ws : {&a, &b, &c}) EXPECT_TRUE(readUpTo(*ws, game, board.lastEvent)) << "a watcher was not resynced";
  for (const unsigned short p : {p0, p1, p2}) EXPECT_EQ(pliesOn(p, game), played) << "instance on port " << p;
  // And live updates resume.
  for (int i = 0; i < 3 && !board.over; ++i, ++played) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other, &c}, game, pickHouse(board.legal, rng), id(), board), 0)
        << "after Redis came back\n"
        << cluster.logs();
  }
  const long long last = board.lastEvent;
  for (WsClient* ws : {&a, &b, &c}) EXPECT_TRUE(readUpTo(*ws, game, last));
  expectEventsOnceInOrder(everything(a), game, fromA, last, "South on instance 0");
  expectEventsOnceInOrder(everything(b), game, sb["last_event"].get<long long>(), last, "North on instance 1");
  expectEventsOnceInOrder(everything(c), game, fromC, last, "the spectator on instance 2");
  EXPECT_NE(cluster.instanceLogs(2).find("bus_resync"), std::string::npos);
}

// An HTTP read is one answer with no follow-up, and a join's state is where a watcher starts: an instance whose copy missed the bus (Redis down,
// or its message merely late) answers it from the record, never from the copy behind it. Seen on
// the cluster: a take back, then GET .../record through the proxy showed the moves taken back.
TEST(ServerClusterOutage, AnHttpReadOrAJoinOnAnyInstanceShowsWhatIsStoredEvenWhenTheBusIsSilent) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  RedisServer redis;
  ASSERT_TRUE(redis.start()) << "no redis-server of its own";
  spec->redis = redis.url();
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const auto p0 = cluster.instancePort(0), p1 = cluster.instancePort(1), p2 = cluster.instancePort(2);
  const std::string ca = newCookie(p0), cb = newCookie(p1), cc = newCookie(p2);
  const std::string game = createGame(p0, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b, c;
  ASSERT_TRUE(a.connect(p0, ca) && b.connect(p1, cb) && c.connect(p2, cc));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  joinGame(c, game);  // every instance holds a copy now
  std::mt19937 rng(7);
  int played = 0;
  for (; played < 2 && !board.over; ++played) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other, &c}, game, pickHouse(board.legal, rng), "h" + std::to_string(played), board), 0);
  }
  const std::string before = http(p2, "GET", "/api/games/" + game + "/record").body;

  redis.stop();
  WsClient& mover = board.toMove == "S" ? a : b;
  auto answer = moveAndAnswer(mover, game, pickHouse(board.legal, rng), "silent", board.lastEvent, board);
  ASSERT_TRUE(answer && (*answer)["type"] == "ack") << (answer ? answer->dump() : "no answer");
  ++played;
  // A newcomer's join starts from the record (the bus will not bring him the move).
  WsClient d;
  ASSERT_TRUE(d.connect(p2, newCookie(p2)));
  EXPECT_EQ(joinGame(d, game)["last_event"], board.lastEvent) << "a spectator joining on a copy behind";
  // At once, on every instance: no waiting for a catch-up loop.
  for (const unsigned short p : {p0, p1, p2}) {
    EXPECT_EQ(pliesOn(p, game), played) << "instance on port " << p;
    const std::string record = http(p, "GET", "/api/games/" + game + "/record").body;
    EXPECT_NE(record, before) << "instance on port " << p << " answered from its stale copy";
    EXPECT_EQ(record, http(p0, "GET", "/api/games/" + game + "/record").body) << "instance on port " << p;
  }
}

TEST(ServerClusterOutage, AMoveWhilePostgresIsDownIsBusyAndPlayedOnceWhenItIsBack) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  PostgresServer pg;
  ASSERT_TRUE(pg.start()) << "no PostgreSQL of its own (tools/postgres)";
  spec->pgAdmin = pg.url();
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const auto p0 = cluster.instancePort(0), p1 = cluster.instancePort(1), p2 = cluster.instancePort(2);
  const std::string ca = newCookie(p0), cb = newCookie(p1);
  const std::string game = createGame(p0, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(p0, ca) && b.connect(p1, cb));
  const long long fromA = fromState(joinGame(a, game)).lastEvent;
  const Json sb = joinGame(b, game);
  Board board = fromState(sb);
  std::mt19937 rng(12);
  int played = 0;
  for (int i = 0; i < 4 && !board.over; ++i, ++played) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "g" + std::to_string(i), board), 0);
  }
  ASSERT_FALSE(board.over);

  ASSERT_TRUE(pg.stop());
  WsClient& mover = board.toMove == "S" ? a : b;
  WsClient& other = board.toMove == "S" ? b : a;
  const long long fromOther = &other == &a ? fromA : sb["last_event"].get<long long>();
  const int house = pickHouse(board.legal, rng);
  const long long after = board.lastEvent;
  Board seen = board;  // what the mover's socket shows; `board` stays as stored
  auto busy = moveAndAnswer(mover, game, house, "down", after, seen, 30000ms);
  ASSERT_TRUE(busy) << "no answer while PostgreSQL is down";
  EXPECT_EQ((*busy)["type"], "error") << busy->dump();
  EXPECT_EQ((*busy)["code"], "busy") << busy->dump();
  EXPECT_EQ(seen.lastEvent, after) << "an event of a move that was not stored";

  ASSERT_TRUE(pg.resume());
  // Nothing half-written: an instance that never held the game loads it from the record (once its
  // own connection to the store is back).
  int stored = -1;
  eventually([&] { return (stored = pliesOn(p2, game)) >= 0; }, 30000ms);
  EXPECT_EQ(stored, played);
  // The same move, with the same id, until the instance reaches the store again: played once.
  std::optional<Json> answer;
  const bool played1 = eventually(
      [&] {
        answer = moveAndAnswer(mover, game, house, "down", after, seen);
        return answer && (*answer)["code"] != "busy";
      },
      30000ms);
  ASSERT_TRUE(played1) << "still busy after PostgreSQL came back: " << (answer ? answer->dump() : "no answer");
  ASSERT_EQ((*answer)["type"], "ack") << "the busy move had been stored: " << answer->dump();
  const long long n = (*answer)["n"].get<long long>();
  EXPECT_TRUE(readUpTo(other, game, n)) << "the other player did not see it";
  auto again = moveAndAnswer(mover, game, house, "down", after, seen);
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)["code"], "stale") << again->dump();
  EXPECT_EQ((*again)["n"], n);
  EXPECT_EQ(stateAtLeast(cluster.port(), game, ca, n)["plies"].size(), static_cast<std::size_t>(played + 1));
  EXPECT_EQ(pliesOn(p2, game), played + 1);
  expectEventsOnceInOrder(everything(other), game, fromOther, n, "the other player");
}

}  // namespace
}  // namespace semis::test
