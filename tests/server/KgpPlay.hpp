#pragma once
// Helpers for the bots' black-box tests (ServerKgp*Test.cpp): a member's bot made over HTTP, a bot
// signed in over KGP, a server with the KGP port, the record checked against `semis replay`.

#include <array>
#include <cstdio>
#include <functional>
#include <thread>

#include "ClubPlay.hpp"
#include "KgpClient.hpp"

namespace semis::test {

struct Bot {
  std::string id;
  std::string name;
  std::string token;
};

inline Bot makeBot(unsigned short port, const Member& owner, const std::string& stem) {
  Bot b;
  auto r = http(port, "POST", "/api/bots", Json{{"name", uniqueName(stem)}}.dump(), owner.cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  auto j = Json::parse(r.body, nullptr, false);
  if (j.is_object()) {
    b.id = j.value("id", "");
    b.name = j.value("name", "");
    b.token = j.value("token", "");
  }
  return b;
}

// Greets, signs in and asks for freeplay; true once the server took the token (no `error`).
inline bool signIn(KgpClient& c, const std::string& token, bool quoted = false) {
  auto hello = c.next();
  EXPECT_TRUE(hello && splitKgp(*hello).name == "kgp") << (hello ? *hello : "nothing");
  if (!hello || splitKgp(*hello).args.substr(0, 1) != "1") return false;
  c.sendLine(quoted ? "set \"auth:token\" \"" + token + "\"" : "set auth:token " + token);
  c.sendLine(quoted ? "mode \"freeplay\"" : "mode freeplay");
  // Nothing comes back until a game offers a turn; an `error` would come at once.
  auto answer = c.next(700ms);
  if (answer && splitKgp(*answer).name == "error") return false;
  if (answer) c.seen().push_back("(early) " + *answer);
  return !c.closed();
}

// The first house with seeds of the bot's own row (KGP numbers 1..n), from a `state` line.
inline int firstMove(const std::vector<int>& board) {
  const int n = board.at(0);
  for (int k = 1; k <= n; ++k) {
    if (board.at(static_cast<std::size_t>(2 + k)) > 0) return k;
  }
  return 1;
}

struct ServerUnderTest {
  explicit ServerUnderTest(std::vector<std::string> extra = {}) : server(withDefaults(std::move(extra))) {}
  static std::vector<std::string> withDefaults(std::vector<std::string> extra) {
    std::vector<std::string> args{"--ai", "greedy", "--kgp-port", "0", "--kgp-pool-seconds", "0"};
    // A later option wins: the test's own come last.
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  ServerProcess server;
  unsigned short port = 0;
  unsigned short kgp = 0;
  void start() {
    ASSERT_TRUE(server.start());
    port = server.port();
    kgp = listeningPort(server.clustered() ? server.instanceLogs(0) : server.logs(), "kgp_port");
    ASSERT_NE(kgp, 0) << "the listening line names the KGP port";
  }
  unsigned short portFor(KgpClient::Via via) const { return via == KgpClient::Via::Tcp ? kgp : port; }
};

// Replays the game's moves with `semis replay` and returns its last position line.
inline Json replayed(const Json& state) {
  std::string cmd = std::string(SEMIS_BINARY) + " replay --rules '" + state["rules"].get<std::string>() + "'";
  for (const Json& p : state["plies"]) cmd += " " + std::to_string(p["move"].get<int>());
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (f && fgets(buf.data(), buf.size(), f)) out = buf.data();  // the last line
  if (f) pclose(f);
  return Json::parse(out, nullptr, false);
}

// The state of a game over HTTP.
inline Json gameState(unsigned short port, const std::string& game) { return getJson(port, "/api/games/" + game); }

// The game's state once it has a ply (or after 2 s): a bot's move is played at once on its `yield`.
inline Json afterFirstPly(unsigned short port, const std::string& game) {
  Json s;
  for (int i = 0; i < 100 && (s = gameState(port, game))["plies"].empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return s;
}

// Answers each `state` the clients get with the first house with seeds and `yield` until `done()`
// or `timeout`; the turns answered. TCP clients only (a WebSocket read that times out ends it).
inline int answerTurns(const std::vector<KgpClient*>& bots, const std::function<bool()>& done,
                       std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  int turns = 0;
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    bool quiet = true;
    for (KgpClient* c : bots) {
      auto line = c->next(std::chrono::milliseconds(30));
      if (!line) continue;
      quiet = false;
      const KgpLine l = splitKgp(*line);
      if (l.name == "ping") c->sendLine("@" + std::to_string(l.id) + " pong");
      if (l.name != "state") continue;
      const std::string ref = "@" + std::to_string(l.id);
      c->sendLine(ref + " move " + std::to_string(firstMove(kgpBoard(l.args))));
      c->sendLine(ref + " yield");
      ++turns;
    }
    if (quiet && done()) break;
  }
  return turns;
}

}  // namespace semis::test
