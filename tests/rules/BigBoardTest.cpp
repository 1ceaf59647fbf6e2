// Boards up to kMaxHouses x kMaxSeedsPerHouse (12 x 12, 288 seeds): the options accept them, a pit
// holds more than a byte, and positions, traces, records and drawings carry such counts unchanged.

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "rules/Notation.hpp"
#include "rules/Text.hpp"

namespace semis {
namespace {

Rules big() { return *parseRules("kalah,houses=12,seeds=12"); }

TEST(BigBoard, TwelveByTwelveIsARuleSet) {
  auto r = parseRules("kalah,houses=12,seeds=12");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->totalSeeds(), kMaxTotalSeeds);
  EXPECT_EQ(toString(*r), "kalah,houses=12,seeds=12");
  const Board board(*r);
  EXPECT_EQ(board.legalMask(board.start()), 0xFFFU);
  EXPECT_EQ(board.seedCount(board.start()), 288);
}

TEST(BigBoard, APitHoldsMoreThanAByte) {
  const Board board(big());
  // South's house 1 holds 270 seeds: ten laps of the 25 pits South sows into, then 20 more.
  auto pos = parsePositionFor(board, "270,0,0,0,0,0,0,0,0,0,0,0/18,0,0,0,0,0,0,0,0,0,0,0/0,0/S");
  ASSERT_TRUE(pos) << pos.error().message;
  Trace trace;
  ASSERT_TRUE(board.play(*pos, 1, &trace));
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace.front().kind, EventKind::Lift);
  EXPECT_EQ(trace.front().count, 270);
  EXPECT_EQ(board.seedCount(*pos), 288);
  // Laps: every pit but North's store gets 10, the first 20 after s1 one more (s2..s12, store, n1..n8).
  EXPECT_EQ(pos->pits[static_cast<std::size_t>(board.housePit(Side::South, 1))], 10);
  EXPECT_EQ(pos->pits[static_cast<std::size_t>(board.housePit(Side::North, 1))], 18 + 11);
  EXPECT_EQ(pos->pits[static_cast<std::size_t>(board.storePit(Side::South))], 11);
  // The position string carries every count back.
  auto back = parsePositionFor(board, board.toString(*pos).substr(toString(board.rules()).size() + 1));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, *pos);
}

TEST(BigBoard, AStoreAboveTwoHundredFiftyFiveCountsOnAndWins) {
  const Board board(big());
  // South's store holds 280; his last seed lands in his empty house 12 facing North's 4 seeds.
  auto pos = parsePositionFor(board, "0,0,0,0,0,0,0,0,0,0,1,0/0,0,0,0,0,0,0,0,0,0,0,0/280,7/S");
  EXPECT_FALSE(pos) << "a row of North holding nothing while North could be to move is refused";
  pos = parsePositionFor(board, "0,0,0,0,0,0,0,0,0,0,1,0/4,0,0,0,0,0,0,0,0,0,0,0/280,3/S");
  ASSERT_TRUE(pos) << pos.error().message;
  const MoveInfo info = board.apply(*pos, 11);
  EXPECT_EQ(info.captured, 5);
  ASSERT_TRUE(pos->over);
  const Outcome o = board.outcome(*pos);
  EXPECT_EQ(o.south, 285);
  EXPECT_EQ(o.north, 3);
  EXPECT_EQ(o.winner, Winner::South);
  auto text = parsePositionFor(board, "0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0/285,3/-");
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, *pos);
  EXPECT_FALSE(parsePositionFor(board, "0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0/289,-1/-"));
  EXPECT_NE(parsePositionFor(board, "0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0/300,0/-").error().message.find(
                "0..288"),
            std::string::npos);
}

TEST(BigBoard, RandomGamesConserveSeedsAndRecordsRoundTrip) {
  std::mt19937 rng(12);
  for (const char* text : {"kalah,houses=12,seeds=12", "kalah,houses=10,seeds=10,capture=empty",
                           "kalah-club,houses=12,seeds=12", "mangala,houses=12,seeds=12,sets=1",
                           "congkak,houses=12,seeds=12", "al-manqala,houses=12,seeds=12"}) {
    auto rules = parseRules(text);
    ASSERT_TRUE(rules) << text;
    Game game(*rules);
    int plies = 0;
    while (!game.over() && plies < 3000) {
      const std::uint32_t mask = game.board().legalMask(game.position());
      ASSERT_NE(mask, 0U) << text;
      std::vector<int> moves;
      for (int h = 1; h <= rules->houses; ++h) {
        if ((mask >> (h - 1)) & 1U) moves.push_back(h);
      }
      ASSERT_TRUE(game.play(moves[rng() % moves.size()])) << text;
      ASSERT_EQ(game.board().seedCount(game.position()), rules->totalSeeds()) << text;
      ++plies;
    }
    if (!game.over()) {
      ASSERT_TRUE(game.agreeSplit());
    }
    const std::string record = printRecord(Record{{}, game, {}});
    auto back = parseRecord(record);
    ASSERT_TRUE(back) << text << ": " << back.error().message;
    EXPECT_EQ(back->game.position(), game.position()) << text;
    EXPECT_EQ(back->game.plies().size(), game.plies().size()) << text;
    EXPECT_EQ(printRecord(*back), record) << text;
  }
}

TEST(BigBoard, RecordsNameHousesTenToTwelve) {
  auto rules = parseRules("kalah,houses=12,seeds=12");
  ASSERT_TRUE(rules);
  auto rec = parseRecord("[Rules \"kalah,houses=12,seeds=12\"]\n\n1. 12 2. 11 3. 10 *\n");
  ASSERT_TRUE(rec) << rec.error().message;
  ASSERT_EQ(rec->game.plies().size(), 3U);
  EXPECT_EQ(rec->game.plies()[0].move, 12);
  EXPECT_EQ(rec->game.plies()[1].move, 11);
  EXPECT_EQ(rec->game.plies()[2].move, 10);
  EXPECT_FALSE(parseRecord("[Rules \"kalah,houses=12,seeds=12\"]\n\n1. 13 *\n"));
}

TEST(BigBoard, DrawingKeepsColumnsAlignedWithThreeDigitCounts) {
  const Board board(big());
  auto pos = parsePositionFor(board, "270,0,0,0,0,0,0,0,0,0,0,0/18,0,0,0,0,0,0,0,0,0,0,0/0,0/S");
  ASSERT_TRUE(pos);
  std::istringstream lines(drawBoard(board, *pos));
  std::string northLabels, north, stores, south, southLabels;
  std::getline(lines, northLabels);
  std::getline(lines, north);
  std::getline(lines, stores);
  std::getline(lines, south);
  std::getline(lines, southLabels);
  EXPECT_EQ(north.size(), south.size());
  EXPECT_NE(south.find("[270]"), std::string::npos) << south;
  // House 12's label ends where its cell's count ends (South's row runs 1..12 from the left).
  EXPECT_EQ(southLabels.find("12"), south.rfind(']') - 2) << southLabels << "\n" << south;
  EXPECT_EQ(southLabels.find(" 1 ") + 1, south.find("270") + 2) << southLabels << "\n" << south;
}

}  // namespace
}  // namespace semis
