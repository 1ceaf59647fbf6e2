// Golden texts for Kalah, Kalah-club and Mangala: a position, a move, and what a player sees: the event
// trace (describeTrace) and the board after it (drawBoard), then the position string. Each text was
// checked by hand against docs/rules.md; a change in the engine's behaviour shows up here as a diff.

#include <gtest/gtest.h>

#include "Golden.hpp"

namespace semis {
namespace {

using golden::scene;

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

}  // namespace
}  // namespace semis
