// Awalé on the server (issue 26): offered in the rules catalogue, paired and rated under its own
// Glicko-2 key `awale`, its record kept with its rules, its leaderboard served.

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

TEST(Awale, OfferedRatedUnderItsOwnKeyAndRecorded) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Json catalog = getJson(port, "/api/rules");
  bool listed = false;
  for (const Json& p : catalog["presets"]) {
    if (p["name"] == "awale") {
      listed = true;
      EXPECT_EQ(p["options"]["stores"], "false");
      EXPECT_EQ(p["options"]["chain_values"], "2+3");
    }
  }
  EXPECT_TRUE(listed) << catalog.dump();

  const Member ama = signUp(port, "ama"), kofi = signUp(port, "kofi");
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ama.cookie) && b.connect(port, kofi.cookie));
  const std::string game = quickPair(a, b, {{"rules", "awale"}, {"clock", nullptr}, {"rated", true}, {"quick", true}});
  ASSERT_FALSE(game.empty());
  const Json st = getJson(port, "/api/games/" + game, ama.cookie);
  EXPECT_TRUE(st["rated"].get<bool>());
  EXPECT_EQ(st["key"], "awale");
  EXPECT_EQ(st["rules"], "awale");
  const Board end = playToTheEnd(a, b, game, 26);
  ASSERT_TRUE(end.over);
  const Json done = ratedOutcome(port, game, ama.cookie, end);
  ASSERT_TRUE(done.contains("ratings"));
  const std::string winner = end.result["winner"];
  // The record: the rules, every ply played, the result.
  EXPECT_EQ(done["rules"], "awale");
  EXPECT_FALSE(done["plies"].empty()) << done.dump();
  EXPECT_EQ(done["result"]["winner"], winner);
  for (const Member* m : {&ama, &kofi}) {
    const Json p = getJson(port, "/api/players/" + m->id);
    ASSERT_EQ(p["ratings"].size(), 1U) << p.dump();
    EXPECT_EQ(p["ratings"][0]["key"], "awale");
    EXPECT_EQ(p["ratings"][0]["games"], 1);
    const Json history = getJson(port, "/api/players/" + m->id + "/history?key=awale");
    ASSERT_EQ(history["points"].size(), 1U) << history.dump();
    EXPECT_EQ(history["points"][0]["game"], game);
  }
  const Json board = getJson(port, "/api/leaderboard/awale");
  EXPECT_EQ(board["first_player"]["games"], 1) << board.dump();
}

}  // namespace
}  // namespace semis::test
