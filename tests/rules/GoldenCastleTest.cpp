// Golden texts for Mangala with castles, Al-manqala and Congkak: a position, a move, and what a player sees: the event
// trace (describeTrace) and the board after it (drawBoard), then the position string. Each text was
// checked by hand against docs/rules.md; a change in the engine's behaviour shows up here as a diff.

#include <gtest/gtest.h>

#include "Golden.hpp"

namespace semis {
namespace {

using golden::scene;

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
