// Bots' contests as data (contests/Contest.hpp, ContestJson.hpp): the round robin plays every pair
// on both sides with no bot twice in a round; a match alternates sides; the table counts win 1,
// draw 1/2 and the seeds; a stored body reads back the same.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "contests/ContestJson.hpp"

namespace semis::server {
namespace {

TEST(RoundRobin, EveryPairPlaysBothSidesOnceAndNobodyTwiceInARound) {
  for (int n = 2; n <= 9; ++n) {
    const auto games = roundRobin(n, 1);
    EXPECT_EQ(games.size(), static_cast<std::size_t>(n * (n - 1))) << n;
    std::map<std::pair<int, int>, int> met;  // (south, north) -> times
    std::map<int, std::set<int>> inRound;
    std::map<int, int> souths;
    int lastRound = 0;
    for (const ContestGame& g : games) {
      EXPECT_NE(g.seats[0], g.seats[1]);
      EXPECT_GE(g.round, lastRound) << "in round order";
      lastRound = g.round;
      met[{g.seats[0], g.seats[1]}]++;
      souths[g.seats[0]]++;
      for (int s : g.seats) EXPECT_TRUE(inRound[g.round].insert(s).second) << "n=" << n << " round " << g.round;
    }
    for (int a = 0; a < n; ++a) {
      EXPECT_EQ(souths[a], n - 1) << "as many games South as North";
      for (int b = 0; b < n; ++b) {
        if (a != b) {
          EXPECT_EQ((met[{a, b}]), 1) << a << " v " << b;
        }
      }
    }
    const int perCycle = n % 2 == 0 ? n - 1 : n;
    EXPECT_EQ(lastRound, 2 * perCycle) << n;
  }
}

TEST(RoundRobin, CyclesRepeatAndBadSizesMakeNothing) {
  EXPECT_EQ(roundRobin(3, 2).size(), 12U);
  EXPECT_EQ(roundRobin(3, 2).back().round, 12);
  EXPECT_TRUE(roundRobin(1, 1).empty());
  EXPECT_TRUE(roundRobin(4, 0).empty());
}

TEST(MatchSchedule, SidesAlternateOneGameARound) {
  const auto games = matchSchedule(3);
  ASSERT_EQ(games.size(), 3U);
  EXPECT_EQ(games[0].seats, (std::array<int, 2>{0, 1}));
  EXPECT_EQ(games[1].seats, (std::array<int, 2>{1, 0}));
  EXPECT_EQ(games[2].seats, (std::array<int, 2>{0, 1}));
  EXPECT_EQ(games[2].round, 3);
}

ContestGame over(int round, int south, int north, ContestGame::Winner w, int seedsS, int seedsN) {
  ContestGame g;
  g.round = round;
  g.seats = {south, north};
  g.state = ContestGame::State::Over;
  g.winner = w;
  g.seeds = {seedsS, seedsN};
  g.reason = "normal";
  return g;
}

Contest threeBots() {
  Contest c;
  c.id = "t1";
  c.kind = ContestKind::Tournament;
  c.name = "Spring";
  c.owner = "owner";
  c.rules = *parseRules("kalah,houses=4,seeds=3");
  c.bots = {{"a", "Ada"}, {"b", "Bea"}, {"c", "Cy"}};
  using W = ContestGame::Winner;
  c.games = {over(1, 0, 1, W::South, 15, 9), over(2, 2, 0, W::Draw, 12, 12), over(3, 1, 2, W::North, 10, 14)};
  ContestGame pending;
  pending.round = 4;
  pending.seats = {1, 0};
  c.games.push_back(pending);
  return c;
}

TEST(Standings, WinOneDrawHalfSeedsForAndAgainst) {
  const Contest c = threeBots();
  const auto table = standings(c);
  ASSERT_EQ(table.size(), 3U);
  // Ada: W (15-9), D (12-12) = 1.5; Cy: D, W (14-10) = 1.5 with +4 against Ada's +6; Bea: 0.
  EXPECT_EQ(table[0].entrant, 0);
  EXPECT_EQ(table[0].halfPoints, 3);
  EXPECT_EQ(table[0].seedsFor, 27);
  EXPECT_EQ(table[0].seedsAgainst, 21);
  EXPECT_EQ(table[1].entrant, 2);
  EXPECT_EQ(table[1].halfPoints, 3);
  EXPECT_EQ(table[1].wins, 1);
  EXPECT_EQ(table[1].draws, 1);
  EXPECT_EQ(table[2].entrant, 1);
  EXPECT_EQ(table[2].halfPoints, 0);
  EXPECT_EQ(table[2].losses, 2);
  EXPECT_EQ(table[2].games, 2) << "the pending game is not counted";
  EXPECT_EQ(currentRound(c.games), 4);
}

TEST(ContestJson, TheStoredBodyReadsBackAndTheTableIsShown) {
  const Contest c = threeBots();
  const auto row = contestRow(c, 1234);
  EXPECT_EQ(row.kind, "tournament");
  EXPECT_EQ(row.status, "running");
  const auto back = contestOf(row);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->games.size(), 4U);
  EXPECT_EQ(back->games[1].winner, ContestGame::Winner::Draw);
  EXPECT_EQ(back->games[3].state, ContestGame::State::Pending);
  EXPECT_EQ(back->bots[2].name, "Cy");
  EXPECT_EQ(toString(back->rules), toString(c.rules));
  const Json j = contestJson(*back);
  EXPECT_EQ(j["key"], "bots-kalah-4x3");
  EXPECT_EQ(j["table"][0]["name"], "Ada");
  EXPECT_EQ(j["table"][0]["points"], 1.5);
  EXPECT_EQ(j["table"][2]["points"], 0);
  EXPECT_EQ(j["games"][3]["state"], "pending");
  auto bad = row;
  bad.body = R"({"move_ms":5000,"bots":[],"games":[{"round":1}]})";
  EXPECT_FALSE(contestOf(bad)) << "a body that does not read back is refused, not guessed";
}

TEST(ContestRules, KalahBoardsOf4To12HousesAnd3To12Seeds) {
  EXPECT_TRUE(contestRules(*parseRules("kalah,houses=4,seeds=3")));
  EXPECT_TRUE(contestRules(*parseRules("kalah,houses=12,seeds=12")));
  EXPECT_FALSE(contestRules(*parseRules("kalah,houses=3,seeds=3")));
  EXPECT_FALSE(contestRules(*parseRules("mangala")));
}

}  // namespace
}  // namespace semis::server
