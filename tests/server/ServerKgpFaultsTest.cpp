// Bots over KGP when things go wrong (docs/bots.md): the clients' quirks, bad lines, wrong and
// revoked tokens, a second connection, time running out, illegal moves, silence, floods, a
// restart mid-game; and the freeplay pool. Black-box, with bots written here.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "KgpPlay.hpp"

namespace semis::test {
namespace {

using Via = KgpClient::Via;

class ServerKgpFaults : public ::testing::Test {
 protected:
  void start(std::vector<std::string> extra = {}) {
    srv_ = std::make_unique<ServerUnderTest>(std::move(extra));
    srv_->start();
    owner_ = signUp(srv_->port, "owner");
  }
  unsigned short port() const { return srv_->port; }
  // A person's game against `bot` (the person South, moving first).
  std::string gameAgainst(const Bot& bot, const std::string& rules = "kalah", Member* person = nullptr) {
    static Member guest;
    Member& p = person ? *person : (guest = signUp(port(), "person"));
    return createGame(port(), p.cookie, {{"rules", rules}, {"mode", "bot"}, {"bot", bot.name}, {"side", "N"}});
  }
  std::unique_ptr<ServerUnderTest> srv_;
  Member owner_;
};

// The state line a bot is offered next (skipping set/ping lines, answering pings).
std::optional<KgpLine> nextState(KgpClient& c, std::chrono::milliseconds timeout = 10s) {
  auto line = c.until(
      [&](const std::string& l) {
        const KgpLine k = splitKgp(l);
        if (k.name == "ping") c.sendLine("@" + std::to_string(k.id) + " pong");
        return k.name == "state";
      },
      timeout);
  if (!line) return std::nullopt;
  return splitKgp(*line);
}

TEST_F(ServerKgpFaults, TheRealClientsQuirksAllWork) {
  start();
  // pykgp and kgpc quote every word; kgpc over WebSocket sends each token in a frame of its own.
  Bot quoted = makeBot(port(), owner_, "quoted");
  KgpClient a;
  ASSERT_TRUE(a.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(a, quoted.token, /*quoted=*/true));
  Bot framed = makeBot(port(), owner_, "framed");
  KgpClient b;
  ASSERT_TRUE(b.connect(Via::WebSocket, port()));
  ASSERT_TRUE(b.next());  // kgp 1 0 1
  b.sendRaw({"set", " ", "\"auth:token\"", " ", "\"" + framed.token + "\"", "\n", "mode", " ", "\"freeplay\"", "\n"});
  // Both are playable now: a game against each, and each is offered its turn.
  for (auto* bot : {&quoted, &framed}) {
    const std::string game = gameAgainst(*bot);
    ASSERT_FALSE(game.empty()) << bot->name;
    KgpClient& c = bot == &quoted ? a : b;
    auto state = nextState(c);
    ASSERT_TRUE(state) << bot->name;
    // A quoted move (`move "3"`) is a move; `yield` ends the turn at once.
    const std::string ref = "@" + std::to_string(state->id);
    if (bot == &framed) {
      c.sendRaw({ref, " ", "move", " ", "\"3\"", "\n", ref, " ", "yield", "\n"});
    } else {
      c.sendLine(ref + " move \"3\"");
      c.sendLine(ref + " yield");
    }
    const Json s = afterFirstPly(port(), game);
    ASSERT_EQ(s["plies"].size(), 1U) << s.dump();
    EXPECT_EQ(s["plies"].at(0)["move"], 3);
  }
}

TEST_F(ServerKgpFaults, BadLinesGetAnErrorAndChangeNothing) {
  start();
  Bot bot = makeBot(port(), owner_, "bad");
  KgpClient c;
  ASSERT_TRUE(c.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(c, bot.token));
  const std::string game = gameAgainst(bot);
  auto state = nextState(c);
  ASSERT_TRUE(state);
  const std::string ref = "@" + std::to_string(state->id);
  // An unterminated string, a 70 kB line, binary bytes, a house out of range, an empty house.
  c.sendLine(ref + " move \"3");
  c.sendRaw({std::string(70000, 'x') + "\r\n"});
  c.sendRaw({std::string("\x01\x02\xff\xfe move 1\r\n", 14)});
  c.sendLine(ref + " move 9");
  int errors = 0;
  while (errors < 4 && c.until([](const std::string& l) { return splitKgp(l).name == "error"; }, 3s)) ++errors;
  EXPECT_EQ(errors, 4) << "each bad line answered once";
  EXPECT_FALSE(c.until([](const std::string& l) { return splitKgp(l).name == "error"; }, 300ms)) << "and no more";
  EXPECT_FALSE(c.closed()) << "a few bad lines do not end the connection";
  EXPECT_TRUE(gameState(port(), game)["plies"].empty()) << "nothing was played";
  // Then a good move is played at once.
  c.sendLine(ref + " move 2");
  c.sendLine(ref + " yield");
  const Json s = afterFirstPly(port(), game);
  ASSERT_EQ(s["plies"].size(), 1U);
  EXPECT_EQ(s["plies"].at(0)["move"], 2);
}

TEST_F(ServerKgpFaults, AWrongTokenARevokedTokenAndASecondConnectionAreClosed) {
  start();
  KgpClient wrong;
  ASSERT_TRUE(wrong.connect(Via::Tcp, srv_->kgp));
  ASSERT_FALSE(signIn(wrong, std::string(64, 'a')));
  EXPECT_TRUE(wrong.untilCommand("goodbye", 3s)) << "told, then closed";
  Bot bot = makeBot(port(), owner_, "once");
  KgpClient first;
  ASSERT_TRUE(first.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(first, bot.token));
  KgpClient second;
  ASSERT_TRUE(second.connect(Via::WebSocket, port()));
  EXPECT_FALSE(signIn(second, bot.token)) << "one connection a bot";
  // Revoking the bot ends its connection, and its token opens nothing after.
  EXPECT_EQ(http(port(), "DELETE", "/api/bots/" + bot.id, "", owner_.cookie).status, 200);
  EXPECT_TRUE(first.untilCommand("goodbye", 5s));
  KgpClient again;
  ASSERT_TRUE(again.connect(Via::Tcp, srv_->kgp));
  EXPECT_FALSE(signIn(again, bot.token));
  auto online = getJson(port(), "/api/bots/online");
  EXPECT_TRUE(online["bots"].empty()) << online.dump();
}

TEST_F(ServerKgpFaults, WhenTimeRunsOutTheLastMoveOrALegalOneIsPlayed) {
  start({"--kgp-move-seconds", "1"});
  Bot bot = makeBot(port(), owner_, "slow");
  KgpClient c;
  ASSERT_TRUE(c.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(c, bot.token));
  const std::string game = gameAgainst(bot);
  auto state = nextState(c);
  ASSERT_TRUE(state);
  // Two moves, no yield: the last one counts when the time is up (`stop`).
  c.sendLine("@" + std::to_string(state->id) + " move 2");
  c.sendLine("@" + std::to_string(state->id) + " move 5");
  auto stop = c.untilCommand("stop", 5s);
  ASSERT_TRUE(stop);
  EXPECT_EQ(splitKgp(*stop).ref, state->id);
  const Json s = afterFirstPly(port(), game);
  ASSERT_FALSE(s["plies"].empty());
  EXPECT_EQ(s["plies"].at(0)["move"], 5);
}

TEST_F(ServerKgpFaults, ABotThatSaysNothingGetsALegalMoveThenLosesWhenItStopsAnsweringPings) {
  start({"--kgp-move-seconds", "1", "--kgp-ping-seconds", "1"});
  Bot bot = makeBot(port(), owner_, "mute");
  KgpClient c;
  ASSERT_TRUE(c.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(c, bot.token));
  const std::string game = gameAgainst(bot);
  // The bot reads but never answers: a legal move is played for it, then it loses on silence.
  Json s;
  for (int i = 0; i < 400 && (s = gameState(port(), game))["status"] != "over"; ++i) {
    (void)c.next(25ms);
  }
  ASSERT_EQ(s["status"], "over") << s.dump();
  ASSERT_FALSE(s["plies"].empty()) << "a legal move was played for it first";
  EXPECT_EQ(s["result"]["winner"], "N") << "the person wins: " << s["result"].dump();
  const bool toldGoodbye =
      std::any_of(c.seen().begin(), c.seen().end(), [](const std::string& l) { return splitKgp(l).name == "goodbye"; });
  EXPECT_TRUE(toldGoodbye || c.untilCommand("goodbye", 3s));
}

TEST_F(ServerKgpFaults, AFloodingBotIsCutOffAndTheServerGoesOn) {
  start();
  Bot bot = makeBot(port(), owner_, "flood");
  KgpClient c;
  ASSERT_TRUE(c.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(c, bot.token));
  std::string burst;
  for (int i = 0; i < 2000; ++i) burst += "ping\r\n";
  c.sendRaw({burst});
  bool closed = false;
  for (int i = 0; i < 200 && !closed; ++i) closed = !c.next(50ms) && c.closed();
  EXPECT_TRUE(closed) << "closed after too many lines at once";
  EXPECT_EQ(http(port(), "GET", "/healthz").status, 200);
  KgpClient again;
  ASSERT_TRUE(again.connect(Via::Tcp, srv_->kgp));
  EXPECT_TRUE(signIn(again, bot.token)) << "the bot may come back";
}

TEST_F(ServerKgpFaults, ABotsGameSurvivesARestartAndGoesOnWhenItComesBack) {
  start();
  Bot bot = makeBot(port(), owner_, "phoenix");
  Member person = signUp(port(), "person");
  auto c = std::make_unique<KgpClient>();
  ASSERT_TRUE(c->connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(*c, bot.token));
  const std::string game = gameAgainst(bot, "kalah", &person);
  ASSERT_TRUE(nextState(*c));
  srv_->server.kill9();
  ASSERT_TRUE(srv_->server.start());
  srv_->kgp = listeningPort(srv_->server.clustered() ? srv_->server.instanceLogs(0) : srv_->server.logs(), "kgp_port");
  c = std::make_unique<KgpClient>();
  ASSERT_TRUE(c->connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(*c, bot.token));
  // The bot is offered the same turn again, and the game is played to its end.
  auto state = nextState(*c);
  ASSERT_TRUE(state) << "the unfinished game is found again";
  const std::string ref = "@" + std::to_string(state->id);
  c->sendLine(ref + " move " + std::to_string(firstMove(kgpBoard(state->args))));
  c->sendLine(ref + " yield");
  WsClient ws;
  ASSERT_TRUE(ws.connect(port(), person.cookie));
  joinGame(ws, game);
  int guard = 0;
  const int turns = answerTurns({c.get()}, [&] {
    const Json s = gameState(port(), game);
    if (s["status"] == "over") return true;
    if (s["position"]["to_move"] == "N") {
      ws.send({{"type", "move"}, {"game", game}, {"house", s["legal"].at(0)}, {"id", ++guard}});
      (void)ws.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; });
    }
    return false;
  });
  EXPECT_GT(turns, 2);
  const Json s = gameState(port(), game);
  ASSERT_EQ(s["status"], "over");
  const Json replay = replayed(s);
  EXPECT_EQ(replay["houses"], s["position"]["houses"]);
  EXPECT_EQ(replay["stores"], s["position"]["stores"]);
}

TEST_F(ServerKgpFaults, ThePoolPairsWaitingBotsAndALoneOneMeetsTheComputer) {
  start({"--kgp-pool-seconds", "1"});
  Bot a = makeBot(port(), owner_, "poola");
  Bot b = makeBot(port(), owner_, "poolb");
  KgpClient ca, cb, anon;
  ASSERT_TRUE(ca.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(cb.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(ca, a.token));
  ASSERT_TRUE(signIn(cb, b.token));
  // A bot without a token plays too (KGP allows it), against the built-in levels only.
  ASSERT_TRUE(anon.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(anon.next());
  anon.sendLine("mode freeplay");
  std::set<std::string> games;
  const int turns = answerTurns(
      {&ca, &cb, &anon},
      [&] {
        for (auto* c : {&ca, &cb, &anon}) {
          for (const std::string& l : c->seen()) {
            const KgpLine k = splitKgp(l);
            if (k.name == "set" && k.args.rfind("game:id ", 0) == 0) games.insert(k.args.substr(9, 10));
          }
        }
        if (games.size() < 2) return false;
        for (const std::string& g : games) {
          if (gameState(port(), g)["status"] != "over") return false;
        }
        return true;
      },
      90s);
  EXPECT_GT(turns, 10);
  ASSERT_GE(games.size(), 2U) << "a game between the two bots and one against the computer";
  bool botsMet = false;
  bool computerMet = false;
  for (const std::string& g : games) {
    const Json s = gameState(port(), g);
    EXPECT_EQ(s["status"], "over") << g;
    const std::set<std::string> names{s["seats"]["S"]["name"], s["seats"]["N"]["name"]};
    botsMet = botsMet || (names.count(a.name) && names.count(b.name));
    // Every game's record is what `semis replay` makes of its moves.
    const Json replay = replayed(s);
    EXPECT_EQ(replay["houses"], s["position"]["houses"]) << g;
    EXPECT_EQ(replay["stores"], s["position"]["stores"]) << g;
    computerMet = computerMet || s["seats"]["S"]["kind"] == "ai" || s["seats"]["N"]["kind"] == "ai";
  }
  EXPECT_TRUE(botsMet);
  EXPECT_TRUE(computerMet);
  // The token-less bot is told which level it meets (`set game:opponent "Semis easy"`).
  EXPECT_TRUE(std::any_of(anon.seen().begin(), anon.seen().end(), [](const std::string& l) {
    return l.find("set game:opponent \"Semis ") != std::string::npos;
  })) << "the computer named";
}

TEST_F(ServerKgpFaults, TwelveByTwelveBoardsAndNoGameOnRulesABotCannotSay) {
  start();
  Bot bot = makeBot(port(), owner_, "big");
  KgpClient c;
  ASSERT_TRUE(c.connect(Via::Tcp, srv_->kgp));
  ASSERT_TRUE(signIn(c, bot.token));
  Member person = signUp(port(), "person");
  for (const char* rules : {"mangala", "kalah,pie=true", "congkak"}) {
    auto r = http(port(), "POST", "/api/games", Json{{"rules", rules}, {"mode", "bot"}, {"bot", bot.name}}.dump(),
                  person.cookie);
    EXPECT_EQ(r.status, 400) << rules << ": " << r.body;
  }
  auto offline = http(port(), "POST", "/api/games",
                      Json{{"rules", "kalah"}, {"mode", "bot"}, {"bot", "nobody-here"}}.dump(), person.cookie);
  EXPECT_EQ(offline.status, 404) << offline.body;
  const std::string game = gameAgainst(bot, "kalah,houses=12,seeds=12", &person);
  ASSERT_FALSE(game.empty());
  auto state = nextState(c);
  ASSERT_TRUE(state);
  const auto board = kgpBoard(state->args);
  ASSERT_EQ(board.size(), 27U);
  EXPECT_EQ(board[0], 12);
  EXPECT_EQ(board[3], 12);
  c.sendLine("@" + std::to_string(state->id) + " move 12");
  c.sendLine("@" + std::to_string(state->id) + " yield");
  const Json s = afterFirstPly(port(), game);
  ASSERT_EQ(s["plies"].size(), 1U);
  EXPECT_EQ(s["plies"].at(0)["move"], 12);
}

}  // namespace
}  // namespace semis::test
