// Congkak's traditional rounds on the server: a match against the AI played round after round to
// its end; each round's start is the refill of the seeds each player won, its burnt houses in the
// position (docs/rules.md, `congkak`, rule 6).

#include <gtest/gtest.h>

#include <algorithm>

#include "Play.hpp"

namespace semis::test {
namespace {

constexpr int kHouses = 7;
constexpr int kSeedsAHouse = 7;

// A round's start as the server sends it: each player's houses hold 7 from house 1 on, the rest
// are burnt (listed, empty), and fewer than 7 seeds stayed in his store. Returns the burnt count.
int checkRoundStart(const Json& pos) {
  int burnt = 0;
  for (int side = 0; side < 2; ++side) {
    bool burning = false;
    for (int h = 1; h <= kHouses; ++h) {
      const int pit = side == 0 ? h - 1 : kHouses + h;
      const int count = pos["houses"][static_cast<std::size_t>(side * kHouses + h - 1)].get<int>();
      bool isBurnt = false;
      for (const Json& b : pos["burnt"]) isBurnt = isBurnt || b.get<int>() == pit;
      EXPECT_TRUE(isBurnt || !burning) << "houses burn from the store's end: " << pos.dump();
      burning = burning || isBurnt;
      EXPECT_EQ(count, isBurnt ? 0 : kSeedsAHouse) << pos.dump();
      burnt += isBurnt ? 1 : 0;
    }
    EXPECT_EQ(pos["houses"][static_cast<std::size_t>(side * kHouses)].get<int>(), kSeedsAHouse)
        << "a player who cannot fill his house 1 plays no round";
    // Seeds are left over in a store only when they could not fill one more house.
    if (burning) {
      EXPECT_LT(pos["stores"][static_cast<std::size_t>(side)].get<int>(), kSeedsAHouse) << pos.dump();
    }
  }
  return burnt;
}

TEST(Games, CongkakTraditionalRoundsAgainstTheAiToTheEndOfTheMatch) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string me = newCookie(port);
  WsClient ws;
  ASSERT_TRUE(ws.connect(port, me));
  const std::string match =
      createGame(port, me, {{"rules", "congkak,rounds=traditional"}, {"mode", "ai"}, {"level", "easy"}});
  Json st = joinGame(ws, match);
  EXPECT_EQ(st["rules"], "congkak,rounds=traditional");
  EXPECT_EQ(st["set"], 1);
  ASSERT_TRUE(st["position"]["burnt"].is_array()) << "a match of rounds says which houses are burnt";
  EXPECT_EQ(st["position"]["burnt"].size(), 0U);
  Board board = fromState(st);
  std::mt19937 rng(26);
  int rounds = 0;
  int nextId = 1;
  bool waiting = false;
  Json lastRound;
  Json lastEnd;
  while (!board.over) {
    if (!waiting && board.toMove == st["you"]) {
      // The server takes at most 30 messages a second from a client, and the easy AI answers at once.
      std::this_thread::sleep_for(40ms);
      ws.send({{"type", "move"}, {"game", match}, {"id", nextId++}, {"house", pickHouse(board.legal, rng)}});
      waiting = true;
    }
    auto m = ws.next(10000ms);
    ASSERT_TRUE(m);
    if ((*m)["type"] == "ack") waiting = false;
    ASSERT_NE((*m)["type"], "error") << m->dump();
    if ((*m)["type"] != "event") continue;
    applyEvent(board, *m);
    const Json& e = (*m)["event"];
    if (e["kind"] == "set_over") {
      ++rounds;
      lastRound = e["result"];
      EXPECT_EQ(e["set"], rounds);
    }
    if (e["kind"] == "move" && e.contains("set_end_position")) {
      lastEnd = e["set_end_position"];
      // Every seed is in a store at a round's end: what each player refills from.
      for (const Json& h : lastEnd["houses"]) EXPECT_EQ(h.get<int>(), 0);
      if (e["status"] != "over") {
        // The next round: refilled from those stores, begun by the other player.
        // (The move's event comes before the round's set_over: e["set"] is the round just ended.)
        const int ended = e["set"].get<int>();
        EXPECT_EQ(e["next_set"], ended + 1);
        const int south = lastEnd["stores"][0].get<int>(), north = lastEnd["stores"][1].get<int>();
        EXPECT_EQ(checkRoundStart(e["position"]),
                  2 * kHouses - std::min(south / kSeedsAHouse, kHouses) - std::min(north / kSeedsAHouse, kHouses));
        EXPECT_EQ(e["position"]["to_move"].get<std::string>(), ended % 2 == 1 ? "N" : "S") << "rounds alternate who begins";
      }
    }
  }
  ASSERT_GE(rounds, 1);
  ASSERT_LE(rounds, 9);
  // The match goes to the last round's winner; before round 9 only because the loser could not
  // fill a single house.
  EXPECT_EQ(board.result["winner"], lastRound["winner"]) << board.result.dump();
  const int south = lastEnd["stores"][0].get<int>(), north = lastEnd["stores"][1].get<int>();
  EXPECT_EQ(south + north, 98);
  if (rounds < 9) {
    EXPECT_LT(std::min(south, north), kSeedsAHouse) << lastEnd.dump();
  }
  // The finished game's state and record say the same.
  st = Json::parse(http(port, "GET", "/api/games/" + match, "", me).body);
  EXPECT_EQ(st["status"], "over");
  EXPECT_EQ(st["set"], rounds);
  EXPECT_EQ(st["result"]["winner"], lastRound["winner"]);
}

}  // namespace
}  // namespace semis::test
