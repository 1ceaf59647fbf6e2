// Black-box tests of a cluster losing an instance to kill -9 (docs/scaling.md, failures): the
// client reconnects through HAProxy and resends its unacknowledged move; AI seats go on.

#include <gtest/gtest.h>

#include "ClusterPlay.hpp"

namespace semis::test {
namespace {

using Clock = std::chrono::steady_clock;

long long msSince(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// Reads `ws` until its connection drops (the instance died); true if the move `id` was acknowledged
// meanwhile. Events read are applied to `board`.
bool drainUntilClosed(WsClient& ws, const std::string& game, const Json& id, Board& board) {
  bool acked = false;
  while (!ws.closed()) {
    auto m = ws.next(10000ms);
    if (!m) break;
    if ((*m)["type"] == "event" && (*m)["game"] == game) applyEvent(board, *m);
    if ((*m)["type"] == "ack" && (*m)["id"] == id) acked = true;
    ws.skipped().push_back(*m);
  }
  return acked;
}

TEST(ServerClusterFailover, APlayersInstanceKilledMidGameLosesNoMoveAndAppliesNoneTwice) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  ServerProcess cluster;
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const unsigned short proxy = cluster.port();
  const std::string ca = newCookie(proxy), cb = newCookie(proxy);
  // A clocked game: 5 minutes each.
  const std::string game =
      createGame(proxy, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}, {"clock", {{"minutes", 5}}}});
  WsClient a, b;
  const int ia = connectThroughProxy(cluster, a, ca);
  ASSERT_GE(ia, 0) << "South's connection went nowhere";
  const int ib = (ia + 1) % cluster.instances();
  ASSERT_TRUE(b.connect(cluster.instancePort(ib), cb));  // North is elsewhere, and stays
  const long long fromA = fromState(joinGame(a, game)).lastEvent;
  const Json sb = joinGame(b, game);
  Board board = fromState(sb);
  std::mt19937 rng(17);
  int plies = 0;
  while (plies < 6 || board.toMove != "S") {
    ASSERT_FALSE(board.over);
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "p" + std::to_string(plies), board), 0);
    ++plies;
  }
  // South's clock runs: what a survivor says of it now is the reference.
  const unsigned short survivor = cluster.instancePort(ib);
  const Clock::time_point t0 = Clock::now();
  const Json st0 = Json::parse(http(survivor, "GET", "/api/games/" + game).body);
  ASSERT_TRUE(st0["clock"]["running"].get<bool>());
  const long long south0 = st0["clock"]["S"].get<long long>(), north0 = st0["clock"]["N"].get<long long>();

  // South moves and his instance dies at once: the move may or may not have been stored.
  const int house = pickHouse(board.legal, rng);
  const long long after = board.lastEvent;
  const Clock::time_point sent = Clock::now();
  a.send({{"type", "move"}, {"game", game}, {"id", "x"}, {"house", house}, {"after", after}});
  cluster.killInstance(ia);
  const Clock::time_point killed = Clock::now();
  const bool ackedBefore = drainUntilClosed(a, game, "x", board);
  EXPECT_TRUE(a.closed()) << "HAProxy kept South's socket to a dead instance open";

  // Long enough after t0 that a clock set back to its stored value would show (not a timing test).
  std::this_thread::sleep_for(std::chrono::milliseconds(std::max(0LL, 1500 - msSince(t0))));
  const long long sinceT0 = msSince(t0), sinceSent = msSince(sent), sinceKill = msSince(killed);
  const Json st1 = Json::parse(http(survivor, "GET", "/api/games/" + game).body);
  const long long south1 = st1["clock"]["S"].get<long long>(), north1 = st1["clock"]["N"].get<long long>();
  EXPECT_GE(south1, 0);
  EXPECT_GE(north1, 0);
  if (st1["position"]["to_move"] == "S") {
    // x is not in the record: South's time ran all along, from before t0.
    EXPECT_LE(south1, south0 - sinceT0 + 300) << "South's clock went back across the failover";
    EXPECT_GE(south1, south0 - sinceT0 - 5000);
    EXPECT_NEAR(north1, north0, 100) << "North's clock ran on South's turn";
  } else {
    // x was stored before the instance died: North's time runs from then.
    EXPECT_LE(north1, north0 - sinceKill + 300) << "North's clock did not run from South's move";
    EXPECT_GE(north1, north0 - sinceSent - 5000);
    EXPECT_LE(south1, south0);
  }

  // South reconnects through HAProxy, catches up, and sends x again: played once in all.
  ASSERT_TRUE(rejoin(a, proxy, ca, game, board)) << "South could not rejoin through HAProxy\n" << cluster.proxyLogs();
  a.send({{"type", "move"}, {"game", game}, {"id", "x"}, {"house", house}, {"after", after}});
  auto answer = a.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; }, 10000ms);
  ASSERT_TRUE(answer) << "no answer to the resent move";
  if (ackedBefore) {
    EXPECT_EQ((*answer)["code"], "stale") << "an acknowledged move was lost: " << answer->dump();
  } else {
    EXPECT_TRUE((*answer)["type"] == "ack" || (*answer)["code"] == "stale") << answer->dump();
  }
  const long long xEvent = (*answer)["n"].get<long long>();
  EXPECT_EQ(pliesOn(survivor, game), plies + 1) << "x is in the record once";
  // North was not disturbed: same socket, x's event once.
  EXPECT_FALSE(b.closed());
  EXPECT_TRUE(readUpTo(b, game, xEvent));

  // The game goes on across the survivors.
  const Json st2 = stateAtLeast(proxy, game, ca, xEvent);
  ASSERT_EQ(st2["plies"].size(), static_cast<std::size_t>(plies + 1))
      << "an instance's copy stays behind the record (x stored, its publish died with its instance?)";
  board = fromState(st2);
  for (int i = 0; i < 4 && !board.over; ++i) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "q" + std::to_string(i), board), 0);
  }
  const long long last = board.lastEvent;
  EXPECT_TRUE(readUpTo(a, game, last) && readUpTo(b, game, last));
  // Each saw every event once, in order (South: across its two connections).
  expectEventsOnceInOrder(everything(a), game, fromA, last, "South");
  expectEventsOnceInOrder(everything(b), game, sb["last_event"].get<long long>(), last, "North");
}

// Plays South's side against the AI: random legal moves until the game ends. False on an error or
// when the AI stays silent for 15 s.
bool playOutAgainstAi(WsClient& ws, const std::string& game, Board& board, std::mt19937& rng) {
  int id = 0;
  bool waiting = false;
  while (!board.over) {
    if (!waiting && board.toMove == "S") {
      ws.send({{"type", "move"},
               {"game", game},
               {"id", "ai" + std::to_string(id++)},
               {"house", pickHouse(board.legal, rng)},
               {"after", board.lastEvent}});
      waiting = true;
    }
    auto m = ws.next(15000ms);
    if (!m) return false;
    if ((*m)["type"] == "event") applyEvent(board, *m);
    if ((*m)["type"] == "ack") waiting = false;
    if ((*m)["type"] == "error") {
      ADD_FAILURE() << m->dump();
      return false;
    }
  }
  return true;
}

TEST(ServerClusterFailover, AnAiGameWhoseInstanceDiesGoesOnWhereThePlayerReconnects) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  ServerProcess cluster({"--ai", "greedy"});
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const unsigned short proxy = cluster.port();
  const std::string ca = newCookie(proxy);
  const std::string game = createGame(proxy, ca, {{"rules", "kalah,houses=4"}, {"mode", "ai"}, {"side", "S"}});
  WsClient a;
  const int ia = connectThroughProxy(cluster, a, ca);
  ASSERT_GE(ia, 0);
  Board board = fromState(joinGame(a, game));
  std::mt19937 rng(4);
  // A few moves each, then South moves and his instance dies at once.
  for (int i = 0; i < 3 && !board.over; ++i) {
    ASSERT_EQ(board.toMove, "S");
    auto ack = moveAndAnswer(a, game, pickHouse(board.legal, rng), "w" + std::to_string(i), board.lastEvent, board);
    ASSERT_TRUE(ack && (*ack)["type"] == "ack") << (ack ? ack->dump() : "no answer");
    if (board.over || board.toMove == "S") continue;  // an extra turn
    ASSERT_TRUE(a.until([&](const Json& m) {
      if (m["type"] == "event") applyEvent(board, m);
      return board.over || board.toMove == "S";
    }));
  }
  ASSERT_FALSE(board.over);
  const int house = pickHouse(board.legal, rng);
  const long long after = board.lastEvent;
  a.send({{"type", "move"}, {"game", game}, {"id", "k"}, {"house", house}, {"after", after}});
  cluster.killInstance(ia);
  const bool ackedBefore = drainUntilClosed(a, game, "k", board);
  ASSERT_TRUE(rejoin(a, proxy, ca, game, board)) << cluster.proxyLogs();
  if (board.toMove == "S" && board.lastEvent == after) {
    // k is not in the record: sent again, with the same id.
    EXPECT_FALSE(ackedBefore) << "an acknowledged move was lost";
    auto again = moveAndAnswer(a, game, house, "k", after, board);
    ASSERT_TRUE(again && (*again)["type"] == "ack") << (again ? again->dump() : "no answer");
  }
  // The instance he landed on answers for the AI, to the end of the game.
  ASSERT_TRUE(playOutAgainstAi(a, game, board, rng)) << "the AI went silent after the failover\n" << cluster.logs();
  EXPECT_TRUE(board.over);
}

// South plays an AI seat on instance 0 and a spectator watches on instance 1; instance 0 dies while
// the AI thinks. With `heardFirst`, once instance 1 has heard instance 0's heartbeat; otherwise at
// once (an instance that dies within its first second).
void aiSeatResumesOnASpectatorsInstance(const ClusterSpec& spec, bool heardFirst) {
  // The engine at its slowest level thinks for seconds on the opening of a full board: the AI's
  // turn is still open when its instance dies (greedy would have answered already). Kalah club
  // rules: Kalah's opening book would answer at once.
  ServerProcess cluster({"--ai", "engine"});
  cluster.useCluster(spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  const unsigned short p0 = cluster.instancePort(0), p1 = cluster.instancePort(1);
  const std::string ca = newCookie(p0), cs = newCookie(p1);
  const std::string game =
      createGame(p0, ca, {{"rules", "kalah-club"}, {"mode", "ai"}, {"level", "perfect"}, {"side", "S"}});
  WsClient a, spectator;
  ASSERT_TRUE(a.connect(p0, ca) && spectator.connect(p1, cs));
  Board board = fromState(joinGame(a, game));
  const Json ss = joinGame(spectator, game);
  EXPECT_EQ(ss["you"], "spectator");
  // Instance 1 knows instance 0 from its heartbeat (which counts South's socket).
  if (heardFirst) {
    ASSERT_TRUE(eventually(
        [&] {
          auto list = Json::parse(http(p1, "GET", "/api/games?live=1").body, nullptr, false);
          return list.is_object() && list.value("online", 0) >= 2;
        },
        10000ms))
        << "instance 1 never heard instance 0's heartbeat";
  }
  // South's move is stored on instance 0, which then thinks for North... and dies.
  auto ack = moveAndAnswer(a, game, 1, "only", board.lastEvent, board);  // house 1 of 6: no extra turn
  ASSERT_TRUE(ack && (*ack)["type"] == "ack") << (ack ? ack->dump() : "no answer");
  cluster.killInstance(0);
  const Clock::time_point killed = Clock::now();
  const long long southMove = (*ack)["n"].get<long long>();
  // The spectator's instance forgets the silent one (3.5 s) and takes the AI's turn up.
  auto aiMove = spectator.until(
      [&](const Json& m) {
        return m["type"] == "event" && m["n"].get<long long>() > southMove && m["event"]["kind"] == "move" &&
               m["event"]["side"] == "N";
      },
      20000ms);
  if (!aiMove) {
    long long seen = 0;
    for (const Json& m : spectator.skipped())
      if (m["type"] == "event") seen = std::max(seen, m["n"].get<long long>());
    FAIL() << "the AI seat never moved after its instance died; the spectator saw events up to " << seen
           << ", South's move was " << southMove << "\n"
           << cluster.instanceLogs(1);
  }
  std::printf("the AI's move reached the spectator %lld ms after the kill\n", static_cast<long long>(msSince(killed)));
  // (counted just after the move is sent to its watchers)
  EXPECT_TRUE(eventually([&] { return metricOf(p1, "semis_ai_moves_total") >= 1; }))
      << "the survivor did not play it (instance 0 had, before it died?)";
  if (heardFirst) {
    EXPECT_NE(cluster.instanceLogs(1).find("instances_gone"), std::string::npos);
  }
  // Once: the record holds South's move and one AI move after it (more only if the AI moved again).
  const Json st = stateAtLeast(p1, game, cs, (*aiMove)["n"].get<long long>());
  int north = 0;
  for (const Json& ply : st["plies"]) north += ply["mover"] == "N" ? 1 : 0;
  EXPECT_EQ(north, 1) << st["plies"].dump();
}

TEST(ServerClusterFailover, AnAiSeatResumesOnASpectatorsInstanceWhenItsOwnDies) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  aiSeatResumesOnASpectatorsInstance(*spec, true);
}

// Instance 1 subscribes after instance 0's first beat and hears the next one a second later: if
// instance 0 dies before, instance 1 never hears of it, and takes the AI turn up once it is late.
TEST(ServerClusterFailover, AnAiSeatResumesWhenItsInstanceDiesBeforeItsSecondHeartbeat) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  aiSeatResumesOnASpectatorsInstance(*spec, false);
}

}  // namespace
}  // namespace semis::test
