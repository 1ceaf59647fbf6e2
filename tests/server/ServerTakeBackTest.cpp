// Take back against the computer, black-box: the real binary, its SQLite file, a restart in the
// middle. Only a casual game against the computer allows it; the game after a take back is the
// moves left, the same before and after a restart.

#include <gtest/gtest.h>

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

// Sends a take back and returns the answer: the `takeback` event, or an `error`.
Json takeBack(WsClient& ws, const std::string& game) {
  ws.send({{"type", "takeback"}, {"game", game}});
  auto m = ws.until([](const Json& j) {
    return j["type"] == "error" || (j["type"] == "event" && j["event"]["kind"] == "takeback");
  });
  return m ? *m : Json();
}

// Plays `house` for South and reads events until South is to move again (the computer replied).
void moveAndWaitForReply(WsClient& ws, const std::string& game, int house, const std::string& id, Board& board) {
  ws.send({{"type", "move"}, {"game", game}, {"id", id}, {"house", house}, {"after", board.lastEvent}});
  bool acked = false;
  auto settled = ws.until([&](const Json& m) {
    if (m["type"] == "error") return true;
    if (m["type"] == "ack") acked = true;
    if (m["type"] == "event") applyEvent(board, m);
    return acked && (board.toMove == "S" || board.over);
  }, 15000ms);
  ASSERT_TRUE(settled) << "no reply from the computer";
  ASSERT_NE((*settled)["type"], "error") << settled->dump();
}

TEST(TakeBack, UndoesTheMoveAndTheReplyAndSurvivesARestart) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string cookie = newCookie(port);
  const std::string game = createGame(port, cookie, {{"rules", "kalah"}, {"mode", "ai"}, {"level", "easy"}, {"side", "S"}});
  ASSERT_FALSE(game.empty());
  WsClient ws;
  ASSERT_TRUE(ws.connect(port, cookie));
  Json state = joinGame(ws, game);
  EXPECT_FALSE(state["can_take_back"].get<bool>());
  Json nothing = takeBack(ws, game);
  EXPECT_EQ(nothing["code"], "nothing_to_take_back") << nothing.dump();

  Board board = fromState(state);
  moveAndWaitForReply(ws, game, 1, "a", board);  // 4 seeds from house 1 end in house 5: the turn passes
  ASSERT_FALSE(board.over);
  const Json kept = Json::parse(http(port, "GET", "/api/games/" + game, "", cookie).body);
  const std::size_t keptPlies = kept["plies"].size();
  ASSERT_GE(keptPlies, 2U) << "South's move and the computer's reply";
  EXPECT_TRUE(kept["can_take_back"].get<bool>());
  const std::string keptRecord = http(port, "GET", "/api/games/" + game + "/record").body;

  moveAndWaitForReply(ws, game, 2, "b", board);
  ASSERT_FALSE(board.over);
  const Json back = takeBack(ws, game);
  ASSERT_EQ(back["type"], "event") << back.dump();
  EXPECT_EQ(back["event"]["side"], "S");
  EXPECT_EQ(back["event"]["position"], kept["position"]) << "the position before that move";
  EXPECT_EQ(back["event"]["legal"], kept["legal"]);
  Json now = Json::parse(http(port, "GET", "/api/games/" + game, "", cookie).body);
  EXPECT_EQ(now["plies"], kept["plies"]) << "the moves left";
  EXPECT_EQ(now["position"], kept["position"]);
  EXPECT_EQ(http(port, "GET", "/api/games/" + game + "/record").body, keptRecord)
      << "the record is the game without the moves taken back";
  board.lastEvent = back["n"].get<long long>();
  board.toMove = "S";
  board.legal = back["event"]["legal"];

  // Another move in their place, then a restart: the stored game is the same game.
  const int replacement = board.legal.back().get<int>();
  moveAndWaitForReply(ws, game, replacement, "c", board);  // and the computer's reply, unless an extra turn
  const Json before = Json::parse(http(port, "GET", "/api/games/" + game, "", cookie).body);
  const std::string recordBefore = http(port, "GET", "/api/games/" + game + "/record").body;
  for (std::size_t i = 0; i < keptPlies; ++i) EXPECT_EQ(before["plies"][i], kept["plies"][i]);
  EXPECT_EQ(before["plies"][keptPlies]["move"], replacement) << "the move played after the take back follows the moves kept";
  ws.close();
  EXPECT_EQ(server.terminate(), 0);
  ASSERT_TRUE(server.start()) << server.logs();
  const Json after = Json::parse(http(port, "GET", "/api/games/" + game, "", cookie).body);
  EXPECT_EQ(after["plies"], before["plies"]);
  EXPECT_EQ(after["position"], before["position"]);
  EXPECT_EQ(after["last_event"], before["last_event"]);
  EXPECT_EQ(http(port, "GET", "/api/games/" + game + "/record").body, recordBefore);

  // And the player can take back again after the restart (that move and its reply), down to the start.
  WsClient again;
  ASSERT_TRUE(again.connect(port, cookie));
  joinGame(again, game);
  const Json second = takeBack(again, game);
  ASSERT_EQ(second["type"], "event") << second.dump();
  EXPECT_EQ(second["event"]["position"], kept["position"]);
  const Json third = takeBack(again, game);
  ASSERT_EQ(third["type"], "event") << third.dump();
  EXPECT_EQ(Json::parse(http(port, "GET", "/api/games/" + game, "", cookie).body)["plies"].size(), 0U);
  EXPECT_EQ(takeBack(again, game)["code"], "nothing_to_take_back");
}

TEST(TakeBack, RefusedAgainstAPersonAndInARatedGame) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  // A friend game: both have moved, still no take back.
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "kalah"}, {"mode", "friend"}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  ASSERT_GT(playMove(a, {&b}, game, 1, "a1", board), 0);
  ASSERT_GT(playMove(b, {&a}, game, 1, "b1", board), 0);
  const Json refused = takeBack(a, game);
  EXPECT_EQ(refused["code"], "not_allowed") << refused.dump();
  EXPECT_EQ(takeBack(b, game)["code"], "not_allowed");
  EXPECT_FALSE(Json::parse(http(port, "GET", "/api/games/" + game, "", ca).body)["can_take_back"].get<bool>());
  // A spectator is no player.
  WsClient watcher;
  ASSERT_TRUE(watcher.connect(port));
  joinGame(watcher, game);
  EXPECT_EQ(takeBack(watcher, game)["code"], "not_a_player");

  // A rated game between two members.
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  WsClient x, y;
  ASSERT_TRUE(x.connect(port, ann.cookie) && y.connect(port, ben.cookie));
  const std::string rated = quickPair(x, y, {{"rules", "kalah"}, {"clock", nullptr}, {"rated", true}, {"quick", true}});
  ASSERT_FALSE(rated.empty());
  const Json sx = joinGame(x, rated);
  joinGame(y, rated);
  Board rb = fromState(sx);
  WsClient& south = sx["you"] == "S" ? x : y;
  WsClient& north = sx["you"] == "S" ? y : x;
  ASSERT_GT(playMove(south, {&north}, rated, 1, "s1", rb), 0);
  ASSERT_GT(playMove(north, {&south}, rated, 1, "n1", rb), 0);
  EXPECT_EQ(takeBack(south, rated)["code"], "not_allowed");
  const Json st = Json::parse(http(port, "GET", "/api/games/" + rated, "", ann.cookie).body);
  EXPECT_EQ(st["plies"].size(), 2U) << "nothing changed";
}

}  // namespace
}  // namespace semis::test
