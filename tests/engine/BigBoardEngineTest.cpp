// The engine on boards up to 12 x 12 (issue 24): the general search and every level move legally
// there, positions whose pits hold more than a byte are searched and probed correctly, and the
// Kalah kernel refuses the boards its bytes cannot hold.

#include <gtest/gtest.h>

#include "engine/Egdb.hpp"
#include "engine/FastBoard.hpp"
#include "engine/Levels.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

Rules big() { return *parseRules("kalah,houses=12,seeds=12"); }

// South's house 1 holds 270 seeds: more than a byte.
Position heavy(const Board& board) {
  return *parsePositionFor(board, "270,0,0,0,0,0,0,0,0,0,0,0/18,0,0,0,0,0,0,0,0,0,0,0/0,0/S");
}

TEST(BigBoardEngine, TheKalahKernelTakesAtMostSevenHouses) {
  EXPECT_TRUE(FastBoard::supports(*parseRules("kalah,houses=7,seeds=12")));
  for (const char* text : {"kalah,houses=8", "kalah,houses=10,seeds=10", "kalah,houses=12,seeds=12"}) {
    EXPECT_FALSE(FastBoard::supports(*parseRules(text))) << text;
  }
  // The widest board it plays, every house at its most: no byte carries into the next.
  const Rules r = *parseRules("kalah,houses=7,seeds=12");
  const FastBoard fast(r);
  const Board board(r);
  const FastPos p = fast.fromPosition(board.start());
  EXPECT_EQ(FastBoard::seedsLeft(p), r.totalSeeds());
}

TEST(BigBoardEngine, SearchesPositionsWithPitsAboveAByte) {
  const Board board(big());
  Search search(big(), 4);
  Limits limits;
  limits.depth = 4;
  const Position pos = heavy(board);
  const SearchResult r = search.run(pos, limits);
  EXPECT_TRUE(board.isLegal(pos, r.bestMove)) << r.bestMove;
  // The same position with the big house elsewhere is another position to the table.
  const Position other = *parsePositionFor(board, "14,0,0,0,0,0,0,0,0,0,0,0/18,0,0,0,0,0,0,0,0,0,0,0/256,0/S");
  EXPECT_NE(search.hash(pos), search.hash(other));
}

TEST(BigBoardEngine, EndgameTablesSkipPitsAboveAByte) {
  const Rules rules = big();
  auto db = Egdb::build(rules, 2, 1);
  ASSERT_TRUE(db) << db.error().message;
  const Board board(rules);
  // 258 seeds in the houses, far above the table's 2, though the low bytes say 0 + 1 + 1: the
  // position the table holds for s2=1, n1=1 (a real value) is not this one.
  const Position pos = *parsePositionFor(board, "256,1,0,0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0,0,0,0/30,0/S");
  const Position image = *parsePositionFor(board, "0,1,0,0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0,0,0,0/286,0/S");
  ASSERT_NE(db->probe(board, image), Egdb::kUnknown);
  EXPECT_EQ(db->probe(board, pos), Egdb::kUnknown);
  const Position small = *parsePositionFor(board, "0,0,0,0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0,0,0,0/286,0/S");
  EXPECT_NE(db->probe(board, small), Egdb::kUnknown);
}

TEST(BigBoardEngine, EveryLevelMovesLegallyOnTwelveByTwelve) {
  const Board board(big());
  for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    LevelOptions options;
    options.hardSeconds = 0.02;
    options.tableMegabytes = 4;
    Player player(big(), level, options);
    for (const Position& pos : {board.start(), heavy(board)}) {
      const int house = player.choose(pos);
      EXPECT_TRUE(board.isLegal(pos, house)) << levelName(level) << " chose " << house;
    }
  }
}

}  // namespace
}  // namespace semis::engine
