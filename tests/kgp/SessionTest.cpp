#include "kgp/Session.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kgp/LineReader.hpp"
#include "KalahRules.hpp"

namespace semis::kgp {
namespace {

using Lines = std::vector<std::string>;

Turn turnAt(const Rules& rules, const Position& pos, std::string game = "g1", std::int64_t ms = 5000) {
  return Turn{std::move(game), "alice", "https://semis.example/g/1", rules, pos, ms};
}

template <class T>
std::vector<T> actionsOf(const Output& out) {
  std::vector<T> found;
  for (const Action& a : out.actions) {
    if (const T* t = std::get_if<T>(&a)) found.push_back(*t);
  }
  return found;
}

// A session past the greeting and `mode freeplay`, authenticated.
struct Bot {
  Session session{Session::Config{}};
  std::int64_t now = 1000;

  Bot() {
    EXPECT_EQ(session.start(now).lines, Lines{"kgp 1 0 1"});
    Output o = session.onLine("1 set auth:token \"t0k3n\"", now);
    EXPECT_EQ(actionsOf<Authenticate>(o).size(), 1U);
    o = session.authenticated(true, now);
    o = session.onLine("3 mode freeplay", now);
    EXPECT_EQ(o.lines, Lines{"2@3 ok \"freeplay\""});
    EXPECT_EQ(actionsOf<Ready>(o).size(), 1U);
    EXPECT_TRUE(session.ready());
  }
  Lines line(std::string_view l) { return session.onLine(l, now).lines; }
};

TEST(KgpSession, AFreeplayExchangeLikeTheSpecs) {
  Bot bot;
  const Rules rules = kalah(3, 3);
  const Board board(rules);
  Position pos = board.start();
  auto out = bot.session.offerTurn(turnAt(rules, pos), bot.now);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->lines, (Lines{"4 set game:id \"g1\"", "6 set game:opponent \"alice\"",
                               "8 set game:uri \"https://semis.example/g/1\"", "10 state <3,0,0,3,3,3,3,3,3>"}));
  EXPECT_TRUE(bot.line("@10 move 1").empty());
  bot.now += 5000;
  Output end = bot.session.tick(bot.now);
  EXPECT_EQ(end.lines, Lines{"12@10 stop"});
  auto decided = actionsOf<Decided>(end);
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].house, 1);
  EXPECT_TRUE(decided[0].byBot);
  EXPECT_EQ(decided[0].gameId, "g1");
  ASSERT_TRUE(board.play(pos, 1).has_value());  // its last seed in the store: South again
  ASSERT_EQ(pos.toMove, Side::South);
  // The same game: no game:* again. Repeated moves, the last legal one counts; yield ends at once.
  out = bot.session.offerTurn(turnAt(rules, pos), bot.now);
  ASSERT_TRUE(out.has_value());
  ASSERT_EQ(out->lines.size(), 1U);
  EXPECT_EQ(out->lines[0], "14 state <3,1,0,0,4,4,3,3,3>");
  EXPECT_TRUE(bot.line("5@14 move 3").empty());
  EXPECT_TRUE(bot.line("7@14 move 2").empty());
  Output y = bot.session.onLine("9@14 yield", bot.now);
  EXPECT_EQ(y.lines, Lines{"16@14 stop"});
  decided = actionsOf<Decided>(y);
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].house, 2);
  EXPECT_FALSE(bot.session.inTurn());
  // Late moves and yields for a stopped state are ignored silently.
  EXPECT_TRUE(bot.line("11@14 move 1").empty());
  EXPECT_TRUE(bot.line("13@10 yield").empty());
  EXPECT_EQ(bot.session.errorsSent(), 0);
}

TEST(KgpSession, QuotedEverythingAsPykgpSendsIt) {
  Session s{Session::Config{}};
  s.start(0);
  EXPECT_TRUE(s.onLine("1 set \"info:name\" \"py bot\"", 0).lines.empty());
  EXPECT_TRUE(s.onLine("3 set \"info:authors\" \"Ada, Alan\"", 0).lines.empty());
  Output o = s.onLine("5 set \"auth:token\" \"secret\"", 0);
  EXPECT_EQ(actionsOf<Authenticate>(o)[0].token, "secret");
  o = s.onLine("7 mode \"freeplay\"", 0);
  EXPECT_EQ(o.lines, Lines{"2@7 ok \"freeplay\""});
  EXPECT_TRUE(actionsOf<Ready>(o).empty());  // the token is being checked
  EXPECT_FALSE(s.ready());
  o = s.authenticated(true, 0);
  ASSERT_EQ(actionsOf<Ready>(o).size(), 1U);
  EXPECT_TRUE(actionsOf<Ready>(o)[0].authenticated);
  EXPECT_EQ(s.name(), "py bot");
  EXPECT_EQ(s.authors(), "Ada, Alan");
  EXPECT_EQ(s.token(), "secret");
}

TEST(KgpSession, TokenPerFrameThroughTheLineReader) {
  // kgpc over WebSocket: every token its own frame, its token first and `info:author` singular.
  Session s{Session::Config{}};
  LineReader reader;
  s.start(0);
  std::vector<Action> actions;
  Lines sent;
  const std::vector<std::string> frames = {"3",         " set",        " ",           "\"auth:token\"", " ",
                                           "\"k\"",     "\r\n",        "5",           " set",           " ",
                                           "\"info:author\"", " ",     "\"me\"",      "\r\n",           "7",
                                           " mode",     " ",           "\"freeplay\"", "\r\n"};
  for (const std::string& f : frames) {
    for (auto& item : reader.feed(f)) {
      ASSERT_TRUE(item.has_value());
      Output o = s.onLine(*item, 0);
      for (auto& l : o.lines) sent.push_back(l);
      for (auto& a : o.actions) actions.push_back(a);
    }
  }
  EXPECT_EQ(sent, Lines{"2@7 ok \"freeplay\""});
  ASSERT_EQ(actions.size(), 1U);
  EXPECT_EQ(std::get<Authenticate>(actions[0]).token, "k");
  EXPECT_EQ(s.authors(), "me");
  EXPECT_EQ(actionsOf<Ready>(s.authenticated(true, 0)).size(), 1U);
}

TEST(KgpSession, StopAtTheDeadlineWithoutAMovePicksTheLowestLegalHouse) {
  Bot bot;
  const Rules rules = kalah(6, 4);
  const Board board(rules);
  Position pos = board.start();
  ASSERT_TRUE(board.play(pos, 3).has_value());  // South again, house 3 empty
  ASSERT_TRUE(board.play(pos, 1).has_value());  // North to move
  ASSERT_TRUE(board.play(pos, 1).has_value());  // North: n1 -> n2..n5; South to move, s1 and s3 empty
  ASSERT_EQ(pos.toMove, Side::South);
  auto out = bot.session.offerTurn(turnAt(rules, pos, "g2", 2000), bot.now);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(bot.session.nextDeadline(), bot.now + 2000);
  bot.now += 1999;
  EXPECT_TRUE(bot.session.tick(bot.now).lines.empty());
  bot.now += 1;
  Output end = bot.session.tick(bot.now);
  // Silent all turn: pinged before the stop (go-kgp's order), then the turn ends.
  ASSERT_EQ(end.lines.size(), 2U);
  EXPECT_EQ(end.lines[0], "12 ping");
  EXPECT_EQ(end.lines[1], "14@10 stop");
  auto decided = actionsOf<Decided>(end);
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].house, 2);
  EXPECT_FALSE(decided[0].byBot);
  // No pong in time: unresponsive, error, goodbye, closed.
  bot.now += 10000;
  Output gone = bot.session.tick(bot.now);
  EXPECT_EQ(actionsOf<Unresponsive>(gone).size(), 1U);
  EXPECT_EQ(gone.lines, (Lines{"16 error \"no_pong: no pong in time\"", "goodbye"}));
  EXPECT_TRUE(gone.close);
  EXPECT_TRUE(bot.session.closed());
}

TEST(KgpSession, IllegalMovesGetAnErrorAndAreNotRecorded) {
  Bot bot;
  const Rules rules = kalah(6, 4);
  const Board board(rules);
  Position pos = board.start();
  ASSERT_TRUE(board.play(pos, 3).has_value());  // South again, house 3 empty
  auto out = bot.session.offerTurn(turnAt(rules, pos), bot.now);
  ASSERT_TRUE(out.has_value());
  const std::string stateLine = out->lines.back();
  ASSERT_EQ(stateLine, "10 state <6,1,0,4,4,0,5,5,5,4,4,4,4,4,4>");
  EXPECT_TRUE(bot.line("5@10 move 4").empty());
  EXPECT_EQ(bot.line("7@10 move 3"), Lines{"12@7 error \"illegal_move: illegal move 3 (legal: 1 2 4 5 6)\""});
  EXPECT_EQ(bot.line("@10 move 7"), Lines{"14@10 error \"illegal_move: illegal move 7 (legal: 1 2 4 5 6)\""});
  EXPECT_EQ(bot.line("@10 move 0"), Lines{"16@10 error \"illegal_move: illegal move 0 (legal: 1 2 4 5 6)\""});
  EXPECT_EQ(bot.line("9@10 move"), Lines{"18@9 error \"bad_arguments: move takes one integer\""});
  EXPECT_EQ(bot.line("11 move 2"),
            Lines{"20@11 error \"no_state: move needs the state's id as reference: @id move\""});
  EXPECT_EQ(bot.line("13@99 move 2"), Lines{"22@13 error \"no_state: no state 99\""});
  bot.now += 5000;
  Output end = bot.session.tick(bot.now);
  EXPECT_EQ(end.lines, Lines{"24@10 stop"});  // it spoke during the turn: no ping
  auto decided = actionsOf<Decided>(end);
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].house, 4);
  EXPECT_TRUE(decided[0].byBot);
  EXPECT_EQ(bot.session.errorsSent(), 6);
}

TEST(KgpSession, CommentsAndCancel) {
  Bot bot;
  const Rules rules = kalah(4, 3);
  const Board board(rules);
  ASSERT_TRUE(bot.session.offerTurn(turnAt(rules, board.start()), bot.now).has_value());
  EXPECT_FALSE(bot.session.offerTurn(turnAt(rules, board.start()), bot.now).has_value());  // one at a time
  Output c = bot.session.cancelTurn(bot.now);
  EXPECT_EQ(c.lines, Lines{"12@10 stop"});
  EXPECT_TRUE(c.actions.empty());
  auto out = bot.session.offerTurn(turnAt(rules, board.start(), "g9"), bot.now);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->lines.size(), 4U);  // a new game: game:* again
  EXPECT_EQ(out->lines[3], "20 state <4,0,0,3,3,3,3,3,3,3,3>");
  EXPECT_TRUE(bot.line("set info:comment \"depth 9, eval +2\"").empty());
  EXPECT_TRUE(bot.line("@20 move 4").empty());
  Output y = bot.session.onLine("@20 yield", bot.now);
  auto decided = actionsOf<Decided>(y);
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].gameId, "g9");
  EXPECT_EQ(decided[0].comment, "depth 9, eval +2");
}

TEST(KgpSession, YieldWithoutAMove) {
  Bot bot;
  const Rules rules = kalah(4, 3);
  const Board board(rules);
  ASSERT_TRUE(bot.session.offerTurn(turnAt(rules, board.start()), bot.now).has_value());
  Output y = bot.session.onLine("@10 yield", bot.now);
  EXPECT_EQ(y.lines, Lines{"12@10 stop"});
  auto decided = actionsOf<Decided>(y);
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].house, 1);
  EXPECT_FALSE(decided[0].byBot);
}

TEST(KgpSession, WrongModeSecondModeAndUnknownToken) {
  {
    Session s{Session::Config{}};
    s.start(0);
    Output o = s.onLine("1 mode tournament", 0);
    EXPECT_EQ(o.lines, (Lines{"2@1 error \"unsupported_mode: unsupported mode tournament: Semis plays freeplay\"",
                              "goodbye"}));
    EXPECT_TRUE(o.close);
    EXPECT_TRUE(s.onLine("3 mode freeplay", 0).lines.empty());  // closed: nothing more
  }
  {
    Bot bot;
    Output o = bot.session.onLine("5 mode freeplay", bot.now);
    EXPECT_EQ(o.lines.back(), "goodbye");
    EXPECT_EQ(o.closeReason, "duplicate_mode");
  }
  {
    Session s{Session::Config{}};
    s.start(0);
    s.onLine("set auth:token nope", 0);
    s.onLine("mode freeplay", 0);
    Output o = s.authenticated(false, 0);
    EXPECT_EQ(o.lines, (Lines{"4 error \"bad_token: unknown or revoked token\"", "goodbye"}));
    EXPECT_TRUE(o.close);
    EXPECT_EQ(o.closeReason, "bad_token");
  }
  {
    // No mode in time.
    Session s{Session::Config{}};
    s.start(0);
    EXPECT_EQ(s.nextDeadline(), 30000);
    EXPECT_FALSE(s.tick(29999).close);
    EXPECT_TRUE(s.tick(30000).close);
  }
  {
    // Without a token a bot is ready, unauthenticated: the caller decides whether that is allowed.
    Session s{Session::Config{}};
    s.start(0);
    auto ready = actionsOf<Ready>(s.onLine("mode freeplay", 0));
    ASSERT_EQ(ready.size(), 1U);
    EXPECT_FALSE(ready[0].authenticated);
    EXPECT_EQ(s.onLine("set auth:token \"\"", 0).lines, Lines{"4 error \"bad_arguments: an empty token\""});
  }
}

TEST(KgpSession, PingPong) {
  Bot bot;
  // The bot's ping: a pong referencing it, arguments echoed.
  EXPECT_EQ(bot.line("15 ping"), Lines{"4@15 pong"});
  EXPECT_EQ(bot.line("17 ping \"x\""), Lines{"6@17 pong \"x\""});
  // The server's pings between turns.
  EXPECT_EQ(bot.session.nextDeadline(), 1000 + 15000);
  bot.now = 16000;
  EXPECT_EQ(bot.session.tick(bot.now).lines, Lines{"8 ping"});
  EXPECT_EQ(bot.session.nextDeadline(), 26000);
  EXPECT_TRUE(bot.line("19@8 pong").empty());
  EXPECT_EQ(bot.session.nextDeadline(), 31000);
  bot.now = 31000;
  EXPECT_EQ(bot.session.tick(bot.now).lines, Lines{"10 ping"});
  bot.now = 41000;
  Output gone = bot.session.tick(bot.now);
  EXPECT_EQ(actionsOf<Unresponsive>(gone).size(), 1U);
  EXPECT_TRUE(gone.close);
}

TEST(KgpSession, NoPeriodicPingDuringATurn) {
  Bot bot;
  const Rules rules = kalah(6, 6);
  const Board board(rules);
  ASSERT_TRUE(bot.session.offerTurn(turnAt(rules, board.start(), "g", 60000), bot.now).has_value());
  bot.now = 30000;
  EXPECT_TRUE(bot.session.tick(bot.now).lines.empty());
  EXPECT_TRUE(bot.line("@10 move 6").empty());
  bot.now = 61000;
  Output end = bot.session.tick(bot.now);
  EXPECT_EQ(end.lines, Lines{"12@10 stop"});
  // Then a pause before pinging (a bot may still be writing its yield).
  EXPECT_EQ(bot.session.nextDeadline(), 62000);
  EXPECT_EQ(bot.session.tick(62000).lines, Lines{"14 ping"});
}

TEST(KgpSession, BadLinesGetErrorsAndAFloodCloses) {
  Bot bot;
  EXPECT_EQ(bot.line("set a \"unterminated"), Lines{"4 error \"bad_line: bad_string: an unterminated string\""});
  Output e = bot.session.onLineError(KgpError{KgpErrorCode::TooLong, "a line over 16384 bytes"}, bot.now);
  EXPECT_EQ(e.lines, Lines{"6 error \"bad_line: too_long: a line over 16384 bytes\""});
  EXPECT_EQ(bot.line("5 frobnicate"), Lines{"8@5 error \"unknown_command: unknown command frobnicate\""});
  EXPECT_EQ(bot.line("7 set info:name"), Lines{"10@7 error \"bad_arguments: set takes an option and a value\""});
  EXPECT_TRUE(bot.line("").empty());  // empty lines are nothing
  EXPECT_TRUE(bot.line("ok").empty());
  EXPECT_TRUE(bot.line("set time:mode \"none\"").empty());  // unknown options are ignored
  // A good line resets the count; 100 bad ones in a row close.
  Output last;
  for (int i = 0; i < 100 && !last.close; ++i) last = bot.session.onLine("\"", bot.now);
  EXPECT_TRUE(last.close);
  EXPECT_EQ(last.closeReason, "flood");
  EXPECT_EQ(last.lines.back(), "goodbye");
  EXPECT_EQ(bot.session.errorsSent(), 4 + 100 + 1);
}

TEST(KgpSession, RepliesKeepToTheLineLimit) {
  Bot bot;
  // An error echoes a bot's words cut short; a pong drops echoed arguments that would not fit.
  const Lines unknown = bot.line("5 " + std::string(16000, 'z'));
  ASSERT_EQ(unknown.size(), 1U);
  EXPECT_EQ(unknown[0], "4@5 error \"unknown_command: unknown command " + std::string(64, 'z') + "...\"");
  const Lines pong = bot.line("123456789 ping \"" + std::string(16367, 'p') + "\"");
  EXPECT_EQ(pong, Lines{"6@123456789 pong"});
  Session s{Session::Config{}};
  s.start(0);
  const Lines mode = s.onLine("mode \"" + std::string(63, 'm') + "\xC3\xA9" + std::string(100, 'm') + "\"", 0).lines;
  ASSERT_EQ(mode.size(), 2U);
  EXPECT_EQ(mode[0], "2 error \"unsupported_mode: unsupported mode " + std::string(63, 'm') + "...: Semis plays freeplay\"");
}

TEST(KgpSession, UnknownCommandsBeforeModeAreIgnored) {
  Session s{Session::Config{}};
  s.start(0);
  EXPECT_TRUE(s.onLine("hello there", 0).lines.empty());
  EXPECT_TRUE(s.onLine("ok", 0).lines.empty());
  EXPECT_FALSE(s.offerTurn(turnAt(kalah(6, 4), Board(kalah(6, 4)).start()), 0).has_value());
}

TEST(KgpSession, TheBotPlayingNorthSeesItselfSouth) {
  Bot bot;
  const Rules rules = kalah(6, 4);
  const Board board(rules);
  Position pos = board.start();
  ASSERT_TRUE(board.play(pos, 1).has_value());  // South: s2..s5, North to move
  auto out = bot.session.offerTurn(turnAt(rules, pos), bot.now);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->lines.back(), "10 state <6,0,0,4,4,4,4,4,4,0,5,5,5,5,4>");
  EXPECT_TRUE(bot.line("@10 move 6").empty());
  auto decided = actionsOf<Decided>(bot.session.onLine("@10 yield", bot.now));
  ASSERT_EQ(decided.size(), 1U);
  EXPECT_EQ(decided[0].house, 6);  // North's house 6, next to North's store
  ASSERT_TRUE(board.play(pos, decided[0].house).has_value());
  EXPECT_EQ(pos.pits[static_cast<std::size_t>(board.storePit(Side::North))], 1);
}

TEST(KgpSession, GoodbyeAndServerClose) {
  {
    Bot bot;
    Output o = bot.session.onLine("goodbye", bot.now);
    EXPECT_TRUE(o.close);
    EXPECT_EQ(o.closeReason, "goodbye");
  }
  {
    Bot bot;
    Output o = bot.session.close("shutdown");
    EXPECT_EQ(o.lines, Lines{"goodbye"});
    EXPECT_TRUE(bot.session.closed());
    EXPECT_FALSE(bot.session.nextDeadline());
  }
}

}  // namespace
}  // namespace semis::kgp
