// Results told and never lost (issue 27.10), and refusals counted by code in /metrics: a rated
// result is pushed to both players (`ratings`), a rated end that was never rated (its instance died
// before rating it) is rated by the sweep at start without anyone loading the game, and every
// `error` sent is counted under its code.

#include <gtest/gtest.h>

#include <cstdlib>
#include <sqlite3.h>

#include "ClubPlay.hpp"
#include "ClusterPlay.hpp"

namespace semis::test {
namespace {

// A rated game between two members, both of whom moved, ended by `resigner`'s resignation.
struct RatedEnd {
  std::string game;
  std::string winnerSide;
};

RatedEnd playRatedAndResign(WsClient& a, WsClient& b, const Member& ann) {
  RatedEnd out;
  out.game = quickPair(a, b, {{"rules", "kalah"}, {"rated", true}});
  if (out.game.empty()) return out;
  const Json sa = joinGame(a, out.game);
  Board board = fromState(joinGame(b, out.game));
  const std::string annSide = sa["seats"]["S"].value("id", "") == ann.id ? "S" : "N";
  std::mt19937 rng(3);
  for (int i = 0; i < 2 && !board.over; ++i) {
    WsClient& mover = board.toMove == annSide ? a : b;
    WsClient& other = board.toMove == annSide ? b : a;
    EXPECT_GT(playMove(mover, {&other}, out.game, pickHouse(board.legal, rng), "m" + std::to_string(i), board), 0);
  }
  a.send({{"type", "resign"}, {"game", out.game}});
  out.winnerSide = annSide == "S" ? "N" : "S";
  return out;
}

TEST(Results, BothPlayersAreToldTheirNewRatingsAtOnce) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ann.cookie) && b.connect(port, ben.cookie));
  const RatedEnd end = playRatedAndResign(a, b, ann);
  ASSERT_FALSE(end.game.empty());
  for (WsClient* ws : {&a, &b}) {
    auto told = ws->until([&](const Json& m) { return m["type"] == "ratings" && m["game"] == end.game; }, 10000ms);
    ASSERT_TRUE(told) << "no ratings message";
    const Json& r = (*told)["ratings"];
    EXPECT_EQ((*told)["key"], "kalah");
    EXPECT_GT(r[end.winnerSide]["change"].get<double>(), 0);
    EXPECT_LT(r[end.winnerSide == "S" ? "N" : "S"]["change"].get<double>(), 0);
    // The same figures as the game's state.
    const Json st = getJson(port, "/api/games/" + end.game, ann.cookie);
    EXPECT_EQ(st["ratings"], r);
  }
}

TEST(Results, ARatedEndNeverRatedIsRatedAtStartWithoutAnyoneLoadingIt) {
  // (It wipes the ratings in the SQLite file between two runs; the sweep's query on PostgreSQL is
  // the store's, run by the store suites.)
  const char* mode = std::getenv("SEMIS_SERVER_TEST_DB");
  if (mode != nullptr && (std::string(mode) == "postgresql" || std::string(mode) == "cluster"))
    GTEST_SKIP() << "edits the SQLite file directly";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  std::string game;
  {
    WsClient a, b;
    ASSERT_TRUE(a.connect(port, ann.cookie) && b.connect(port, ben.cookie));
    game = playRatedAndResign(a, b, ann).game;
    ASSERT_FALSE(game.empty());
    ASSERT_TRUE(a.until([&](const Json& m) { return m["type"] == "ratings" && m["game"] == game; }, 10000ms));
  }
  ASSERT_EQ(server.terminate(), 0);
  // As if the instance had died between the end and its rating: the end is stored, its rating not.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(server.db().c_str(), &db), SQLITE_OK);
  const std::string wipe = "DELETE FROM rated_results; DELETE FROM ratings; DELETE FROM rating_points;";
  EXPECT_EQ(sqlite3_exec(db, wipe.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);

  ASSERT_TRUE(server.start()) << server.logs();
  // Nobody loads the game: the profiles alone show the rating come back.
  EXPECT_TRUE(eventually([&] { return getJson(port, "/api/players/" + ann.id)["ratings"].size() == 1; }, 10000ms))
      << "the unrated end was not swept\n"
      << server.logs();
  EXPECT_EQ(getJson(port, "/api/players/" + ben.id)["ratings"][0]["games"], 1);
  EXPECT_EQ(metricOf(port, "semis_ratings_swept_total"), 1);
}

TEST(Results, MetricsCountRefusalsByCode) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  if (onCluster()) GTEST_SKIP() << "each instance counts its own refusals: the proxy spreads these over three";
  const auto port = server.port();
  WsClient ws;
  ASSERT_TRUE(ws.connect(port));
  for (int i = 0; i < 2; ++i) {
    ws.send({{"type", "teleport"}});
    ASSERT_TRUE(ws.untilType("error"));
  }
  ws.send({{"type", "join"}, {"game", "nosuchgame"}});
  ASSERT_TRUE(ws.untilType("error"));
  EXPECT_EQ(http(port, "GET", "/api/games/nosuchgame").status, 404);
  const std::string body = http(port, "GET", "/metrics").body;
  EXPECT_NE(body.find("semis_refusals_total{via=\"ws\",code=\"unknown_type\"} 2\n"), std::string::npos) << body;
  EXPECT_NE(body.find("semis_refusals_total{via=\"ws\",code=\"not_found\"} 1\n"), std::string::npos) << body;
  EXPECT_NE(body.find("semis_refusals_total{via=\"http\",code=\"not_found\"} 1\n"), std::string::npos) << body;
}

}  // namespace
}  // namespace semis::test
