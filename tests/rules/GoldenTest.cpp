// Golden texts: one position per rule of every preset, a move, and what a player sees: the event
// trace (describeTrace) and the board after it (drawBoard), then the position string. Each text was
// checked by hand against RULES.md; a change in the engine's behaviour shows up here as a diff.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "rules/Board.hpp"
#include "rules/Text.hpp"

namespace semis {
namespace {

std::string scene(const char* position, std::initializer_list<int> moves) {
  Rules rules;
  auto pos = parsePosition(position, &rules);
  if (!pos) return "bad position: " + pos.error().message;
  const Board board(rules);
  std::string out;
  for (int m : moves) {
    Trace trace;
    if (auto r = board.play(*pos, m, &trace); !r) return out + "illegal: " + r.error().message;
    out += describeTrace(board, trace) + drawBoard(board, *pos);
  }
  return "\n" + out + board.toString(*pos) + "\n";
}

TEST(Golden, KalahLapOf13SeedsCapturesIntoTheEmptiedOrigin) {
  EXPECT_EQ(scene("kalah/13,1,0,0,0,0/2,2,2,2,2,2/0,22/S", {1}), R"(
lift s1 (13)
drop s2
drop s3
drop s4
drop s5
drop s6
drop S store
drop n1
drop n2
drop n3
drop n4
drop n5
drop n6
drop s1
capture n6 (3) -> S store
capture s1 (1) -> S store
       6   5   4   3   2   1    North to move
     [ 0][ 3][ 3][ 3][ 3][ 3]
 22                            5
     [ 0][ 2][ 1][ 1][ 1][ 1]
       1   2   3   4   5   6    South
kalah/0,2,1,1,1,1/3,3,3,3,3,0/5,22/N
)");
}

TEST(Golden, KalahLastSeedInTheStorePlaysAgain) {
  EXPECT_EQ(scene("kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S", {3, 6}), R"(
lift s3 (4)
drop s4
drop s5
drop s6
drop S store
extra_turn South
       6   5   4   3   2   1    North
     [ 4][ 4][ 4][ 4][ 4][ 4]
  0                            1
     [ 4][ 4][ 0][ 5][ 5][ 5]
       1   2   3   4   5   6    South to move
lift s6 (5)
drop S store
drop n1
drop n2
drop n3
drop n4
       6   5   4   3   2   1    North to move
     [ 4][ 4][ 5][ 5][ 5][ 5]
  0                            2
     [ 4][ 4][ 0][ 5][ 5][ 0]
       1   2   3   4   5   6    South
kalah/4,4,0,5,5,0/5,5,5,5,4,4/2,0/N
)");
}

TEST(Golden, KalahStandardCaptureNeedsSeedsOpposite) {
  EXPECT_EQ(scene("kalah/1,0,0,0,0,0/0,0,0,0,0,3/20,24/S", {1}), R"(
lift s1 (1)
drop s2
       6   5   4   3   2   1    North to move
     [ 3][ 0][ 0][ 0][ 0][ 0]
 24                           20
     [ 0][ 1][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
kalah/0,1,0,0,0,0/0,0,0,0,0,3/20,24/N
)");
}

TEST(Golden, KalahCaptureEmptyTakesTheLoneSeed) {
  EXPECT_EQ(scene("kalah,capture=empty/1,0,0,0,0,2/0,0,0,0,0,3/20,22/S", {1}), R"(
lift s1 (1)
drop s2
capture s2 (1) -> S store
       6   5   4   3   2   1    North to move
     [ 3][ 0][ 0][ 0][ 0][ 0]
 22                           21
     [ 0][ 0][ 0][ 0][ 0][ 2]
       1   2   3   4   5   6    South
kalah,capture=empty/0,0,0,0,0,2/0,0,0,0,0,3/21,22/N
)");
}

TEST(Golden, KalahImmediateEndSendsLeftoversToTheirOwner) {
  EXPECT_EQ(scene("kalah/0,0,0,0,0,2/0,0,0,0,0,8/18,20/S", {6}), R"(
lift s6 (2)
drop S store
drop n1
sweep n1 (1) -> N store
sweep n6 (8) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 29                           19
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
kalah/0,0,0,0,0,0/0,0,0,0,0,0/19,29/-
)");
}

TEST(Golden, KalahClubOpponentMovesAndFeedsTheEmptyRow) {
  EXPECT_EQ(scene("kalah-club/0,0,0,0,0,2/0,0,0,0,0,8/18,20/S", {6, 6}), R"(
lift s6 (2)
drop S store
drop n1
       6   5   4   3   2   1    North to move
     [ 8][ 0][ 0][ 0][ 0][ 1]
 20                           19
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
lift n6 (8)
drop N store
drop s1
drop s2
drop s3
drop s4
drop s5
drop s6
drop n1
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 2]
 21                           19
     [ 1][ 1][ 1][ 1][ 1][ 1]
       1   2   3   4   5   6    South to move
kalah-club/1,1,1,1,1,1/2,0,0,0,0,0/19,21/S
)");
}

TEST(Golden, KalahClubEndsWhenThePlayerToMoveHasNoSeeds) {
  EXPECT_EQ(scene("kalah-club/0,0,0,0,0,1/0,0,0,0,0,3/20,24/S", {6}), R"(
lift s6 (1)
drop S store
extra_turn South
sweep n6 (3) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 27                           21
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
kalah-club/0,0,0,0,0,0/0,0,0,0,0,0/21,27/-
)");
}

TEST(Golden, KalahLeftoversEmptierGivesThemToTheEmptier) {
  EXPECT_EQ(scene("kalah,leftovers=emptier/0,0,0,0,0,1/1,2,0,0,0,0/20,24/S", {6}), R"(
lift s6 (1)
drop S store
extra_turn South
sweep n1 (1) -> S store
sweep n2 (2) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 24                           24
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
kalah,leftovers=emptier/0,0,0,0,0,0/0,0,0,0,0,0/24,24/-
)");
}

TEST(Golden, KalahLeftoversEmptierAlsoAfterACapture) {
  EXPECT_EQ(scene("kalah,leftovers=emptier/1,0,0,0,0,0/2,0,0,0,3,0/20,22/S", {1}), R"(
lift s1 (1)
drop s2
capture n5 (3) -> S store
capture s2 (1) -> S store
sweep n1 (2) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 22                           26
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
kalah,leftovers=emptier/0,0,0,0,0,0/0,0,0,0,0,0/26,22/-
)");
}

TEST(Golden, KalahEmptierByCaptureFalseLeavesThemToTheOwner) {
  EXPECT_EQ(scene("kalah,leftovers=emptier,emptier_by_capture=false/1,0,0,0,0,0/2,0,0,0,3,0/20,22/S", {1}), R"(
lift s1 (1)
drop s2
capture n5 (3) -> S store
capture s2 (1) -> S store
sweep n1 (2) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 24                           24
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
kalah,leftovers=emptier,emptier_by_capture=false/0,0,0,0,0,0/0,0,0,0,0,0/24,24/-
)");
}

TEST(Golden, MangalaFirstStoneGoesBackIntoTheOrigin) {
  EXPECT_EQ(scene("mangala/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S", {1}), R"(
lift s1 (4)
drop s1
drop s2
drop s3
drop s4
       6   5   4   3   2   1    North to move
     [ 4][ 4][ 4][ 4][ 4][ 4]
  0                            0
     [ 1][ 5][ 5][ 5][ 4][ 4]
       1   2   3   4   5   6    South
mangala/1,5,5,5,4,4/4,4,4,4,4,4/0,0/N
)");
}

TEST(Golden, MangalaSingleStoneMovesOnAndCapturesFromOwnEmptyHouse) {
  EXPECT_EQ(scene("mangala/0,1,0,0,0,5/4,4,3,4,4,4/10,9/S", {2}), R"(
lift s2 (1)
drop s3
capture n4 (4) -> S store
capture s3 (1) -> S store
       6   5   4   3   2   1    North to move
     [ 4][ 4][ 0][ 3][ 4][ 4]
  9                           15
     [ 0][ 0][ 0][ 0][ 0][ 5]
       1   2   3   4   5   6    South
mangala/0,0,0,0,0,5/4,4,3,0,4,4/15,9/N
)");
}

TEST(Golden, MangalaEvenCountInAnOpponentHouseIsCaptured) {
  EXPECT_EQ(scene("mangala/0,1,0,0,0,5/4,4,3,4,4,4/10,9/S", {6}), R"(
lift s6 (5)
drop s6
drop S store
drop n1
drop n2
drop n3
capture n3 (4) -> S store
       6   5   4   3   2   1    North to move
     [ 4][ 4][ 4][ 0][ 5][ 5]
  9                           15
     [ 0][ 1][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South
mangala/0,1,0,0,0,1/5,5,0,4,4,4/15,9/N
)");
}

TEST(Golden, MangalaSingleStoneFromHouseSixEntersTheTreasure) {
  EXPECT_EQ(scene("mangala/1,0,3,0,0,1/4,4,4,4,4,4/10,9/S", {6}), R"(
lift s6 (1)
drop S store
extra_turn South
       6   5   4   3   2   1    North
     [ 4][ 4][ 4][ 4][ 4][ 4]
  9                           11
     [ 1][ 0][ 3][ 0][ 0][ 0]
       1   2   3   4   5   6    South to move
mangala/1,0,3,0,0,0/4,4,4,4,4,4/11,9/S
)");
}

TEST(Golden, MangalaEmptyRowTakesTheOtherRegion) {
  EXPECT_EQ(scene("mangala/0,0,0,0,0,1/1,2,0,0,0,0/20,24/S", {6}), R"(
lift s6 (1)
drop S store
extra_turn South
sweep n1 (1) -> S store
sweep n2 (2) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 24                           24
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
mangala/0,0,0,0,0,0/0,0,0,0,0,0/24,24/-
)");
}

TEST(Golden, MangalaRowEmptiedByACaptureTakesTheOtherRegion) {
  EXPECT_EQ(scene("mangala/1,0,0,0,0,3/1,0,0,0,0,0/20,23/S", {6}), R"(
lift s6 (3)
drop s6
drop S store
drop n1
capture n1 (2) -> S store
sweep s1 (1) -> N store
sweep s6 (1) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 25                           23
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
mangala/0,0,0,0,0,0/0,0,0,0,0,0/23,25/-
)");
}

TEST(Golden, CastleMadeOnExactlyThreeSendsItsStonesToTheOwner) {
  EXPECT_EQ(scene("mangala-castle/1,0,0,0,0,3/4,2,4,4,4,4/12,10/S", {6}), R"(
lift s6 (3)
drop s6
drop n1
drop n2
castle n2 for South
capture n2 (3) -> S store
       6   5   4   3   2   1    North to move
     [ 4][ 4][ 4][ 4]{ 0}[ 5]
 10                           15
     [ 1][ 0][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South
mangala-castle/1,0,0,0,0,1/5,0,4,4,4,4/15,10/N/castle=n2,-
)");
}

TEST(Golden, CastleNeverOnTheOpponentsHouseSix) {
  EXPECT_EQ(scene("mangala-castle/0,0,0,0,0,7/4,4,4,4,4,2/10,9/S", {6}), R"(
lift s6 (7)
drop s6
drop n1
drop n2
drop n3
drop n4
drop n5
drop n6
       6   5   4   3   2   1    North to move
     [ 3][ 5][ 5][ 5][ 5][ 5]
  9                           10
     [ 0][ 0][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South
mangala-castle/0,0,0,0,0,1/5,5,5,5,5,3/10,9/N/castle=-,-
)");
}

TEST(Golden, CastleOnlyOnePerSet) {
  EXPECT_EQ(scene("mangala-castle/1,0,0,0,0,3/4,2,4,4,0,4/14,12/S/castle=n5,-", {6}), R"(
lift s6 (3)
drop s6
drop n1
drop n2
       6   5   4   3   2   1    North to move
     [ 4]{ 0}[ 4][ 4][ 3][ 5]
 12                           14
     [ 1][ 0][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South
mangala-castle/1,0,0,0,0,1/5,3,4,4,0,4/14,12/N/castle=n5,-
)");
}

TEST(Golden, CastleStonesSownIntoItGoToItsOwner) {
  EXPECT_EQ(scene("mangala-castle/1,0,0,0,0,0/2,0,4,4,4,4/15,14/N/castle=n2,-", {1}), R"(
lift n1 (2)
drop n1
drop n2 -> S store
       6   5   4   3   2   1    North
     [ 4][ 4][ 4][ 4]{ 0}[ 1]
 14                           16
     [ 1][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South to move
mangala-castle/1,0,0,0,0,0/1,0,4,4,4,4/16,14/S/castle=n2,-
)");
}

TEST(Golden, CastleSowTreasuresKeepsTheOwnTreasureAndExtraTurn) {
  EXPECT_EQ(scene("mangala-castle,castle_sow_treasures=true/1,0,0,0,0,2/4,4,4,4,4,4/10,11/S", {6}), R"(
lift s6 (2)
drop s6
drop S store
extra_turn South
       6   5   4   3   2   1    North
     [ 4][ 4][ 4][ 4][ 4][ 4]
 11                           11
     [ 1][ 0][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South to move
mangala-castle,castle_sow_treasures=true/1,0,0,0,0,1/4,4,4,4,4,4/11,11/S/castle=-,-
)");
}

TEST(Golden, CastleCountsAsEmptyAtTheEnd) {
  EXPECT_EQ(scene("mangala-castle/0,0,0,0,0,1/0,0,0,0,0,2/20,25/S/castle=-,s2", {6}), R"(
lift s6 (1)
drop n1
sweep n1 (1) -> N store
sweep n6 (2) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 28                           20
     [ 0]{ 0}[ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
mangala-castle/0,0,0,0,0,0/0,0,0,0,0,0/20,28/-/castle=-,s2
)");
}

TEST(Golden, AlManqalaChainCaptureRunsBackwardsAcrossRows) {
  EXPECT_EQ(scene("al-manqala/0,0,0,4,1,3,1/1,7,7,7,7,7,7/20,26/S", {4}), R"(
lift s4 (4)
drop s5
drop s6
drop s7
drop n1
capture n1 (2) -> S store
capture s7 (2) -> S store
capture s6 (4) -> S store
capture s5 (2) -> S store
must_feed North
       7   6   5   4   3   2   1    North to move
     [ 7][ 7][ 7][ 7][ 7][ 7][ 0]
 26                               30  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6   7    South
al-manqala/0,0,0,0,0,0,0/0,7,7,7,7,7,7/30,26/N
)");
}

TEST(Golden, AlManqalaMoverMustFeedAnEmptyRow) {
  EXPECT_EQ(scene("al-manqala/1,0,0,0,0,0,5/0,0,0,0,0,0,0/46,46/S", {7}), R"(
lift s7 (5)
drop n1
drop n2
drop n3
drop n4
drop n5
       7   6   5   4   3   2   1    North to move
     [ 0][ 0][ 1][ 1][ 1][ 1][ 1]
 46                               46  (captured)
     [ 1][ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6   7    South
al-manqala/1,0,0,0,0,0,0/1,1,1,1,1,0,0/46,46/N
)");
}

TEST(Golden, AlManqalaEmptyRowPassesAndTheMoverMustFeed) {
  EXPECT_EQ(scene("al-manqala/0,0,0,0,0,3,1/1,0,0,0,0,0,0/47,46/S", {7}), R"(
lift s7 (1)
drop n1
capture n1 (2) -> S store
pass North
must_feed South
       7   6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0][ 0]
 46                               49  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 3][ 0]
       1   2   3   4   5   6   7    South to move
al-manqala/0,0,0,0,0,3,0/0,0,0,0,0,0,0/49,46/S
)");
}

TEST(Golden, AlManqalaStarvedPlayerTakesEverySeedLeft) {
  EXPECT_EQ(scene("al-manqala/0,0,0,0,0,1,1/1,0,0,0,0,0,0/46,49/S", {7}), R"(
lift s7 (1)
drop n1
capture n1 (2) -> S store
pass North
sweep s6 (1) -> N store
game_end
       7   6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0][ 0]
 50                               48  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6   7    South
game over
al-manqala/0,0,0,0,0,0,0/0,0,0,0,0,0,0/48,50/-
)");
}

TEST(Golden, AlManqalaFiftyWinsAtOnce) {
  EXPECT_EQ(scene("al-manqala/5,0,0,0,0,0,1/1,5,5,5,5,5,5/48,13/S", {7}), R"(
lift s7 (1)
drop n1
capture n1 (2) -> S store
game_end
       7   6   5   4   3   2   1    North
     [ 5][ 5][ 5][ 5][ 5][ 5][ 0]
 13                               50  (captured)
     [ 5][ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6   7    South
game over
al-manqala/5,0,0,0,0,0,0/0,5,5,5,5,5,5/50,13/-
)");
}

TEST(Golden, CongkakRelayLiftsAndSowsOnThenCaptures) {
  EXPECT_EQ(scene("congkak/2,0,1,0,0,0,0/7,7,7,7,7,7,7/24,22/S", {1}), R"(
lift s1 (2)
drop s2
drop s3
relay s3 (2)
drop s4
drop s5
capture n3 (7) -> S store
capture s5 (1) -> S store
       1   2   3   4   5   6   7    North to move
     [ 7][ 7][ 0][ 7][ 7][ 7][ 7]
 32                               22
     [ 0][ 0][ 0][ 1][ 0][ 1][ 0]
       7   6   5   4   3   2   1    South
congkak/0,1,0,1,0,0,0/7,7,0,7,7,7,7/32,22/N
)");
}

TEST(Golden, CongkakOpponentEmptyHouseEndsTheTurn) {
  EXPECT_EQ(scene("congkak/1,0,0,0,0,0,2/0,7,7,7,7,7,7/29,24/S", {7}), R"(
lift s7 (2)
drop S store
drop n1
       1   2   3   4   5   6   7    North to move
     [ 1][ 7][ 7][ 7][ 7][ 7][ 7]
 30                               24
     [ 0][ 0][ 0][ 0][ 0][ 0][ 1]
       7   6   5   4   3   2   1    South
congkak/1,0,0,0,0,0,0/1,7,7,7,7,7,7/30,24/N
)");
}

TEST(Golden, CongkakCaptureEmptyIsTheDefault) {
  EXPECT_EQ(scene("congkak/1,0,0,0,0,1,0/0,7,7,7,7,7,7/29,25/S", {6}), R"(
lift s6 (1)
drop s7
capture s7 (1) -> S store
       1   2   3   4   5   6   7    North to move
     [ 0][ 7][ 7][ 7][ 7][ 7][ 7]
 30                               25
     [ 0][ 0][ 0][ 0][ 0][ 0][ 1]
       7   6   5   4   3   2   1    South
congkak/1,0,0,0,0,0,0/0,7,7,7,7,7,7/30,25/N
)");
}

TEST(Golden, CongkakCaptureStandardNeedsSeedsOpposite) {
  EXPECT_EQ(scene("congkak,capture=standard/1,0,0,0,0,1,0/0,7,7,7,7,7,7/29,25/S", {6}), R"(
lift s6 (1)
drop s7
       1   2   3   4   5   6   7    North to move
     [ 0][ 7][ 7][ 7][ 7][ 7][ 7]
 29                               25
     [ 1][ 0][ 0][ 0][ 0][ 0][ 1]
       7   6   5   4   3   2   1    South
congkak,capture=standard/1,0,0,0,0,0,1/0,7,7,7,7,7,7/29,25/N
)");
}

TEST(Golden, CongkakRelayIsCutAfterRelayLimitLaps) {
  EXPECT_EQ(scene("congkak,relay_limit=1/2,10,10,0,2,12,4/10,10,10,10,10,1,1/6,0/N", {4}), R"(
lift n4 (10)
drop n5
drop n6
drop n7
drop N store
drop s1
drop s2
drop s3
drop s4
drop s5
drop s6
relay s6 (13)
drop s7
drop n1
drop n2
drop n3
drop n4
drop n5
drop n6
drop n7
drop N store
drop s1
drop s2
drop s3
drop s4
relay_cut at s4
       1   2   3   4   5   6   7    North
     [11][11][11][ 1][12][ 3][ 3]
  6                                2
     [ 5][ 0][ 3][ 2][12][12][ 4]
       7   6   5   4   3   2   1    South to move
congkak,relay_limit=1/4,12,12,2,3,0,5/11,11,11,1,12,3,3/6,2/S
)");
}

}  // namespace
}  // namespace semis
