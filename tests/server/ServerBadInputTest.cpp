// Bad input and limits: each gets a clear `error` and changes nothing.

#include <gtest/gtest.h>

#include "Play.hpp"

namespace semis::test {
namespace {

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.start()) << server_.logs();
    ca_ = newCookie(port());
    cb_ = newCookie(port());
    game_ = createGame(port(), ca_, {{"rules", "kalah,houses=4"}, {"mode", "friend"}, {"side", "S"}});
    ASSERT_TRUE(a_.connect(port(), ca_) && b_.connect(port(), cb_));
    joinGame(a_, game_);
    board_ = fromState(joinGame(b_, game_));
    (void)stateAtLeast(port(), game_, ca_, board_.lastEvent);  // every instance of a cluster has both seats
  }
  unsigned short port() const { return server_.port(); }
  // What a bad message must not change: the position, the moves, the status and the event log.
  // (In a cluster, once every instance's copy has the last move this test saw acknowledged.)
  std::string stateText() {
    auto st = stateAtLeast(port(), game_, ca_, board_.lastEvent);
    return Json{st["position"], st["plies"], st["status"], st["last_event"], st["draw_offer"]}.dump();
  }
  Json expectError(WsClient& ws, const std::string& code) {
    auto e = ws.until([](const Json& m) { return m["type"] == "error"; });
    EXPECT_TRUE(e.has_value()) << "no error for " << code;
    if (!e) return Json();
    EXPECT_EQ((*e)["code"], code) << e->dump();
    EXPECT_FALSE((*e)["message"].get<std::string>().empty());
    return *e;
  }
  // The connection still answers after the error.
  void expectAlive(WsClient& ws) {
    ws.send({{"type", "ping"}, {"t", 42}});
    auto pong = ws.untilType("pong");
    ASSERT_TRUE(pong) << "connection closed after an error";
    EXPECT_EQ((*pong)["t"], 42);
    EXPECT_TRUE((*pong)["server_time"].is_number());
  }

  ServerProcess server_;
  std::string ca_, cb_, game_;
  WsClient a_, b_;
  Board board_;
};

TEST_F(BadInput, MalformedUnknownAndMissing) {
  const std::string before = stateText();
  a_.sendRaw("{\"type\": \"move\", ");
  expectError(a_, "bad_message");
  a_.sendRaw("[1,2,3]");
  expectError(a_, "bad_message");
  a_.send({{"type", "teleport"}, {"game", game_}});
  expectError(a_, "unknown_type");
  a_.send({{"game", game_}});
  expectError(a_, "bad_message");
  a_.send({{"type", "move"}, {"game", game_}, {"house", 1}});  // no id
  expectError(a_, "bad_message");
  a_.send({{"type", "move"}, {"game", game_}, {"id", 1}, {"house", "one"}});
  expectError(a_, "bad_message");
  a_.send({{"type", "move"}, {"game", game_}, {"id", 1}, {"house", 99}});
  expectError(a_, "bad_message");
  a_.send({{"type", "move"}, {"game", "../etc"}, {"id", 1}, {"house", 1}});
  expectError(a_, "bad_message");
  a_.send({{"type", "move"}, {"game", "NoSuchGame"}, {"id", 1}, {"house", 1}});
  expectError(a_, "not_found");
  a_.send({{"type", "join"}, {"game", "NoSuchGame"}});
  expectError(a_, "not_found");
  a_.sendRaw("{\"type\":\"ping\"}", /*binary=*/true);
  expectError(a_, "bad_message");
  a_.send({{"type", "create"}, {"rules", "kalah,houses=99"}});
  expectError(a_, "bad_message");
  expectAlive(a_);
  EXPECT_EQ(stateText(), before) << "nothing changed";
}

TEST_F(BadInput, IllegalOutOfTurnStaleAndReplayedMoves) {
  ASSERT_EQ(board_.toMove, "S");
  const std::string before = stateText();
  b_.send({{"type", "move"}, {"game", game_}, {"id", "x1"}, {"house", 1}});
  expectError(b_, "not_your_turn");
  EXPECT_EQ(stateText(), before);
  // House 1 of kalah,houses=4 holds 4 seeds and its last one falls in South's store: South moves
  // again, so every check below is made by the player to move.
  const long long n = playMove(a_, {&b_}, game_, 1, "again", board_);
  ASSERT_GT(n, 0);
  ASSERT_EQ(board_.toMove, "S") << "house 1 gives South another turn";
  const std::string mid = stateText();
  // A replayed id is refused, naming the event it was played in, though its move would be legal.
  a_.send({{"type", "move"}, {"game", game_}, {"id", "again"}, {"house", board_.legal[0]}});
  auto replayed = expectError(a_, "stale");
  EXPECT_EQ(replayed["id"], "again");
  ASSERT_TRUE(replayed["n"].is_number_integer()) << replayed.dump();
  EXPECT_EQ(replayed["n"].get<long long>(), n);
  EXPECT_EQ(stateText(), mid);
  // The emptied house cannot be sown.
  a_.send({{"type", "move"}, {"game", game_}, {"id", "a2"}, {"house", 1}});
  auto e = expectError(a_, "illegal_move");
  EXPECT_EQ(e["id"], "a2");
  EXPECT_NE(e["message"].get<std::string>().find("legal"), std::string::npos);
  EXPECT_EQ(stateText(), mid);
  // `after` older than the last move: the client has not seen the position it moves in.
  a_.send({{"type", "move"}, {"game", game_}, {"id", "late"}, {"house", board_.legal[0]}, {"after", 0}});
  expectError(a_, "stale");
  EXPECT_EQ(stateText(), mid);
  expectAlive(a_);
  expectAlive(b_);
}

TEST_F(BadInput, OversizedFramesAndRateLimit) {
  const std::string before = stateText();
  std::string big = R"({"type":"ping","t":")" + std::string(5000, 'x') + "\"}";
  a_.sendRaw(big);
  expectError(a_, "too_large");
  expectAlive(a_);
  // Far over the limit: the server closes the connection.
  a_.sendRaw(std::string(200 * 1024, ' '));
  EXPECT_FALSE(a_.until([](const Json&) { return false; }, 3000ms));
  EXPECT_TRUE(a_.closed());
  // A flood of messages: the rate limit refuses the excess.
  for (int i = 0; i < 120; ++i) b_.send({{"type", "ping"}, {"t", i}});
  int pongs = 0, limited = 0;
  while (pongs + limited < 120) {  // other messages (presence) may come between
    auto m = b_.next(3000ms);
    if (!m) break;
    if ((*m)["type"] == "pong") ++pongs;
    if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") ++limited;
  }
  EXPECT_GT(limited, 0);
  EXPECT_GT(pongs, 0);
  EXPECT_EQ(pongs + limited, 120);
  EXPECT_EQ(stateText(), before);
  // (Each instance of a cluster counts its own: HAProxy may ask one that limited nobody.)
  auto metrics = http(port(), "GET", "/metrics").body;
  if (!onCluster()) {
    EXPECT_EQ(metrics.find("semis_rate_limited_total 0\n"), std::string::npos);
  }
}

TEST_F(BadInput, ResignDrawAndRematchRules) {
  WsClient c;
  ASSERT_TRUE(c.connect(port()));
  joinGame(c, game_);
  c.send({{"type", "resign"}, {"game", game_}});
  expectError(c, "not_a_player");
  a_.send({{"type", "accept_draw"}, {"game", game_}});
  expectError(a_, "stale");
  a_.send({{"type", "rematch"}, {"game", game_}});
  expectError(a_, "bad_message");
  a_.send({{"type", "offer_draw"}, {"game", game_}});
  ASSERT_TRUE(b_.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "draw_offered"; }));
  a_.send({{"type", "accept_draw"}, {"game", game_}});
  expectError(a_, "not_your_turn");  // one's own offer
  b_.send({{"type", "accept_draw"}, {"game", game_}});
  auto over = a_.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; });
  ASSERT_TRUE(over);
  EXPECT_EQ((*over)["event"]["result"]["winner"], "draw");
  EXPECT_EQ((*over)["event"]["result"]["reason"], "agreement");
  a_.send({{"type", "move"}, {"game", game_}, {"id", "z"}, {"house", 1}});
  expectError(a_, "game_over");
  // Rematch: both ask; the new game has the sides swapped.
  a_.send({{"type", "rematch"}, {"game", game_}});
  b_.send({{"type", "rematch"}, {"game", game_}});
  auto rm = a_.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "rematch"; });
  ASSERT_TRUE(rm);
  const std::string fresh = (*rm)["event"]["new_game"];
  auto st = Json::parse(http(port(), "GET", "/api/games/" + fresh, "", ca_).body);
  EXPECT_EQ(st["you"], "N");
  EXPECT_EQ(st["status"], "playing");
  // Resign in the rematch: the other side wins.
  EXPECT_EQ(joinGame(a_, fresh)["you"], "N");
  a_.send({{"type", "resign"}, {"game", fresh}});
  auto res = a_.until([](const Json& m) {
    return m["type"] == "error" || (m["type"] == "event" && m["event"]["kind"] == "game_over");
  });
  ASSERT_TRUE(res);
  EXPECT_EQ((*res)["type"], "event") << res->dump();
  EXPECT_EQ((*res)["event"]["result"]["winner"], "S");
  EXPECT_EQ((*res)["event"]["result"]["reason"], "resign");
}

TEST(Limits, IdleConnectionsAreClosed) {
  ServerProcess server({"--idle-seconds", "2"});
  ASSERT_TRUE(server.start()) << server.logs();
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port()));
  auto e = ws.untilType("error", 6000ms);
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["code"], "idle");
  EXPECT_FALSE(ws.next(3000ms));
  EXPECT_TRUE(ws.closed());
}

TEST(Games, AlManqalaSplitLocalGameAndMangalaMatch) {
  ServerProcess server({"--rate", "10000"});  // the test plays faster than any person
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string me = newCookie(port);
  WsClient ws;
  ASSERT_TRUE(ws.connect(port, me));
  // A local game: one client plays both sides.
  const std::string local = createGame(port, me, {{"rules", "al-manqala"}, {"mode", "local"}});
  Json st = joinGame(ws, local);
  EXPECT_EQ(st["you"], "both");
  Board board = fromState(st);
  std::mt19937 rng(9);
  for (int i = 0; i < 4 && !board.over; ++i)
    ASSERT_GT(playMove(ws, {}, local, pickHouse(board.legal, rng), i, board), 0);
  ws.send({{"type", "offer_split"}, {"game", local}});
  ws.send({{"type", "accept_split"}, {"game", local}});
  auto split = ws.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "split"; });
  ASSERT_TRUE(split) << "the agreed split";
  // Mangala: a match of 5 sets against the AI, played set after set.
  const std::string match = createGame(port, me, {{"rules", "mangala"}, {"mode", "ai"}, {"level", "easy"}});
  st = joinGame(ws, match);
  EXPECT_EQ(st["sets"], 5);
  board = fromState(st);
  int sets = 0;
  int nextId = 1;
  bool waiting = false;
  while (!board.over) {
    if (!waiting && board.toMove == st["you"]) {
      ws.send({{"type", "move"}, {"game", match}, {"id", nextId++}, {"house", pickHouse(board.legal, rng)}});
      waiting = true;
    }
    auto m = ws.next(5000ms);
    ASSERT_TRUE(m);
    if ((*m)["type"] == "ack") waiting = false;
    ASSERT_NE((*m)["type"], "error") << m->dump();
    if ((*m)["type"] == "event") {
      applyEvent(board, *m);
      if ((*m)["event"]["kind"] == "set_over") ++sets;
    }
  }
  EXPECT_GE(sets, 3);
  EXPECT_LE(sets, 5);
  const double total = board.result["points"][0].get<double>() + board.result["points"][1].get<double>();
  EXPECT_EQ(total, sets);
}

TEST(Games, ClockRunsForTheSideToMove) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game =
      createGame(port, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"clock", {{"minutes", 1}, {"increment", 60}}}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  std::this_thread::sleep_for(300ms);
  auto st = Json::parse(http(port, "GET", "/api/games/" + game, "", ca).body);
  EXPECT_LT(st["clock"]["S"].get<long long>(), 60000);
  EXPECT_EQ(st["clock"]["N"].get<long long>(), 60000);
  EXPECT_TRUE(st["clock"]["running"].get<bool>());
  a.send({{"type", "move"}, {"game", game}, {"id", 1}, {"house", 1}});  // kalah house 1: no extra turn
  auto ev = a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "move"; });
  ASSERT_TRUE(ev);
  const Json clock = (*ev)["event"]["clock"];
  // The increment (60 s, more than the turn can have taken) was added once the turn passed: without
  // it South would have less than the minute it started with.
  EXPECT_GT(clock["S"].get<long long>(), 60000);
  EXPECT_LE(clock["S"].get<long long>(), 120000);
  EXPECT_EQ(clock["N"].get<long long>(), 60000);
}

}  // namespace
}  // namespace semis::test

namespace semis::test {
namespace {

TEST(Games, AFlagFallsAndTheOtherSideWins) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"clock", {{"seconds", 1}}}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  joinGame(b, game);
  // (In a cluster a presence without him may come first: his seat is known before his connection.)
  auto presence = a.until([](const Json& m) { return m["type"] == "presence" && m["seats"]["N"]["connected"] == true; });
  ASSERT_TRUE(presence) << "the opponent's arrival";
  auto over = a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; }, 4000ms);
  ASSERT_TRUE(over) << "South's flag fell";
  EXPECT_EQ((*over)["event"]["result"]["winner"], "N");
  EXPECT_EQ((*over)["event"]["result"]["reason"], "time");
  b.close();
  auto left = a.until([](const Json& m) { return m["type"] == "presence" && m["seats"]["N"]["connected"] == false; });
  ASSERT_TRUE(left) << "the opponent's departure";
}

}  // namespace
}  // namespace semis::test

namespace semis::test {
namespace {

TEST(Games, ThePieRuleSwapsThePlayers) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "kalah,pie=true"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  b.send({{"type", "swap"}, {"game", game}});
  EXPECT_EQ(b.untilType("error").value_or(Json())["code"], "illegal_move") << "not before South's first turn";
  ASSERT_GT(playMove(a, {&b}, game, 1, "s1", board), 0);  // house 1 of 6: no extra turn
  ASSERT_EQ(board.toMove, "N");
  a.send({{"type", "swap"}, {"game", game}});
  EXPECT_EQ(a.untilType("error").value_or(Json())["code"], "illegal_move") << "only North may swap";
  b.send({{"type", "swap"}, {"game", game}});
  auto swapped = a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "swapped"; });
  ASSERT_TRUE(swapped);
  // The first mover now plays North, and is to move.
  auto st = stateAtLeast(port, game, ca, (*swapped)["n"].get<long long>());
  EXPECT_EQ(st["you"], "N");
  EXPECT_EQ(st["position"]["to_move"], "N");
  EXPECT_FALSE(st["can_swap"].get<bool>());
  EXPECT_EQ(stateAtLeast(port, game, cb, (*swapped)["n"].get<long long>())["you"], "S");
  a.send({{"type", "move"}, {"game", game}, {"id", "after-swap"}, {"house", st["legal"][0]}});
  auto ack = a.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; });
  ASSERT_TRUE(ack);
  EXPECT_EQ((*ack)["type"], "ack") << ack->dump();
}

}  // namespace
}  // namespace semis::test
