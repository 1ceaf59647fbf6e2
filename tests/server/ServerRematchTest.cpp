// Rematches joined at once (issue 27.7): when both players ask and one joins the new game the moment
// he hears `rematch`, his socket must get every event of that game after its `state`. The game is
// watched by a crowd of spectators, so that telling everyone of the rematch takes the instance a
// while: a player told early joins (loading the new game from the record) while the instance is
// still telling the others, before it has put its own copy of the new game in memory.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "ClusterPlay.hpp"

namespace semis::test {
namespace {

struct RematchTally {
  std::atomic<int> rounds{0};
  std::atomic<int> deaf{0};  // joins that got the state and then not the first move's event
  std::atomic<int> broken{0};  // anything else that went wrong (reported by the pair)
};

// One pair: `rounds` rematches, each joined by both at once on hearing `rematch`; then the side to
// move plays, and both sockets must see the move's event.
void rematchRounds(unsigned short portA, unsigned short portB, int rounds, RematchTally& tally,
                   std::vector<std::unique_ptr<WsClient>>& crowd) {
  const std::string ca = newCookie(portA), cb = newCookie(portB);
  std::string game = createGame(portA, ca, {{"rules", "kalah,houses=4"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b;
  if (game.empty() || !a.connect(portA, ca) || !b.connect(portB, cb)) {
    tally.broken++;
    return;
  }
  joinGame(a, game);
  if (joinGame(b, game).is_null()) {
    tally.broken++;
    return;
  }
  const auto gather = [&](const std::string& g) {
    for (auto& ws : crowd) ws->send({{"type", "join"}, {"game", g}});
    for (auto& ws : crowd) (void)ws->until([&](const Json& m) { return m["type"] == "state"; }, 10000ms);
  };
  gather(game);
  const auto isEvent = [](const std::string& g, const char* kind) {
    return [g, kind](const Json& m) { return m["type"] == "event" && m["game"] == g && m["event"]["kind"] == kind; };
  };
  for (int r = 0; r < rounds; ++r) {
    a.send({{"type", "resign"}, {"game", game}});
    if (!a.until(isEvent(game, "game_over"), 10000ms) || !b.until(isEvent(game, "game_over"), 10000ms)) {
      tally.broken++;
      return;
    }
    a.send({{"type", "rematch"}, {"game", game}});
    b.send({{"type", "rematch"}, {"game", game}});
    // Each joins the moment it hears the new game's id.
    std::string fresh;
    Json stA, stB;
    for (WsClient* ws : {&a, &b}) {
      auto rm = ws->until(isEvent(game, "rematch"), 10000ms);
      if (!rm) {
        tally.broken++;
        return;
      }
      fresh = (*rm)["event"]["new_game"].get<std::string>();
      ws->send({{"type", "join"}, {"game", fresh}});
    }
    for (auto [ws, st] : {std::pair{&a, &stA}, std::pair{&b, &stB}}) {
      auto s = ws->until([&](const Json& m) { return m["type"] == "state" && m["game"]["id"] == fresh; }, 10000ms);
      if (!s) {
        tally.broken++;
        return;
      }
      *st = (*s)["game"];
    }
    Board board = fromState(stA);
    WsClient& mover = stA["you"] == board.toMove ? a : b;
    const int house = board.legal.at(0).get<int>();
    mover.send({{"type", "move"}, {"game", fresh}, {"id", "r" + std::to_string(r)}, {"house", house},
                {"after", board.lastEvent}});
    for (WsClient* ws : {&a, &b}) {
      const long long after = board.lastEvent;
      auto got = ws->until(
          [&](const Json& m) { return m["type"] == "event" && m["game"] == fresh && m["n"].get<long long>() > after; },
          5000ms);
      if (!got) tally.deaf++;
    }
    tally.rounds++;
    game = fresh;
    gather(game);
  }
}

void manyRematches(unsigned short portA, unsigned short portB, unsigned short crowdPort) {
  constexpr int kRounds = 25, kCrowd = 90;
  // The spectators: 3 cookies of 30 sockets, from an address of their own.
  std::vector<std::unique_ptr<WsClient>> crowd;
  for (int i = 0; i < kCrowd; ++i) {
    static std::string cookie;
    if (i % 30 == 0) cookie = newCookie(crowdPort);
    auto ws = std::make_unique<WsClient>();
    ws->setLocalAddress("127.0.0.9");
    ASSERT_TRUE(ws->connect(crowdPort, cookie)) << "spectator " << i;
    crowd.push_back(std::move(ws));
  }
  RematchTally tally;
  rematchRounds(portA, portB, kRounds, tally, crowd);
  EXPECT_EQ(tally.broken.load(), 0);
  EXPECT_EQ(tally.rounds.load(), kRounds);
  EXPECT_EQ(tally.deaf.load(), 0) << "joins that heard nothing after their state, of " << 2 * tally.rounds.load();
}

TEST(Rematch, EveryJoinAtOnceSeesTheNewGamesEvents) {
  ServerProcess server({"--rate", "10000"});
  ASSERT_TRUE(server.start()) << server.logs();
  manyRematches(server.port(), server.port(), server.port());
}

TEST(Rematch, EveryJoinAtOnceSeesTheNewGamesEventsOnACluster) {
  auto spec = clusterSpecFromEnv();
  if (!spec) GTEST_SKIP() << "needs SEMIS_TEST_PG and SEMIS_TEST_REDIS";
  ServerProcess cluster({"--rate", "10000"});
  cluster.useCluster(*spec);
  ASSERT_TRUE(cluster.start()) << cluster.logs();
  // The players on two instances (the crowd with one of them), and both on one.
  manyRematches(cluster.instancePort(0), cluster.instancePort(1), cluster.instancePort(1));
  manyRematches(cluster.instancePort(2), cluster.instancePort(2), cluster.instancePort(2));
}

}  // namespace
}  // namespace semis::test
