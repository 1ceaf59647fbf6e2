// Regressions from the attack run (tools/attack): bad input of every shape on every message type,
// odd HTTP, the close after too many refused messages, names that hide themselves, and hints from
// one address that could starve everyone's AI. Each test is bounded in count, not in time.

#include <gtest/gtest.h>

#include <thread>

#include "Play.hpp"

namespace semis::test {

namespace {

std::string stateOf(unsigned short port, const std::string& game) {
  auto st = Json::parse(http(port, "GET", "/api/games/" + game).body, nullptr, false);
  if (!st.is_object()) return "unreadable";
  return Json{st["position"], st["plies"], st["status"], st["last_event"], st["draw_offer"], st["seats"]["S"]["id"],
              st["seats"]["N"]["id"]}
      .dump();
}

// Sends `batch`, then a ping: true when the pong comes (the connection lived through the batch).
// Every answer is collected in `answers`.
bool sendBatch(unsigned short port, const std::string& cookie, const std::vector<std::string>& batch,
               std::vector<Json>& answers) {
  WsClient ws;
  if (!ws.connect(port, cookie)) return false;
  for (const std::string& text : batch) ws.sendRaw(text);
  ws.send({{"type", "ping"}, {"t", "end"}});
  auto pong = ws.until([](const Json& m) { return m["type"] == "pong" && m["t"] == "end"; }, 10000ms);
  for (const Json& m : ws.skipped()) answers.push_back(m);
  return pong.has_value();
}

}  // namespace

// Every message type with every field of the wrong type, out of range, or strange: each is answered,
// none with `internal`, the connection lives, and the game does not change. The strangers' messages
// carry a valid game id (they reach the hub); the players' carry only bad moves.
TEST(Soak, EveryMessageTypeWithBadFieldsIsAnsweredAndChangesNothing) {
  ServerProcess server;
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  const std::string ca = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca));
  ASSERT_TRUE(b.connect(port));
  joinGame(a, game);
  joinGame(b, game);
  // Both seats taken, as every instance of a cluster has it (their copies follow a moment later).
  std::string before;
  ASSERT_TRUE(eventually([&] {
    before = stateOf(port, game);
    for (int i = 0; i < 3; ++i) {
      if (stateOf(port, game) != before) return false;
    }
    return before.find("\"playing\"") != std::string::npos;
  }));

  const std::vector<std::string> types = {"join",         "leave",       "move",          "create",        "resign",
                                          "offer_draw",   "accept_draw", "decline_draw", "offer_split",  "swap",
                                          "rematch",      "ping",        "hello",        "hint",          "HINT",
                                          "__proto__",    ""};
  const std::vector<std::string> fields = {"game", "id", "house", "after", "last_event", "t", "rules", "clock"};
  const std::vector<std::string> values = {"null",
                                           "true",
                                           "-1",
                                           "1.5",
                                           "1e308",
                                           "9223372036854775808",
                                           "18446744073709551616",
                                           "-9223372036854775809",
                                           "\"\\u0000\"",
                                           "\"\\u202e\\ud83d\\ude00\"",
                                           "[]",
                                           "{\"minutes\":1e300,\"increment\":-1}",
                                           "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
                                           "\"" + std::string(300, 'x') + "\""};
  std::vector<std::string> stranger;
  for (const auto& type : types) {
    for (const auto& field : fields) {
      for (const auto& value : values) {
        // The field last, so it wins over the base's own (duplicate keys are part of the attack).
        stranger.push_back(R"({"type":")" + type + R"(","game":")" + game + R"(","id":"x","house":1,")" + field +
                           "\":" + value + "}");
      }
    }
  }
  stranger.push_back(R"({"type":"move","type":"join","game":")" + game + "\"}");
  stranger.push_back(std::string(1900, '[') + std::string(1900, ']'));
  stranger.push_back(R"({"type":"ping","t":1e999})");
  // The player to move, with moves no field of which is right.
  std::vector<std::string> player;
  for (const auto& value : values) {
    player.push_back(R"({"type":"move","game":")" + game + R"(","id":"m","house":)" + value + "}");
    // (any integer, and any string of 1..64 characters, NUL or not, is a valid move id)
    if (value != "-1" && value != "9223372036854775808" && value.front() != '"')
      player.push_back(R"({"type":"move","game":")" + game + R"(","house":1,"id":)" + value + "}");
    // (a null `after` is an absent one: that move would be legal)
    if (value != "null") player.push_back(R"({"type":"move","game":")" + game + R"(","id":"m","house":1,"after":)" + value + "}");
  }
  player.push_back(R"({"type":"move","game":")" + game + R"(","house":1,"id":")" + std::string(65, 'i') + "\"}");

  std::vector<Json> answers;
  const std::string strangerCookie = newCookie(port);
  for (std::size_t i = 0; i < stranger.size(); i += 50) {
    std::vector<std::string> batch(stranger.begin() + static_cast<long>(i),
                                   stranger.begin() + static_cast<long>(std::min(stranger.size(), i + 50)));
    ASSERT_TRUE(sendBatch(port, strangerCookie, batch, answers)) << "the connection died in batch " << i / 50;
  }
  // Moves with a bad field: one of them may be answered `stale` (an `after` the server has not
  // reached is not an error of type), none may play.
  for (std::size_t i = 0; i < player.size(); i += 50) {
    std::vector<std::string> batch(player.begin() + static_cast<long>(i),
                                   player.begin() + static_cast<long>(std::min(player.size(), i + 50)));
    ASSERT_TRUE(sendBatch(port, ca, batch, answers));
  }
  int errors = 0;
  for (const Json& m : answers) {
    EXPECT_NE(m.value("type", ""), "") << "an answer that is not a message: " << m.dump();
    if (m["type"] == "error") {
      ++errors;
      EXPECT_NE(m["code"], "internal") << m.dump();
    }
    EXPECT_NE(m["type"], "ack") << "a bad move was played: " << m.dump();
  }
  EXPECT_GT(errors, static_cast<int>(stranger.size()) / 2);
  EXPECT_EQ(stateOf(port, game), before);
  // The players are still served.
  a.send({{"type", "ping"}, {"t", 7}});
  EXPECT_TRUE(a.untilType("pong"));
  EXPECT_TRUE(server.running());
}

// Odd requests, each answered with a clear status or a closed connection, never 500; pipelined
// requests are all answered, in order.
TEST(Soak, OddHttpRequestsGetClearAnswers) {
  if (onCluster()) GTEST_SKIP() << "cluster: HAProxy parses these requests first and answers for itself";
  ServerProcess server;
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  const std::string host = "Host: 127.0.0.1\r\nConnection: close\r\n";
  auto post = [&](const std::string& target, const std::string& body) {
    return "POST " + target + " HTTP/1.1\r\n" + host + "Content-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  const std::vector<std::string> requests = {
      "FOO / HTTP/1.1\r\n" + host + "\r\n",
      "TRACE / HTTP/1.1\r\n" + host + "\r\n",
      "OPTIONS * HTTP/1.1\r\n" + host + "\r\n",
      "CONNECT 127.0.0.1:80 HTTP/1.1\r\n" + host + "\r\n",
      "GET http://127.0.0.1/api/me HTTP/1.1\r\n" + host + "\r\n",
      "GET /%00 HTTP/1.1\r\n" + host + "\r\n",
      "GET /api/games/%2e%2e HTTP/1.1\r\n" + host + "\r\n",
      "GET / HTTP/2.0\r\n" + host + "\r\n",
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
      "GET /healthz HTTP/1.1\r\n" + host + "X-A: a\x01" + "b\r\n\r\n",
      "GET /healthz HTTP/1.1\r\n" + host + "X-Big: " + std::string(9000, 'b') + "\r\n\r\n",
      "POST /api/games HTTP/1.1\r\n" + host + "Content-Length: -1\r\n\r\n",
      "POST /api/games HTTP/1.1\r\n" + host + "Content-Length: 99999999999999999999\r\n\r\n",
      "POST /api/games HTTP/1.1\r\n" + host + "Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}",
      "POST /api/games HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n{}\r\n0\r\n\r\n",
      "POST /api/games HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n" +
          [] {
            std::string s;
            for (int i = 0; i < 20; ++i) s += "400\r\n" + std::string(1024, ' ') + "\r\n";
            return s + "0\r\n\r\n";
          }(),
      post("/api/games", std::string(5000, '[') + std::string(5000, ']')),
      post("/api/games", R"({"rules":"kalah","clock":{"seconds":18446744073709551615}})"),
      post("/api/games", R"({"rules":"kalah,seeds=1000000000"})"),
      post("/api/games", R"({"rules":"kalah\u0000,houses=4"})"),
      post("/api/me", R"({"name":"\ud800"})"),
      post("/api/me", R"({"name":123})"),
  };
  int answered = 0;
  for (const std::string& r : requests) {
    const HttpReply reply = rawHttp(port, r);
    EXPECT_TRUE(reply.status == 0 || (reply.status >= 400 && reply.status < 500))
        << reply.status << " for " << r.substr(0, 60);
    if (reply.status != 0) ++answered;
  }
  EXPECT_GT(answered, static_cast<int>(requests.size()) / 2);
  // 50 pipelined requests in one write, the last closing the connection: 50 answers.
  std::string pipelined;
  for (int i = 0; i < 49; ++i) pipelined += "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  pipelined += "GET /healthz HTTP/1.1\r\n" + host + "\r\n";
  WsClient probe;  // the server lives and serves sockets too
  const HttpReply first = rawHttp(port, pipelined);
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(http(port, "GET", "/healthz").status, 200);
  EXPECT_TRUE(probe.connect(port));
  auto metrics = http(port, "GET", "/metrics").body;
  EXPECT_NE(metrics.find("semis_http_requests_total"), std::string::npos);
  EXPECT_TRUE(server.running());
}

// More than 100 refused messages close the connection with 1008 (policy), whatever was being
// written when the 101st came (it used to close with 1001 when a write was in flight).
TEST(Soak, TooManyRefusedMessagesCloseWithThePolicyCode) {
  ServerProcess server;
  ASSERT_TRUE(server.start());
  WsClient ws;
  ASSERT_TRUE(ws.connect(server.port()));
  for (int i = 0; i < 150; ++i) ws.sendRaw(R"({"type":"no_such_type"})");
  int refused = 0;
  while (auto m = ws.next(5000ms)) {
    if ((*m)["type"] == "error") ++refused;
  }
  EXPECT_TRUE(ws.closed());
  EXPECT_EQ(refused, 101);
  EXPECT_EQ(ws.closeCode(), 1008);
  WsClient other;
  EXPECT_TRUE(other.connect(server.port()));
}

// A name is 1..24 characters (not bytes), and none of them hidden: no blank name, no
// zero-width or bidirectional-override characters, no leading or trailing space.
TEST(Soak, NamesCountCharactersAndRefuseHiddenOnes) {
  if (onCluster()) GTEST_SKIP() << "cluster: a name changed on one instance is not seen at once by the others (docs/scaling.md, limits)";
  ServerProcess server;
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  const std::string cookie = newCookie(port);
  auto rename = [&](const std::string& jsonName) {
    return http(port, "POST", "/api/me", R"({"name":)" + jsonName + "}", cookie);
  };
  std::string e24, e25, smile24;
  for (int i = 0; i < 24; ++i) e24 += "\\u00e9", smile24 += "\\ud83d\\ude00";
  e25 = e24 + "\\u00e9";
  auto ok = rename("\"" + e24 + "\"");
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(Json::parse(ok.body)["name"], Json::parse("\"" + e24 + "\""));
  EXPECT_EQ(rename("\"" + smile24 + "\"").status, 200);
  EXPECT_EQ(rename(R"("Ann Lee")").status, 200);
  for (const std::string& bad : {"\"" + e25 + "\"", std::string(R"(" ")"), std::string(R"(" Ann")"),
                                 std::string(R"("Ann\u00a0")"), std::string(R"("\u202eAnn")"),
                                 std::string(R"("A\u200bB")"), std::string(R"("\u2066x")"),
                                 std::string(R"("\u0085")"), std::string(R"("\ufeff")")}) {
    auto r = rename(bad);
    EXPECT_EQ(r.status, 400) << bad << " -> " << r.body;
  }
  EXPECT_EQ(Json::parse(http(port, "GET", "/api/me", "", cookie).body)["name"], "Ann Lee");
}

// Hints are bounded per address: twelve guests of one address, each asking one hint at once, get
// at most 8 into the AI pool (the others `busy`), so one address cannot fill the pool with many
// cookies and starve everyone's AI. Another address is still served. (8 AI threads: the pool's
// backlog bound for hints, twice the threads, is then above the address's 8.)
TEST(Soak, HintsFromOneAddressShareItsBound) {
  ServerProcess server({"--ai-threads", "8"});
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  constexpr int kGuests = 12;
  std::vector<std::unique_ptr<WsClient>> guests;
  std::vector<std::string> games;
  for (int i = 0; i < kGuests; ++i) {
    const std::string cookie = newCookie(port);
    games.push_back(createGame(port, cookie, {{"rules", "kalah"}, {"mode", "ai"}, {"side", "S"}}));
    guests.push_back(std::make_unique<WsClient>());
    ASSERT_TRUE(guests.back()->connect(port, cookie));
    ASSERT_TRUE(joinGame(*guests.back(), games.back()).is_object());
  }
  for (int i = 0; i < kGuests; ++i) guests[i]->send({{"type", "hint"}, {"game", games[i]}});
  int hints = 0, busy = 0;
  for (auto& g : guests) {
    auto m = g->until([](const Json& x) { return x["type"] == "hint" || x["type"] == "error"; }, 30000ms);
    ASSERT_TRUE(m.has_value());
    if ((*m)["type"] == "hint") ++hints;
    if ((*m)["type"] == "error" && (*m)["code"] == "busy") ++busy;
  }
  EXPECT_LE(hints, 8);
  EXPECT_GE(busy, kGuests - 8);
  // Another address has its own share.
  const std::string other = httpFrom("127.0.0.2", port, "GET", "/api/me").setCookie;
  const std::string game = createGame(port, other, {{"rules", "kalah"}, {"mode", "ai"}, {"side", "S"}});
  WsClient ws;
  ws.setLocalAddress("127.0.0.2");
  ASSERT_TRUE(ws.connect(port, other));
  joinGame(ws, game);
  ws.send({{"type", "hint"}, {"game", game}});
  auto m = ws.until([](const Json& x) { return x["type"] == "hint" || x["type"] == "error"; }, 30000ms);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ((*m)["type"], "hint") << m->dump();
}

// AI turns come before hints: with one AI thread and hints from many addresses, at most a small
// backlog of hints is taken (twice the threads waiting), the rest are `busy`; a player asking again
// after `busy` is served once the backlog is gone (bounded retries).
TEST(Soak, HintsFromManyAddressesLeaveTheAiPoolALowBacklog) {
  ServerProcess server({"--ai-threads", "1"});
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  constexpr int kGuests = 10;
  std::vector<std::unique_ptr<WsClient>> guests;
  std::vector<std::string> games;
  for (int i = 0; i < kGuests; ++i) {
    const std::string address = "127.0.1." + std::to_string(i + 1);
    const std::string cookie = httpFrom(address, port, "GET", "/api/me").setCookie;
    games.push_back(createGame(port, cookie, {{"rules", "kalah"}, {"mode", "ai"}, {"side", "S"}}));
    guests.push_back(std::make_unique<WsClient>());
    guests.back()->setLocalAddress(address);
    ASSERT_TRUE(guests.back()->connect(port, cookie));
    ASSERT_TRUE(joinGame(*guests.back(), games.back()).is_object());
  }
  for (int i = 0; i < kGuests; ++i) guests[i]->send({{"type", "hint"}, {"game", games[i]}});
  int hints = 0;
  for (auto& g : guests) {
    auto m = g->until([](const Json& x) { return x["type"] == "hint" || x["type"] == "error"; }, 30000ms);
    ASSERT_TRUE(m.has_value());
    if ((*m)["type"] == "hint") ++hints;
  }
  EXPECT_LE(hints, 3) << "one running and two waiting, at most";
  bool served = false;
  for (int attempt = 0; attempt < 40 && !served; ++attempt) {
    guests.back()->send({{"type", "hint"}, {"game", games.back()}});
    auto m = guests.back()->until([](const Json& x) { return x["type"] == "hint" || x["type"] == "error"; }, 30000ms);
    ASSERT_TRUE(m.has_value());
    served = (*m)["type"] == "hint";
    if (!served) std::this_thread::sleep_for(500ms);  // a pause before asking again
  }
  EXPECT_TRUE(served);
}

}  // namespace semis::test

namespace semis::test {

// A reader that stops reading while asking for a long game's full state again and again is dropped
// once a MiB waits for it, not only at 1024 messages: 1000 states of ~7 KiB (under 1024 messages,
// over 6 MiB) used to be kept for it, and an address may hold 128 such sockets.
TEST(Soak, AStalledReaderOfBigStatesIsDroppedByBytes) {
  ServerProcess server({"--rate", "10000"});
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  const std::string cookie = newCookie(port);
  const std::string game = createGame(port, cookie, {{"rules", "mangala"}, {"mode", "local"}});
  WsClient me;
  ASSERT_TRUE(me.connect(port, cookie));
  Board board = fromState(joinGame(me, game));
  std::mt19937 rng(7);
  for (int k = 0; k < 220 && !board.over && !board.toMove.empty(); ++k) {
    ASSERT_GT(playMove(me, {}, game, pickHouse(board.legal, rng), k, board), 0);
  }
  const std::size_t stateBytes = http(port, "GET", "/api/games/" + game).body.size();
  ASSERT_GT(stateBytes, 6000U) << "a long game's state";
  WsClient slow;
  slow.setReceiveBuffer(4096);
  ASSERT_TRUE(slow.connect(port));
  ASSERT_TRUE(slow.untilType("hello"));
  constexpr int kJoins = 1000;  // under the 1024 messages; over 6 MiB, past what the kernel buffers
  const std::string join = Json{{"type", "join"}, {"game", game}}.dump();
  for (int i = 0; i < kJoins && !slow.closed(); ++i) slow.sendRaw(join);
  int states = 0;
  for (int i = 0; i < kJoins + 10; ++i) {
    auto m = slow.next(3000ms);
    if (!m) break;
    if ((*m)["type"] == "state") ++states;
  }
  EXPECT_TRUE(slow.closed()) << states << " states of " << stateBytes << " bytes were all kept for a stalled reader";
  EXPECT_LT(states, kJoins);
  EXPECT_NE(server.logs().find("slow_client"), std::string::npos);
  // The player is still served.
  me.send({{"type", "ping"}, {"t", 1}});
  EXPECT_TRUE(me.untilType("pong"));
}

}  // namespace semis::test
