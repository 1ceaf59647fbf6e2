// Boards up to 12 houses and 12 seeds (issue 24) over the real server: a 12x12 game between two
// clients and one against the AI, each played to the end.

#include <gtest/gtest.h>

#include "Play.hpp"

namespace semis::test {
namespace {

constexpr const char* kBig = "kalah,houses=12,seeds=12";

// The seeds of a finished game's wire position: every seed ends in a store.
int storeTotal(const Json& position) {
  return position["stores"][0].get<int>() + position["stores"][1].get<int>();
}

TEST(ServerBigBoard, TwoClientsPlayTwelveByTwelveToTheEnd) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", kBig}, {"mode", "friend"}, {"side", "S"}});
  ASSERT_FALSE(game.empty());
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  const Json state = joinGame(b, game);
  ASSERT_EQ(state["status"], "playing") << state.dump();
  EXPECT_EQ(state["position"]["houses"].size(), 24U);
  EXPECT_EQ(state["legal"], Json::array({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  Board board = fromState(state);
  // House 12 first: its twelve seeds reach North's row (no extra turn); then random legal moves.
  std::mt19937 rng(24);
  int moves = 0;
  while (!board.over && moves < 2000) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    const int house = moves == 0 ? 12 : pickHouse(board.legal, rng);
    std::this_thread::sleep_for(40ms);  // within the server's 30 messages a second per connection
    ASSERT_GT(playMove(mover, {&other}, game, house, moves + 1, board), 0) << "move " << moves;
    ++moves;
  }
  ASSERT_TRUE(board.over) << moves << " moves";
  auto final = Json::parse(http(port, "GET", "/api/games/" + game, "", ca).body);
  EXPECT_EQ(final["status"], "over");
  EXPECT_EQ(final["plies"].size(), static_cast<std::size_t>(moves));
  EXPECT_EQ(final["houses_per_side"], 12);
  EXPECT_EQ(final["plies"][0]["move"], 12) << final["plies"].dump();
  EXPECT_EQ(storeTotal(final["position"]), 288) << final["position"].dump();
  auto record = http(port, "GET", "/api/games/" + game + "/record");
  EXPECT_NE(record.body.find("[Rules \"kalah,houses=12,seeds=12\"]"), std::string::npos) << record.body;
  EXPECT_NE(record.body.find("1. 12 "), std::string::npos) << record.body;
}

TEST(ServerBigBoard, TheAiPlaysTwelveByTwelveToTheEnd) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port()));
  ASSERT_TRUE(ws.untilType("hello"));
  ws.send({{"type", "create"}, {"rules", kBig}, {"mode", "ai"}, {"level", "medium"}, {"side", "N"}});
  auto created = ws.untilType("created");
  ASSERT_TRUE(created) << "no created";
  const std::string game = (*created)["id"];
  Board board = fromState(joinGame(ws, game));
  std::mt19937 rng(12);
  int mine = 0;
  int nextId = 1;
  bool waiting = false;
  while (!board.over && mine < 2000) {
    if (!waiting && board.toMove == "N") {
      std::this_thread::sleep_for(40ms);  // within the server's 30 messages a second per connection
      ws.send({{"type", "move"}, {"game", game}, {"id", nextId++}, {"house", pickHouse(board.legal, rng)}});
      waiting = true;
    }
    auto m = ws.next(10000ms);
    ASSERT_TRUE(m) << "no message: the AI did not move in time";
    ASSERT_NE((*m)["type"], "error") << m->dump();
    if ((*m)["type"] == "event") applyEvent(board, *m);
    if ((*m)["type"] == "ack") {
      waiting = false;
      ++mine;
    }
  }
  ASSERT_TRUE(board.over);
  auto final = Json::parse(http(server.port(), "GET", "/api/games/" + game, "", ws.cookie()).body);
  EXPECT_EQ(final["status"], "over");
  EXPECT_GT(final["plies"].size(), static_cast<std::size_t>(mine)) << "the AI moved too";
  EXPECT_GT(mine, 5) << final["plies"].dump();
  EXPECT_EQ(storeTotal(final["position"]), 288) << final["position"].dump();
}

}  // namespace
}  // namespace semis::test
