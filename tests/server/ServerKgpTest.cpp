// Bots over the Kalah Game Protocol (docs/bots.md), black-box: a real server, bots written here
// speaking KGP over TCP and over the WebSocket /kgp (with the real client libraries' quirks), and
// people playing them through the page's own WebSocket. Games go to their end; the records are
// checked against `semis replay` of their moves.

#include <gtest/gtest.h>

#include <thread>

#include "KgpPlay.hpp"

namespace semis::test {
namespace {

class ServerKgp : public ::testing::TestWithParam<KgpClient::Via> {
 protected:
  void SetUp() override { srv_.start(); }
  unsigned short botPort() const { return GetParam() == KgpClient::Via::Tcp ? srv_.kgp : srv_.port; }
  ServerUnderTest srv_;
};

TEST_P(ServerKgp, APersonPlaysABotToTheEndAndTheRecordIsTrue) {
  const unsigned short port = srv_.port;
  Member owner = signUp(port, "owner");
  Bot bot = makeBot(port, owner, "bot");
  ASSERT_FALSE(bot.token.empty());
  KgpClient c;
  ASSERT_TRUE(c.connect(GetParam(), botPort()));
  ASSERT_TRUE(signIn(c, bot.token));
  // The bot is listed online; a person starts a game against it by name.
  auto online = getJson(port, "/api/bots/online");
  bool listed = false;
  for (const Json& b : online["bots"]) listed = listed || b["name"] == bot.name;
  EXPECT_TRUE(listed) << online.dump();
  Member person = signUp(port, "person");
  const std::string game =
      createGame(port, person.cookie, {{"rules", "kalah"}, {"mode", "bot"}, {"bot", bot.name}, {"side", "S"}});
  ASSERT_FALSE(game.empty());
  WsClient ws;
  ASSERT_TRUE(ws.connect(port, person.cookie));
  Json state = joinGame(ws, game);
  ASSERT_EQ(state["seats"]["N"]["name"], bot.name);
  int botTurns = 0;
  for (int guard = 0; guard < 400; ++guard) {
    state = getJson(port, "/api/games/" + game, person.cookie);
    if (state["status"] == "over") break;
    const std::string toMove = state["position"]["to_move"];
    if (toMove == "S") {
      ws.send({{"type", "move"}, {"game", game}, {"house", state["legal"].at(0)}, {"id", guard}});
      auto ack = ws.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; });
      ASSERT_TRUE(ack && (*ack)["type"] == "ack") << (ack ? ack->dump() : "no ack");
      continue;
    }
    auto line = c.untilCommand("state", 10s);
    ASSERT_TRUE(line) << "the bot is offered its turn";
    const KgpLine l = splitKgp(*line);
    ASSERT_GT(l.id, 0) << "a state has an id the bot's moves refer to";
    const std::vector<int> board = kgpBoard(l.args);
    ASSERT_EQ(board.size(), 15U) << *line;
    // Mirrored: the bot (North here) reads itself as South.
    const Json now = getJson(port, "/api/games/" + game, person.cookie);
    const Json& houses = now["position"]["houses"];
    EXPECT_EQ(board[1], now["position"]["stores"].at(1)) << *line;
    EXPECT_EQ(board[2], now["position"]["stores"].at(0)) << *line;
    for (int k = 0; k < 6; ++k) {
      EXPECT_EQ(board[3 + k], houses[6 + k]) << *line;
      EXPECT_EQ(board[9 + k], houses[k]) << *line;
    }
    c.sendLine("@" + std::to_string(l.id) + " move " + std::to_string(firstMove(board)));
    c.sendLine("@" + std::to_string(l.id) + " yield");
    ++botTurns;
    // The move is played at once on `yield`: the game moves on well before the 5 s a move.
    for (int wait = 0; wait < 100; ++wait) {
      const Json after = getJson(port, "/api/games/" + game, person.cookie);
      if (after["plies"].size() > now["plies"].size() || after["status"] == "over") break;
      std::this_thread::sleep_for(20ms);
    }
  }
  ASSERT_EQ(state["status"], "over");
  EXPECT_GT(botTurns, 3);
  const Json replay = replayed(state);
  ASSERT_TRUE(replay.is_object());
  EXPECT_EQ(replay["houses"], state["position"]["houses"]);
  EXPECT_EQ(replay["stores"], state["position"]["stores"]);
  EXPECT_EQ(replay["ply"], state["plies"].size()) << "every ply replayed";
}

INSTANTIATE_TEST_SUITE_P(Via, ServerKgp, ::testing::Values(KgpClient::Via::Tcp, KgpClient::Via::WebSocket),
                         [](const auto& info) { return info.param == KgpClient::Via::Tcp ? "Tcp" : "WebSocket"; });

}  // namespace
}  // namespace semis::test
