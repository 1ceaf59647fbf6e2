// kill -9 in the middle of a stream of moves: every acknowledged move is there after the restart.

#include <gtest/gtest.h>

#include <map>

#include "Play.hpp"

namespace semis::test {
namespace {

TEST(Crash, KillNineUnderLoadLosesNoAcknowledgedMove) {
  ServerProcess server({"--rate", "10000"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string me = newCookie(port);
  constexpr int kGames = 20;
  std::vector<std::string> ids;
  for (int i = 0; i < kGames; ++i) ids.push_back(createGame(port, me, {{"rules", "kalah,houses=6,seeds=6"}, {"mode", "local"}}));
  WsClient ws;
  ASSERT_TRUE(ws.connect(port, me));
  std::map<std::string, Board> boards;
  std::map<std::string, int> acked;
  std::map<std::string, int> next;
  std::mt19937 rng(21);
  for (const auto& id : ids) boards[id] = fromState(joinGame(ws, id));
  auto sendMove = [&](const std::string& id) {
    Board& b = boards[id];
    if (b.over || b.legal.empty()) return;
    ws.send({{"type", "move"}, {"game", id}, {"id", id + "-" + std::to_string(++next[id])}, {"house", pickHouse(b.legal, rng)}});
  };
  // One move in flight per game at every moment.
  for (const auto& id : ids) sendMove(id);
  int total = 0;
  while (total < 400) {
    auto m = ws.next(5000ms);
    ASSERT_TRUE(m) << "the stream stalled";
    ASSERT_NE((*m)["type"], "error") << m->dump();
    if ((*m)["type"] == "event") applyEvent(boards[(*m)["game"].get<std::string>()], *m);
    if ((*m)["type"] == "ack") {
      const std::string moveId = (*m)["id"];
      const std::string id = moveId.substr(0, moveId.find('-'));
      ++acked[id];
      ++total;
      sendMove(id);
    }
  }
  server.kill9();  // moves are still in flight
  ASSERT_TRUE(server.start()) << server.logs();
  for (const auto& id : ids) {
    auto st = Json::parse(http(port, "GET", "/api/games/" + id, "", me).body);
    const int plies = static_cast<int>(st["plies"].size());
    EXPECT_GE(plies, acked[id]) << "game " << id << " lost an acknowledged move";
    EXPECT_LE(plies, acked[id] + 1) << "at most the one move in flight was saved without its ack";
  }
}

}  // namespace
}  // namespace semis::test
