// Presence and the shared live list through the cluster's bad moments (issue 27.6, 27.8): an
// instance stopped (SIGSTOP) for longer than the others wait for its heartbeats must not cost its
// players their presence for good, nor let a rated game be claimed against a player whose socket
// stayed open; and a Redis restart must not drop quiet games from the live list and the lobby.

#include <gtest/gtest.h>

#include <csignal>

#include "ClubPlay.hpp"
#include "ClusterPlay.hpp"
#include "ClusterServices.hpp"

namespace semis::test {
namespace {

// The seat of `player` in the state `st` ("S" or "N"), "" if none.
std::string seatOf(const Json& st, const std::string& player) {
  for (const char* side : {"S", "N"})
    if (st["seats"][side].value("id", "") == player) return side;
  return "";
}

TEST(ServerClusterPresence, AnInstanceStoppedAWhileKeepsItsPlayersPresenceAndTheyCannotBeClaimedAgainst) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  // A claim is allowed 3 s after the opponent's last connection closed (or seemed to).
  ServerProcess cluster({"--claim-seconds", "3"});
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  // Ann on instance 1, Ben on instance 0 (the one the test stops: its pid is pid()).
  const auto p0 = cluster.instancePort(1), p1 = cluster.instancePort(0);
  const Member ann = signUp(p0, "ann"), ben = signUp(p1, "ben");
  WsClient a, b;
  ASSERT_TRUE(a.connect(p0, ann.cookie) && b.connect(p1, ben.cookie));
  const std::string game = quickPair(a, b, {{"rules", "kalah"}, {"rated", true}});
  ASSERT_FALSE(game.empty());
  const Json sa = joinGame(a, game);
  const Json sb = joinGame(b, game);
  Board board = fromState(sb);
  const std::string annSide = seatOf(sa, ann.id), benSide = seatOf(sa, ben.id);
  ASSERT_FALSE(annSide.empty() || benSide.empty());
  // Both have moved: each is a player who came and played, not a no-show.
  std::mt19937 rng(5);
  for (int i = 0; i < 2 && !board.over; ++i) {
    WsClient& mover = board.toMove == annSide ? a : b;
    WsClient& other = board.toMove == annSide ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "m" + std::to_string(i), board), 0);
  }
  ASSERT_FALSE(board.over);
  const auto benConnectedOnAnns = [&] {
    const Json st = getJson(p0, "/api/games/" + game, ann.cookie);
    return st.is_object() && st["seats"][benSide]["connected"] == true && st["seats"][benSide].value("claim_at", Json()).is_null();
  };
  ASSERT_TRUE(eventually(benConnectedOnAnns, 10000ms)) << "Ann's instance never saw Ben connected";

  // Ben's instance stops for 5 s: longer than the 3.5 s the others wait for a heartbeat.
  const int pid1 = cluster.pid();
  ASSERT_EQ(::kill(pid1, SIGSTOP), 0);
  // Ann's instance finds it silent and suspends Ben's presence: Ann is shown the countdown.
  const bool countdown = a.until(
      [&](const Json& m) { return m["type"] == "presence" && m["seats"][benSide]["connected"] == false; }, 8000ms)
                             .has_value();
  std::this_thread::sleep_for(5000ms);
  ASSERT_EQ(::kill(pid1, SIGCONT), 0);
  EXPECT_TRUE(countdown) << "Ann's instance never found Ben's silent (the test did not test anything)";
  // Heard again: Ben is connected again on Ann's instance, with no countdown, for good.
  EXPECT_TRUE(eventually(benConnectedOnAnns, 10000ms)) << "Ben stays disconnected on Ann's instance after his resumed\n"
                                                   << cluster.instanceLogs(1);
  // Past the moment the countdown would have ended, Ann's claim is refused: Ben's socket never closed.
  std::this_thread::sleep_for(3500ms);
  a.send({{"type", "claim"}, {"game", game}});
  auto answer = a.until(
      [](const Json& m) { return m["type"] == "error" || (m["type"] == "event" && m["event"]["kind"] == "game_over"); },
      10000ms);
  ASSERT_TRUE(answer) << "no answer to the claim";
  EXPECT_EQ((*answer)["type"], "error") << "a claim against a connected player was accepted: " << answer->dump();
  EXPECT_EQ(answer->value("code", ""), "too_early") << answer->dump();
  EXPECT_TRUE(benConnectedOnAnns());
  // And Ben plays on, on the instance that was stopped.
  for (int i = 0; i < 2 && !board.over; ++i) {
    WsClient& mover = board.toMove == annSide ? a : b;
    WsClient& other = board.toMove == annSide ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "p" + std::to_string(i), board), 0);
  }
  EXPECT_NE(cluster.instanceLogs(1).find("instances_back"), std::string::npos);
}

TEST(ServerClusterPresence, QuietGamesAreListedOnEveryInstanceAfterARedisRestart) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  RedisServer redis;
  ASSERT_TRUE(redis.start()) << "no redis-server of its own";
  spec->redis = redis.url();
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const int n = cluster.instances();
  // One game on each instance, both players connected there, one move each way: then quiet.
  std::vector<std::unique_ptr<WsClient>> sockets;
  std::set<std::string> games;
  for (int i = 0; i < n; ++i) {
    const auto p = cluster.instancePort(i);
    const std::string ca = newCookie(p), cb = newCookie(p);
    const std::string game = createGame(p, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
    auto a = std::make_unique<WsClient>(), b = std::make_unique<WsClient>();
    ASSERT_TRUE(a->connect(p, ca) && b->connect(p, cb));
    joinGame(*a, game);
    Board board = fromState(joinGame(*b, game));
    std::mt19937 rng(static_cast<unsigned>(i));
    ASSERT_GT(playMove(*a, {b.get()}, game, pickHouse(board.legal, rng), "q", board), 0);
    games.insert(game);
    sockets.push_back(std::move(a));
    sockets.push_back(std::move(b));
  }
  const auto listed = [&](unsigned short p) {
    std::set<std::string> seen;
    auto list = Json::parse(http(p, "GET", "/api/games?live=1").body, nullptr, false);
    if (list.is_object())
      for (const Json& g : list["games"]) seen.insert(g.value("id", ""));
    return seen;
  };
  const auto playing = [&](unsigned short p) {
    const Json lobby = getJson(p, "/api/lobby");
    return lobby.is_object() ? lobby["counts"]["kalah"].value("playing", -1) : -1;
  };
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(eventually([&] { return listed(cluster.instancePort(i)) == games; }, 10000ms)) << "instance " << i;
  }

  redis.stop();
  std::this_thread::sleep_for(1000ms);
  ASSERT_TRUE(redis.start()) << "Redis did not come back on its port";
  // Every instance resynchronizes once its subscription is back...
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(eventually([&] { return cluster.instanceLogs(i).find("bus_resync") != std::string::npos; }, 15000ms))
        << "instance " << i << " did not resync";
  }
  std::this_thread::sleep_for(1500ms);  // (its writes reach Redis)
  // ... and the first read on each lists every game, though none moved, and counts them playing.
  for (int i = 0; i < n; ++i) {
    const auto p = cluster.instancePort(i);
    EXPECT_EQ(listed(p), games) << "the live list's first read on instance " << i << " after the restart";
    EXPECT_EQ(playing(p), n) << "the lobby's kalah games playing on instance " << i;
  }
}

}  // namespace
}  // namespace semis::test
