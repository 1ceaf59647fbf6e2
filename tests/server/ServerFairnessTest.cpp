// Black-box tests of fair results (docs/club.md, "Fair play"): a player who never came to a game is
// no leaver (the game is aborted, unrated, and he is told why), and one open seek per player, game
// and clock. Runs on SQLite, PostgreSQL and the cluster.

#include <gtest/gtest.h>

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

TEST(ServerFairness, AnInvitedPlayerWhoNeverComesIsNotClaimedAgainstAndTheGameIsAborted) {
  ServerProcess server({"--claim-seconds", "1", "--no-show-seconds", "3"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  ASSERT_EQ(http(port, "POST", "/api/friends", Json{{"username", ben.username}}.dump(), ann.cookie).status, 200);
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ann.cookie) && b.connect(port, ben.cookie));
  a.send({{"type", "invite"}, {"friend", ben.id}, {"spec", {{"rules", "kalah"}, {"rated", true}}}});
  auto invited = b.untilType("invited", 5000ms);
  ASSERT_TRUE(invited) << "Ben's socket is open and hears of it";
  const std::string game = (*invited)["game"];
  const Json st = joinGame(a, game);
  Board board = fromState(st);
  if (board.toMove == st["you"]) {
    ASSERT_NE(playMove(a, {}, game, board.legal.back().get<int>(), "a1", board), 0) << "Ann plays her first move";
  }
  const std::string benSide = st["you"] == "S" ? "N" : "S";
  // Past the claim delay, Ben never having come: no countdown, and a claim is refused.
  std::this_thread::sleep_for(1500ms);
  const Json now = getJson(port, "/api/games/" + game, ann.cookie);
  EXPECT_TRUE(now["seats"][benSide]["claim_at"].is_null()) << now.dump();
  a.send({{"type", "claim"}, {"game", game}});
  auto refused = a.until([](const Json& m) { return m["type"] == "error" || (m["type"] == "event" && m["event"]["kind"] == "game_over"); });
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["type"], "error") << "a win claimed against a player who never came: " << refused->dump();
  EXPECT_EQ((*refused)["code"], "too_early");
  // His first move overdue, the game is aborted, unrated; Ann sees why, Ben is told wherever he is.
  auto over = a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; }, 10000ms);
  ASSERT_TRUE(over) << "the no-show's game is not aborted";
  EXPECT_EQ((*over)["event"]["result"]["reason"], "aborted");
  EXPECT_EQ((*over)["event"]["result"]["winner"], "draw");
  auto told = b.until([&](const Json& m) { return m["type"] == "aborted" && m["game"] == game; }, 5000ms);
  ASSERT_TRUE(told) << "the no-show is not told";
  EXPECT_EQ((*told)["why"], "no_show");
  std::this_thread::sleep_for(500ms);
  EXPECT_TRUE(getJson(port, "/api/players/" + ann.id)["ratings"].empty()) << "unrated";
  EXPECT_TRUE(getJson(port, "/api/players/" + ben.id)["ratings"].empty()) << "unrated";
  // The record says so after a reload too.
  EXPECT_EQ(getJson(port, "/api/games/" + game, ann.cookie)["result"]["reason"], "aborted");
  // And a rated game both came to is untouched by it: no abort once both have played.
  a.send({{"type", "invite"}, {"friend", ben.id}, {"spec", {{"rules", "kalah"}, {"rated", true}}}});
  auto second = b.untilType("invited", 5000ms);
  ASSERT_TRUE(second);
  const std::string g2 = (*second)["game"];
  const Json sa = joinGame(a, g2);
  joinGame(b, g2);
  Board b2 = fromState(sa);
  for (int i = 0; i < 2; ++i) {
    WsClient& mover = b2.toMove == sa["you"] ? a : b;
    WsClient& other = b2.toMove == sa["you"] ? b : a;
    ASSERT_NE(playMove(mover, {&other}, g2, b2.legal.back().get<int>(), "p" + std::to_string(i), b2), 0);
  }
  std::this_thread::sleep_for(3500ms);
  EXPECT_EQ(getJson(port, "/api/games/" + g2, ann.cookie)["status"], "playing");
}

TEST(ServerFairness, OneOpenSeekPerPlayerGameAndClock) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann");
  WsClient a;
  ASSERT_TRUE(a.connect(port, ann.cookie));
  const Json kalah = {{"type", "seek"}, {"rules", "kalah"}, {"quick", true}};
  a.send(kalah);
  ASSERT_TRUE(a.untilType("seeking"));
  a.send(kalah);
  auto again = a.until([](const Json& m) { return m["type"] == "seeking" || m["type"] == "error"; });
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)["type"], "error") << "a second identical seek was accepted";
  EXPECT_EQ((*again)["code"], "already_seeking");
  // From another connection of his (another tab, another instance) too.
  WsClient a2;
  ASSERT_TRUE(a2.connect(port, ann.cookie));
  a2.send(kalah);
  auto third = a2.until([](const Json& m) { return m["type"] == "seeking" || m["type"] == "error"; });
  ASSERT_TRUE(third);
  EXPECT_EQ((*third)["code"], "already_seeking");
  // Another game, or another clock, is another seek.
  a.send({{"type", "seek"}, {"rules", "mangala"}, {"quick", true}});
  auto mangala = a.until([](const Json& m) { return m["type"] == "seeking" || m["type"] == "error"; });
  ASSERT_TRUE(mangala);
  EXPECT_EQ((*mangala)["type"], "seeking") << mangala->dump();
  a.send({{"type", "seek"}, {"rules", "kalah"}, {"quick", true}, {"clock", {{"seconds", 300}, {"increment", 5}}}});
  auto clocked = a.until([](const Json& m) { return m["type"] == "seeking" || m["type"] == "error"; });
  ASSERT_TRUE(clocked);
  EXPECT_EQ((*clocked)["type"], "seeking") << clocked->dump();
}

}  // namespace
}  // namespace semis::test
