// Golden texts for Awalé (oware abapa, the `awale` preset) and each of its variants: a position, the
// moves, and what a player sees (docs/rules.md, "awale"). Each text was checked by hand against
// docs/rules.md; a change in the engine's behaviour shows up here as a diff.

#include <gtest/gtest.h>

#include "Golden.hpp"
#include "rules/Game.hpp"

namespace semis {
namespace {

using golden::scene;

// 13 seeds from s6: the 12th and 13th go past s6 to n1 and n2, both now 3, taken backwards.
TEST(GoldenAwale, AwaleLapOf12OrMoreSkipsTheEmptiedHouse) {
  EXPECT_EQ(scene("awale/0,0,0,0,0,13/1,1,1,1,1,1/10,19/S", {6}), R"(
lift s6 (13)
drop n1
drop n2
drop n3
drop n4
drop n5
drop n6
drop s1
drop s2
drop s3
drop s4
drop s5
drop n1
drop n2
capture n2 (3) -> S store
capture n1 (3) -> S store
       6   5   4   3   2   1    North to move
     [ 2][ 2][ 2][ 2][ 0][ 0]
 19                           16  (captured)
     [ 1][ 1][ 1][ 1][ 1][ 0]
       1   2   3   4   5   6    South
awale/1,1,1,1,1,0/0,0,2,2,2,2/16,19/N
)");
}

// n4, n3, n2 and n1 end at 2 or 3: all four are taken; the chain stops at the row's end (s6).
TEST(GoldenAwale, AwaleTakesTwosAndThreesBackwardsAlongTheOpponentsRow) {
  EXPECT_EQ(scene("awale/2,0,0,0,0,4/1,2,1,1,5,1/15,16/S", {6}), R"(
lift s6 (4)
drop n1
drop n2
drop n3
drop n4
capture n4 (2) -> S store
capture n3 (2) -> S store
capture n2 (3) -> S store
capture n1 (2) -> S store
       6   5   4   3   2   1    North to move
     [ 1][ 5][ 0][ 0][ 0][ 0]
 16                           24  (captured)
     [ 2][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
awale/2,0,0,0,0,0/0,0,0,0,5,1/24,16/N
)");
}

// n2 ends at 4: the chain stops there and n1, at 2, stays.
TEST(GoldenAwale, AwaleChainStopsAtAHouseOfAnotherCount) {
  EXPECT_EQ(scene("awale/2,0,0,0,0,4/1,3,1,1,5,1/15,15/S", {6}), R"(
lift s6 (4)
drop n1
drop n2
drop n3
drop n4
capture n4 (2) -> S store
capture n3 (2) -> S store
       6   5   4   3   2   1    North to move
     [ 1][ 5][ 0][ 0][ 4][ 2]
 15                           19  (captured)
     [ 2][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
awale/2,0,0,0,0,0/2,4,0,0,5,1/19,15/N
)");
}

// chain_values=2+3+4: n2 at 4 is taken too; 25 captured ends the game, seeds left stay.
TEST(GoldenAwale, AwaleChainValuesOptionTakesFoursToo) {
  EXPECT_EQ(scene("awale,chain_values=2+3+4/2,0,0,0,0,4/1,3,1,1,5,1/15,15/S", {6}), R"(
lift s6 (4)
drop n1
drop n2
drop n3
drop n4
capture n4 (2) -> S store
capture n3 (2) -> S store
capture n2 (4) -> S store
capture n1 (2) -> S store
game_end
       6   5   4   3   2   1    North
     [ 1][ 5][ 0][ 0][ 0][ 0]
 15                           25  (captured)
     [ 2][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale,chain_values=2+3+4/2,0,0,0,0,0/0,0,0,0,5,1/25,15/-
)");
}

// The last seed makes s2 two: on the mover's own row nothing is taken.
TEST(GoldenAwale, AwaleNeverTakesOnTheMoversOwnRow) {
  EXPECT_EQ(scene("awale/1,1,0,0,0,1/3,3,3,3,3,3/13,14/S", {1}), R"(
lift s1 (1)
drop s2
       6   5   4   3   2   1    North to move
     [ 3][ 3][ 3][ 3][ 3][ 3]
 14                           13  (captured)
     [ 0][ 2][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South
awale/0,2,0,0,0,1/3,3,3,3,3,3/13,14/N
)");
}

// chain_rows=both (Al-manqala's reading): s2 at 2 is taken.
TEST(GoldenAwale, AwaleChainRowsBothTakesOnTheOwnRowToo) {
  EXPECT_EQ(scene("awale,chain_rows=both/1,1,0,0,0,1/3,3,3,3,3,3/13,14/S", {1}), R"(
lift s1 (1)
drop s2
capture s2 (2) -> S store
       6   5   4   3   2   1    North to move
     [ 3][ 3][ 3][ 3][ 3][ 3]
 14                           15  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 1]
       1   2   3   4   5   6    South
awale,chain_rows=both/0,0,0,0,0,1/3,3,3,3,3,3/15,14/N
)");
}

// The chain would take n2 and n1, every seed North has: the move stands, nothing is taken.
TEST(GoldenAwale, AwaleGrandSlamIsPlayedButTakesNothing) {
  EXPECT_EQ(scene("awale/0,0,0,0,1,2/1,1,0,0,0,0/20,23/S", {6}), R"(
lift s6 (2)
drop n1
drop n2
grand_slam South at n2
       6   5   4   3   2   1    North to move
     [ 0][ 0][ 0][ 0][ 2][ 2]
 23                           20  (captured)
     [ 0][ 0][ 0][ 0][ 1][ 0]
       1   2   3   4   5   6    South
awale/0,0,0,0,1,0/2,2,0,0,0,0/20,23/N
)");
}

// grand_slam=all: North, to move with no seeds, cannot move; the seeds left go to their owner.
TEST(GoldenAwale, AwaleGrandSlamAllTakesThemAndTheEmptyPlayerEndsTheGame) {
  EXPECT_EQ(scene("awale,grand_slam=all/0,0,0,0,1,2/1,1,0,0,0,0/20,23/S", {6}), R"(
lift s6 (2)
drop n1
drop n2
capture n2 (2) -> S store
capture n1 (2) -> S store
sweep s5 (1) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 23                           25  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale,grand_slam=all/0,0,0,0,0,0/0,0,0,0,0,0/25,23/-
)");
}

// grand_slam=opponent: the capture stands, then North takes every seed left.
TEST(GoldenAwale, AwaleGrandSlamOpponentHandsTheRestToTheVictim) {
  EXPECT_EQ(scene("awale,grand_slam=opponent/0,0,0,0,1,2/1,1,0,0,0,0/20,23/S", {6}), R"(
lift s6 (2)
drop n1
drop n2
grand_slam South at n2
capture n2 (2) -> S store
capture n1 (2) -> S store
sweep s5 (1) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 24                           24  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale,grand_slam=opponent/0,0,0,0,0,0/0,0,0,0,0,0/24,24/-
)");
}

// grand_slam=illegal: house 6 would take all of North's seeds.
TEST(GoldenAwale, AwaleGrandSlamIllegalRefusesTheMove) {
  EXPECT_EQ(scene("awale,grand_slam=illegal/0,0,0,0,1,2/1,1,0,0,0,0/20,23/S", {6}), R"(illegal: illegal move 6 for S (legal: 5))");
}

// grand_slam=illegal: house 5 takes nothing and is legal.
TEST(GoldenAwale, AwaleGrandSlamIllegalLeavesTheOtherMoves) {
  EXPECT_EQ(scene("awale,grand_slam=illegal/0,0,0,0,1,2/1,1,0,0,0,0/20,23/S", {5}), R"(
lift s5 (1)
drop s6
       6   5   4   3   2   1    North to move
     [ 0][ 0][ 0][ 0][ 1][ 1]
 23                           20  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 3]
       1   2   3   4   5   6    South
awale,grand_slam=illegal/0,0,0,0,0,3/1,1,0,0,0,0/20,23/N
)");
}

// After North's capture every move of South would be a grand slam: the game ends, each row to its owner.
TEST(GoldenAwale, AwaleGrandSlamIllegalEveryMoveASlamEndsTheGame) {
  EXPECT_EQ(scene("awale,grand_slam=illegal/1,1,2,0,3,2/1,1,0,0,0,3/17,17/N", {6}), R"(
lift n6 (3)
drop s1
drop s2
drop s3
capture s3 (3) -> N store
capture s2 (2) -> N store
capture s1 (2) -> N store
sweep s5 (3) -> S store
sweep s6 (2) -> S store
sweep n1 (1) -> N store
sweep n2 (1) -> N store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 26                           22  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale,grand_slam=illegal/0,0,0,0,0,0/0,0,0,0,0,0/22,26/-
)");
}

// North plays his last seed; South cannot reach North's row: the game ends, South takes his own seeds.
TEST(GoldenAwale, AwaleCannotFeedEndsTheGameAndTheMoverKeepsHisSeeds) {
  EXPECT_EQ(scene("awale/0,0,0,0,1,0/0,0,0,0,0,1/23,23/N", {6}), R"(
lift n6 (1)
drop s1
sweep s1 (1) -> S store
sweep s5 (1) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 23                           25  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale/0,0,0,0,0,0/0,0,0,0,0,0/25,23/-
)");
}

// North's row is empty: South must feed him, and only house 6 does.
TEST(GoldenAwale, AwaleMustFeedTheEmptyOpponent) {
  EXPECT_EQ(scene("awale/0,0,0,0,1,1/0,0,0,0,0,1/22,23/N", {6, 6}), R"(
lift n6 (1)
drop s1
must_feed South
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 23                           22  (captured)
     [ 1][ 0][ 0][ 0][ 1][ 1]
       1   2   3   4   5   6    South to move
lift s6 (1)
drop n1
       6   5   4   3   2   1    North to move
     [ 0][ 0][ 0][ 0][ 0][ 1]
 23                           22  (captured)
     [ 1][ 0][ 0][ 0][ 1][ 0]
       1   2   3   4   5   6    South
awale/1,0,0,0,1,0/1,0,0,0,0,0/22,23/N
)");
}

// House 5 does not reach North's row: illegal, and the legal moves are named.
TEST(GoldenAwale, AwaleAMoveThatDoesNotFeedIsIllegal) {
  EXPECT_EQ(scene("awale/0,0,0,0,1,1/0,0,0,0,0,1/22,23/N", {6, 5}), R"(lift n6 (1)
drop s1
must_feed South
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 23                           22  (captured)
     [ 1][ 0][ 0][ 0][ 1][ 1]
       1   2   3   4   5   6    South to move
illegal: illegal move 5 for S (legal: 6))");
}

// South reaches 25: the game ends at once, the seeds left stay on the board.
TEST(GoldenAwale, AwaleTwentyFiveCapturedWins) {
  EXPECT_EQ(scene("awale/0,0,0,0,0,1/1,2,2,1,1,1/23,16/S", {6}), R"(
lift s6 (1)
drop n1
capture n1 (2) -> S store
game_end
       6   5   4   3   2   1    North
     [ 1][ 1][ 1][ 2][ 2][ 0]
 16                           25  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale/0,0,0,0,0,0/0,2,2,1,1,1/25,16/-
)");
}

// feeding=false: South need not feed; North, to move with no seeds, ends the game; South keeps his row.
TEST(GoldenAwale, AwaleFeedingFalseThePlayerWithNoSeedsEndsTheGame) {
  EXPECT_EQ(scene("awale,feeding=false/0,0,0,0,1,0/0,0,0,0,0,1/23,23/N", {6, 1}), R"(
lift n6 (1)
drop s1
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 23                           23  (captured)
     [ 1][ 0][ 0][ 0][ 1][ 0]
       1   2   3   4   5   6    South to move
lift s1 (1)
drop s2
sweep s2 (1) -> S store
sweep s5 (1) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 23                           25  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale,feeding=false/0,0,0,0,0,0/0,0,0,0,0,0/25,23/-
)");
}

// first=north: North opens.
TEST(GoldenAwale, AwaleFirstNorth) {
  EXPECT_EQ(scene("awale,first=north/4,4,4,4,4,4/4,4,4,4,4,4/0,0/N", {3}), R"(
lift n3 (4)
drop n4
drop n5
drop n6
drop s1
       6   5   4   3   2   1    North
     [ 5][ 5][ 5][ 0][ 4][ 4]
  0                            0  (captured)
     [ 5][ 4][ 4][ 4][ 4][ 4]
       1   2   3   4   5   6    South to move
awale,first=north/5,4,4,4,4,4/4,4,0,5,5,5/0,0/S
)");
}

// A feeding move must leave the opponent seeds, its captures included: with 1s taken too, South's
// house 6 would give n1 a seed and take it back (not a grand slam: North had none before the move).
// No move of South's feeds, so the game ends and South keeps his row; North's capture of s1 stands.
TEST(GoldenAwale, AwaleAFeedTakenBackDoesNotFeed) {
  EXPECT_EQ(scene("awale,chain_values=1+2+3/0,0,0,0,1,1/0,0,0,0,0,1/22,23/N", {6}), R"(
lift n6 (1)
drop s1
capture s1 (1) -> N store
sweep s5 (1) -> S store
sweep s6 (1) -> S store
game_end
       6   5   4   3   2   1    North
     [ 0][ 0][ 0][ 0][ 0][ 0]
 24                           24  (captured)
     [ 0][ 0][ 0][ 0][ 0][ 0]
       1   2   3   4   5   6    South
game over
awale,chain_values=1+2+3/0,0,0,0,0,0/0,0,0,0,0,0/24,24/-
)");
}

// Oware's endless cycle: one seed a side chasing the other round the board. The start comes back
// after 12 plies (North must feed with n6 each lap); its third time ends the game and each player
// takes the seeds on his own row (split=own).
TEST(GoldenAwale, ThirdRepetitionEndsTheCycleEachTakingHisOwnRow) {
  Rules rules;
  auto start = parsePosition("awale/1,0,0,0,0,0/1,0,0,0,0,0/23,23/S", &rules);
  ASSERT_TRUE(start) << start.error().message;
  Game game(rules, *start);
  for (int lap = 0; lap < 2; ++lap) {
    for (int h = 1; h <= 6; ++h) {
      ASSERT_FALSE(game.over());
      ASSERT_TRUE(game.play(h)) << "South " << h;
      ASSERT_TRUE(game.play(h)) << "North " << h;
    }
  }
  ASSERT_TRUE(game.over());
  EXPECT_TRUE(game.plies().back().autoSplit);
  EXPECT_EQ(game.plies().size(), 24U);
  EXPECT_EQ(game.board().toString(game.position()), "awale/0,0,0,0,0,0/0,0,0,0,0,0/24,24/-");
  EXPECT_EQ(game.setResults().back().outcome.cause, EndCause::Repetition);
  EXPECT_EQ(describeTrace(game.board(), game.plies().back().trace), R"(lift n6 (1)
drop s1
split s1 (1) -> S store
split n1 (1) -> N store
game_end
)");
}

// An agreed split shares as the endless cycle does: each player takes his own row.
TEST(GoldenAwale, AgreedSplitGivesEachPlayerHisOwnRow) {
  Rules rules;
  auto start = parsePosition("awale/0,0,3,0,0,0/1,0,0,0,0,0/20,24/S", &rules);
  ASSERT_TRUE(start) << start.error().message;
  Game game(rules, *start);
  ASSERT_TRUE(game.agreeSplit());
  EXPECT_EQ(game.board().toString(game.position()), "awale/0,0,0,0,0,0/0,0,0,0,0,0/23,25/-");
  // Al-manqala's equal split, for contrast: the 4 seeds left are shared 2 and 2.
  auto equal = parseRules("awale,split=equal");
  ASSERT_TRUE(equal);
  Game shared(*equal, *parsePositionFor(Board(*equal), "0,0,3,0,0,0/1,0,0,0,0,0/20,24/S"));
  ASSERT_TRUE(shared.agreeSplit());
  EXPECT_EQ(shared.board().toString(shared.position()), "awale,split=equal/0,0,0,0,0,0/0,0,0,0,0,0/22,26/-");
}

// Positions the game would already have ended are refused: a player to move who cannot feed.
TEST(GoldenAwale, APositionWhereTheMoverCannotFeedIsOver) {
  const auto bad = parsePosition("awale/1,0,0,0,1,0/0,0,0,0,0,0/23,23/S");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("no legal move"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace semis
