// Black-box tests of a cluster (docs/scaling.md): 3 `semis serve` instances sharing PostgreSQL and
// Redis behind HAProxy, built by the harness whatever SEMIS_SERVER_TEST_DB says. Here: one game
// spread over the three instances, and an instance that comes back. (Failover and outages:
// ServerClusterFailoverTest.cpp, ServerClusterOutageTest.cpp.)

#include <gtest/gtest.h>

#include "ClusterPlay.hpp"

namespace semis::test {
namespace {

// A client's view of who is connected: true once both seats are (from the state or a presence).
bool seesBothConnected(WsClient& ws, const Json& state) {
  const auto both = [](const Json& seats) {
    return seats["S"]["connected"] == true && seats["N"]["connected"] == true;
  };
  if (both(state["seats"])) return true;
  return ws.until([&](const Json& m) { return m["type"] == "presence" && both(m["seats"]); }, 10000ms).has_value();
}

// The live list of every instance, once they all agree (they read one shared list).
std::optional<Json> agreedLiveList(ServerProcess& cluster, const std::function<bool(const Json&)>& wanted) {
  Json agreed;
  const bool ok = eventually(
      [&] {
        std::vector<Json> lists;
        for (int i = 0; i < cluster.instances(); ++i)
          lists.push_back(Json::parse(http(cluster.instancePort(i), "GET", "/api/games?live=1").body, nullptr, false));
        for (const Json& l : lists) {
          if (!l.is_object() || l["games"] != lists[0]["games"]) return false;
        }
        agreed = lists[0]["games"];
        return wanted(agreed);
      },
      10000ms);
  return ok ? std::optional<Json>(agreed) : std::nullopt;
}

const Json* lineOf(const Json& games, const std::string& id) {
  for (const Json& g : games)
    if (g["id"] == id) return &g;
  return nullptr;
}

TEST(ServerCluster, PlayersOnTwoInstancesAndASpectatorOnAThirdSeeOneGame) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const auto p0 = cluster.instancePort(0), p1 = cluster.instancePort(1), p2 = cluster.instancePort(2);
  const std::string ca = newCookie(p0), cb = newCookie(p1), cc = newCookie(p2);
  const std::string game = createGame(p0, ca, {{"rules", "kalah,houses=4,seeds=3"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b, c;
  ASSERT_TRUE(a.connect(p0, ca) && b.connect(p1, cb) && c.connect(p2, cc));
  const Json sa = joinGame(a, game);
  EXPECT_EQ(sa["you"], "S");
  const Json sb = joinGame(b, game);  // instance 1 loads it from the record and seats him
  EXPECT_EQ(sb["you"], "N");
  EXPECT_EQ(sb["status"], "playing");
  const Json sc = joinGame(c, game);
  EXPECT_EQ(sc["you"], "spectator");
  EXPECT_EQ(sc["status"], "playing") << "instance 2 loaded the game with his seat taken";
  // Presence is summed over the instances: each sees both players connected.
  EXPECT_TRUE(seesBothConnected(a, sa)) << "on instance 0";
  EXPECT_TRUE(seesBothConnected(b, sb)) << "on instance 1";
  EXPECT_TRUE(seesBothConnected(c, sc)) << "on instance 2";

  Board board = fromState(sb);
  std::mt19937 rng(21);
  int moves = 0;
  bool listedAlike = false;
  while (!board.over && moves < 500) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other, &c}, game, pickHouse(board.legal, rng), moves + 1, board), 0)
        << "move " << moves;
    ++moves;
    if (moves == 4) {
      // Mid-game, every instance lists the game alike, with its moves so far.
      auto list = agreedLiveList(cluster, [&](const Json& games) {
        const Json* line = lineOf(games, game);
        return line != nullptr && (*line)["plies"] == 4;
      });
      ASSERT_TRUE(list) << "the instances' live lists differ or miss the game";
      listedAlike = true;
    }
  }
  ASSERT_TRUE(board.over);
  ASSERT_TRUE(listedAlike) << "the game ended before its fourth move";
  const auto last = Json::parse(http(p2, "GET", "/api/games/" + game).body)["last_event"].get<long long>();
  for (WsClient* ws : {&a, &b, &c}) EXPECT_TRUE(readUpTo(*ws, game, last)) << "the end did not reach everyone";
  expectEventsOnceInOrder(everything(a), game, sa["last_event"].get<long long>(), last, "S on instance 0");
  expectEventsOnceInOrder(everything(b), game, sb["last_event"].get<long long>(), last, "N on instance 1");
  expectEventsOnceInOrder(everything(c), game, sc["last_event"].get<long long>(), last, "the spectator on instance 2");
  // Over: in no instance's list.
  EXPECT_TRUE(agreedLiveList(cluster, [&](const Json& games) { return lineOf(games, game) == nullptr; }))
      << "a finished game is still listed";
}

TEST(ServerCluster, ARestartedInstanceRejoinsAndServesGamesPlayedMeanwhile) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  cluster.killInstance(1);
  // Meanwhile a game through HAProxy, on the two others.
  const unsigned short proxy = cluster.port();
  const std::string ca = newCookie(proxy), cb = newCookie(proxy);
  const std::string game = createGame(proxy, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
  ASSERT_FALSE(game.empty());
  WsClient a, b;
  ASSERT_TRUE(a.connect(proxy, ca) && b.connect(proxy, cb));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  std::mt19937 rng(8);
  for (int i = 0; i < 6 && !board.over; ++i) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "m" + std::to_string(i), board), 0);
  }
  ASSERT_FALSE(board.over);
  const int plies = pliesOn(cluster.instancePort(0), game);

  ASSERT_TRUE(cluster.startInstance(1)) << cluster.instanceLogs(1);
  const unsigned short p1 = cluster.instancePort(1);
  // HAProxy sends it clients again: one of the next few connections through it lands there.
  const long long accepted = metricOf(p1, "semis_connections_total");
  std::vector<std::unique_ptr<WsClient>> visitors;
  const bool reached = eventually(
      [&] {
        visitors.push_back(std::make_unique<WsClient>());
        EXPECT_TRUE(visitors.back()->connect(proxy)) << "HAProxy refused a connection";
        return metricOf(p1, "semis_connections_total") > accepted;
      },
      10000ms);
  EXPECT_TRUE(reached) << "no connection through HAProxy reached the restarted instance\n" << cluster.proxyLogs();
  // It serves the game played while it was down: the whole of it, and the next move.
  WsClient a1;
  ASSERT_TRUE(a1.connect(p1, ca));
  const Json st = joinGame(a1, game);
  EXPECT_EQ(static_cast<int>(st["plies"].size()), plies);
  EXPECT_EQ(st["last_event"].get<long long>(), board.lastEvent);
  EXPECT_EQ(st["you"], "S");
  while (!board.over && board.toMove != "S") {
    ASSERT_GT(playMove(b, {&a, &a1}, game, pickHouse(board.legal, rng), "n" + std::to_string(board.lastEvent), board),
              0);
  }
  if (!board.over) {
    // South plays from the restarted instance; North and South's first socket see it.
    ASSERT_GT(playMove(a1, {&a, &b}, game, pickHouse(board.legal, rng), "from-restarted", board), 0);
  }
}

}  // namespace
}  // namespace semis::test
