// Black-box tests of `semis serve`: real binary, real sockets, real SQLite file.

#include <gtest/gtest.h>

#include "Play.hpp"

namespace semis::test {
namespace {

// Plays `me`'s side with random legal moves against the server's AI until the game is over.
// Returns the number of moves this client played.
int playAgainstAi(WsClient& ws, const std::string& game, const std::string& me, Board& board, std::mt19937& rng,
                  int maxMoves = 1000) {
  int played = 0;
  int nextId = 1;
  bool waitingAck = false;
  while (!board.over && played < maxMoves) {
    if (!waitingAck && board.toMove == me) {
      ws.send({{"type", "move"},
               {"game", game},
               {"id", "m" + std::to_string(nextId++)},
               {"house", pickHouse(board.legal, rng)}});
      waitingAck = true;
    }
    auto m = ws.next(5000ms);
    if (!m) {
      ADD_FAILURE() << "no message while playing";
      break;
    }
    if ((*m)["type"] == "event") applyEvent(board, *m);
    if ((*m)["type"] == "ack") {
      waitingAck = false;
      ++played;
    }
    if ((*m)["type"] == "error") {
      ADD_FAILURE() << m->dump();
      break;
    }
  }
  return played;
}

TEST(Server, HttpApiIdentityAndStaticFiles) {
  ServerProcess server;
  // --web: a directory with the client's files.
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  EXPECT_EQ(http(port, "GET", "/healthz").body, R"({"ok":true})");
  auto me = http(port, "GET", "/api/me");
  ASSERT_EQ(me.status, 200);
  ASSERT_EQ(me.setCookie.rfind("semis_token=", 0), 0U);
  auto again = http(port, "GET", "/api/me", "", me.setCookie);
  EXPECT_EQ(Json::parse(again.body)["id"], Json::parse(me.body)["id"]) << "the cookie is the identity";
  EXPECT_TRUE(again.setCookie.empty());
  auto renamed = http(port, "POST", "/api/me", R"({"name":"Ada"})", me.setCookie);
  EXPECT_EQ(Json::parse(renamed.body)["name"], "Ada");
  EXPECT_EQ(http(port, "POST", "/api/me", R"({"name":""})", me.setCookie).status, 400);
  EXPECT_EQ(http(port, "POST", "/api/me", R"({"name":"0123456789012345678901234"})", me.setCookie).status, 400);
  EXPECT_EQ(Json::parse(http(port, "GET", "/api/me", "", me.setCookie).body)["name"], "Ada");

  auto bad = http(port, "POST", "/api/games", R"({"rules":"chess"})", me.setCookie);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Json::parse(bad.body)["error"]["code"], "bad_message");
  EXPECT_EQ(http(port, "POST", "/api/games", "{not json", me.setCookie).status, 400);
  EXPECT_EQ(http(port, "GET", "/api/games/nope").status, 404);
  EXPECT_EQ(http(port, "GET", "/api/games/../../etc").status, 404);

  const auto id = createGame(port, me.setCookie, {{"rules", "kalah,houses=4"}, {"mode", "friend"}});
  ASSERT_FALSE(id.empty());
  auto state = Json::parse(http(port, "GET", "/api/games/" + id, "", me.setCookie).body);
  EXPECT_EQ(state["you"], "S");
  EXPECT_EQ(state["status"], "waiting");
  EXPECT_EQ(state["position"]["houses"].size(), 8U);
  EXPECT_EQ(Json::parse(http(port, "GET", "/api/games?live=1").body)["games"].size(), 0U)
      << "a friend game waiting for the friend is in no list";
  const auto ai = createGame(port, me.setCookie, {{"rules", "kalah"}, {"mode", "ai"}});
  // Listed while its player is there: a game its players have left has nothing to watch.
  {
    WsClient player;
    ASSERT_TRUE(player.connect(port, me.setCookie));
    joinGame(player, ai);
    // A cluster writes the shared list after answering: the other instances list it a moment later.
    Json live;
    eventually([&] {
      live = Json::parse(http(port, "GET", "/api/games?live=1").body);
      return !live["games"].empty();
    });
    ASSERT_EQ(live["games"].size(), 1U);
    EXPECT_EQ(live["games"][0]["id"], ai);
    EXPECT_EQ(live["games"][0]["seats"]["S"]["connected"], true);
    player.close();
  }
  EXPECT_TRUE(eventually([&] { return Json::parse(http(port, "GET", "/api/games?live=1").body)["games"].empty(); }))
      << "left by its player, it leaves the list";
  auto rules = Json::parse(http(port, "GET", "/api/rules").body);
  EXPECT_EQ(rules["presets"].size(), 7U);

  auto metrics = http(port, "GET", "/metrics");
  EXPECT_NE(metrics.contentType.find("text/plain"), std::string::npos);
  // (Each instance of a cluster counts its own.)
  if (!onCluster()) {
    EXPECT_NE(metrics.body.find("semis_games_created_total 2"), std::string::npos) << metrics.body;
  }
  EXPECT_NE(metrics.body.find("# TYPE semis_moves_total counter"), std::string::npos);
  // The placeholder page without --web; unknown files are 404.
  EXPECT_EQ(http(port, "GET", "/").status, 200);
  EXPECT_EQ(http(port, "GET", "/nothing.js").status, 404);
  // Structured logs: every line of stderr is a JSON object.
  EXPECT_EQ(server.terminate(), 0);
  std::istringstream lines(server.logs());
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    auto j = Json::parse(line, nullptr, false);
    EXPECT_TRUE(j.is_object() && j.contains("event") && j.contains("ts")) << line;
    ++count;
  }
  EXPECT_GE(count, 3);
}

TEST(Server, ServesTheWebClient) {
  ServerProcess probe;
  const std::string web = probe.dir() + "/web";
  ASSERT_EQ(std::system(("mkdir -p '" + web + "/assets' && printf '<html>semis-app</html>' > '" + web +
                         "/index.html' && printf 'let x=1;' > '" + web + "/assets/app.js'")
                            .c_str()),
            0);
  ServerProcess server({"--web", web});
  ASSERT_TRUE(server.start()) << server.logs();
  EXPECT_EQ(http(server.port(), "GET", "/").body, "<html>semis-app</html>");
  EXPECT_EQ(http(server.port(), "GET", "/g/abc123").body, "<html>semis-app</html>");
  auto js = http(server.port(), "GET", "/assets/app.js");
  EXPECT_EQ(js.body, "let x=1;");
  EXPECT_NE(js.contentType.find("javascript"), std::string::npos);
  EXPECT_EQ(http(server.port(), "GET", "/assets/../../etc/passwd").status, 400);
}

TEST(Server, FullGameAgainstTheAi) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port()));
  auto hello = ws.untilType("hello");
  ASSERT_TRUE(hello);
  ws.send({{"type", "create"}, {"rules", "kalah"}, {"mode", "ai"}, {"level", "easy"}, {"side", "N"}});
  auto created = ws.untilType("created");
  ASSERT_TRUE(created) << "no created";
  const std::string game = (*created)["id"];
  EXPECT_EQ((*created)["seat"], "N");
  const Json state = joinGame(ws, game);
  EXPECT_EQ(state["you"], "N");
  EXPECT_EQ(state["seats"]["S"]["kind"], "ai");
  Board board = fromState(state);
  std::mt19937 rng(7);
  const int mine = playAgainstAi(ws, game, "N", board, rng);
  EXPECT_TRUE(board.over);
  EXPECT_GT(mine, 0);
  ASSERT_TRUE(board.result.is_object());
  EXPECT_TRUE(board.result["winner"] == "S" || board.result["winner"] == "N" || board.result["winner"] == "draw");
  auto final = Json::parse(http(server.port(), "GET", "/api/games/" + game, "", ws.cookie()).body);
  EXPECT_EQ(final["status"], "over");
  EXPECT_GT(final["plies"].size(), static_cast<std::size_t>(mine)) << "the AI moved too";
  auto record = http(server.port(), "GET", "/api/games/" + game + "/record");
  EXPECT_NE(record.body.find("[Rules \"kalah\"]"), std::string::npos) << record.body;
  auto metrics = http(server.port(), "GET", "/metrics").body;
  EXPECT_EQ(metrics.find("semis_ai_moves_total 0\n"), std::string::npos);
  // A finished game is not resumed at start, but it is still there when asked for.
  EXPECT_EQ(server.terminate(), 0);
  ASSERT_TRUE(server.start()) << server.logs();
  auto again = Json::parse(http(server.port(), "GET", "/api/games/" + game, "", ws.cookie()).body);
  EXPECT_EQ(again["status"], "over");
  EXPECT_EQ(again["result"], final["result"]);
  EXPECT_EQ(again["plies"], final["plies"]);
  EXPECT_EQ(again["last_event"], final["last_event"]);
}

TEST(Server, TwoPlayersAndASpectator) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port), cc = newCookie(port);
  const std::string game =
      createGame(port, ca, {{"rules", "kalah,houses=4,seeds=3"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b, c;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb) && c.connect(port, cc));
  EXPECT_EQ(joinGame(a, game)["status"], "waiting");
  const Json sb = joinGame(b, game);  // the first visitor takes the free seat
  EXPECT_EQ(sb["you"], "N");
  EXPECT_EQ(sb["status"], "playing");
  const Json sc = joinGame(c, game);  // later visitors watch
  EXPECT_EQ(sc["you"], "spectator");
  ASSERT_TRUE(a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "joined"; }));
  // A spectator can never move.
  c.send({{"type", "move"}, {"game", game}, {"id", 1}, {"house", 1}});
  auto refused = c.untilType("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["code"], "not_a_player");

  Board board = fromState(sb);
  std::mt19937 rng(11);
  int moves = 0;
  std::vector<long long> acks;
  while (!board.over && moves < 500) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    const long long n = playMove(mover, {&other, &c}, game, pickHouse(board.legal, rng), moves + 1, board);
    ASSERT_GT(n, 0);
    acks.push_back(n);
    ++moves;
  }
  EXPECT_TRUE(board.over);
  for (std::size_t i = 1; i < acks.size(); ++i) EXPECT_GT(acks[i], acks[i - 1]);
  // The spectator saw every event: its numbers are consecutive from the joined event on.
  long long prev = 0;
  for (const Json& m : c.skipped()) {
    if (m["type"] != "event") continue;
    if (prev != 0) {
      EXPECT_EQ(m["n"].get<long long>(), prev + 1);
    }
    prev = m["n"].get<long long>();
    if (m["event"]["kind"] == "move") {
      EXPECT_TRUE(m["event"]["trace"].is_array() && !m["event"]["trace"].empty());
    }
  }
  EXPECT_GE(prev, acks.back() - 1);
  auto over = c.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; });
  ASSERT_TRUE(over) << "the spectator sees the end";
  EXPECT_EQ((*over)["event"]["result"], board.result);
}

TEST(Server, ReconnectGetsMissedEventsOrFullState) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port), cc = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "kalah"}, {"mode", "friend"}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  auto c = std::make_unique<WsClient>();
  ASSERT_TRUE(c->connect(port, cc));
  const long long seen = fromState(joinGame(*c, game)).lastEvent;
  c->close();  // the spectator drops out
  std::mt19937 rng(3);
  for (int i = 0; i < 5 && !board.over; ++i) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "r" + std::to_string(i), board), 0);
  }
  WsClient c2;
  ASSERT_TRUE(c2.connect(port, cc));
  c2.send({{"type", "join"}, {"game", game}, {"last_event", seen}});
  long long expect = seen + 1;
  auto caught = c2.until([&](const Json& m) {
    if (m["type"] == "event") {
      EXPECT_EQ(m["n"].get<long long>(), expect);
      ++expect;
    }
    EXPECT_NE(m["type"], "state") << "only the missed events";
    return m["type"] == "caught_up";
  });
  ASSERT_TRUE(caught);
  EXPECT_EQ((*caught)["last_event"].get<long long>(), board.lastEvent);
  EXPECT_EQ(expect - 1, board.lastEvent);
  // An event number from the future (another server's, say) gets the full state.
  WsClient c3;
  ASSERT_TRUE(c3.connect(port, cc));
  c3.send({{"type", "join"}, {"game", game}, {"last_event", 1000000}});
  auto st = c3.until([](const Json& m) { return m["type"] == "state" || m["type"] == "event"; });
  ASSERT_TRUE(st);
  EXPECT_EQ((*st)["type"], "state");
}

TEST(Server, KillNineAndRestartLosesNoAcknowledgedMove) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "mangala"}, {"mode", "friend"}});
  const std::string aiGame = createGame(port, ca, {{"rules", "kalah,houses=4"}, {"mode", "ai"}, {"level", "easy"}});
  std::mt19937 rng(5);
  int acked = 0;
  for (int round = 0; round < 3; ++round) {
    WsClient a, b;
    ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb)) << "round " << round;
    joinGame(a, game);
    const Json state = joinGame(b, game);
    ASSERT_EQ(static_cast<int>(state["plies"].size()), acked) << "every acknowledged move survived";
    Board board = fromState(state);
    for (int i = 0; i < 4 && !board.over; ++i) {
      WsClient& mover = board.toMove == "S" ? a : b;
      WsClient& other = board.toMove == "S" ? b : a;
      ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), "k" + std::to_string(acked), board), 0);
      ++acked;
    }
    // A move in flight as the server dies: either acknowledged (and kept) or not (and lost is allowed).
    server.kill9();
    ASSERT_TRUE(server.start()) << server.logs();
  }
  // A replayed move id from before the crash is still known.
  WsClient a;
  ASSERT_TRUE(a.connect(port, ca));
  const Json state = joinGame(a, game);
  EXPECT_EQ(static_cast<int>(state["plies"].size()), acked);
  a.send({{"type", "move"}, {"game", game}, {"id", "k0"}, {"house", 1}});
  auto stale = a.until([](const Json& m) { return m["type"] == "error"; });
  ASSERT_TRUE(stale);
  EXPECT_TRUE((*stale)["code"] == "stale" || (*stale)["code"] == "not_your_turn") << stale->dump();
  // The AI game resumes too: its AI seat moves after the restart.
  const Json ai = joinGame(a, aiGame);
  Board board = fromState(ai);
  const std::string me = ai["you"];
  const int mine = playAgainstAi(a, aiGame, me, board, rng);
  EXPECT_TRUE(board.over);
  EXPECT_GT(mine, 0);
}

TEST(Server, SigtermTellsPlayersAndExits) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port()));
  ASSERT_TRUE(ws.untilType("hello"));
  std::thread stopper([&] { EXPECT_EQ(server.terminate(), 0); });
  auto bye = ws.untilType("shutdown", 5000ms);
  stopper.join();
  ASSERT_TRUE(bye);
  EXPECT_GT((*bye)["retry_ms"].get<int>(), 0);
}

}  // namespace
}  // namespace semis::test
