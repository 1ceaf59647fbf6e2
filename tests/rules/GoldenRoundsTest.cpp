// Congkak's traditional rounds (rounds=traditional): the refill from the stores, the burnt houses
// no seed enters, the end of the match, and its records. Each golden text was checked by hand
// against docs/rules.md (`congkak`, rule 6).

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "Golden.hpp"
#include "rules/Game.hpp"
#include "rules/Notation.hpp"

namespace semis {
namespace {

using golden::scene;

constexpr const char* kRounds = "congkak,rounds=traditional";

std::string nextRoundText(const char* finished, Side first) {
  Rules rules;
  auto end = parsePosition(finished, &rules);
  if (!end) return "bad position: " + end.error().message;
  const Board board(rules);
  const auto next = board.nextRound(*end, first);
  return next ? board.toString(*next) : "match over";
}

TEST(Rounds, OptionParsesPrintsAndKeys) {
  auto r = parseRules(kRounds);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->rounds, Rounds::Traditional);
  EXPECT_EQ(toString(*r), kRounds);
  EXPECT_EQ(optionValue(*r, "rounds"), "traditional");
  EXPECT_EQ(optionValue(*parseRules("congkak"), "rounds"), "single");
  EXPECT_NE(rulesKey(*r), rulesKey(*parseRules("congkak")));
  // A match of rounds is not a match of sets: it plays until a player cannot fill a house.
  EXPECT_NE(parseRules("congkak,rounds=traditional,sets=3").error().message.find("sets=1"), std::string::npos);
  EXPECT_NE(parseRules("congkak,rounds=many").error().message.find("single|traditional"), std::string::npos);
  bool listed = false;
  for (const OptionInfo& o : optionInfos()) listed = listed || (o.name == "rounds" && o.values == "single|traditional");
  EXPECT_TRUE(listed);
}

TEST(Rounds, RefillSevenAHouseFromHouseOneAndBurnTheRest) {
  // 60 fill South's 7 houses (49) and 11 stay in his store; 38 fill North's houses 1-5 (35), 3 stay,
  // and his houses 6 and 7 are burnt. The second round is begun by North (alternate_first).
  EXPECT_EQ(nextRoundText("congkak,rounds=traditional/0,0,0,0,0,0,0/0,0,0,0,0,0,0/60,38/-", Side::North),
            "congkak,rounds=traditional/7,7,7,7,7,7,7/7,7,7,7,7,0,0/11,3/N/burnt=n6,n7");
  // 7 seeds fill one house exactly: the other six are burnt, nothing stays in the store.
  EXPECT_EQ(nextRoundText("congkak,rounds=traditional/0,0,0,0,0,0,0/0,0,0,0,0,0,0/91,7/-", Side::South),
            "congkak,rounds=traditional/7,7,7,7,7,7,7/7,0,0,0,0,0,0/42,0/S/burnt=n2,n3,n4,n5,n6,n7");
  // Fewer than 7: North cannot fill one house, no round follows: he has lost the match.
  EXPECT_EQ(nextRoundText("congkak,rounds=traditional/0,0,0,0,0,0,0/0,0,0,0,0,0,0/92,6/-", Side::South),
            "match over");
  // A house burnt in one round is filled again when its owner has won the seeds back.
  EXPECT_EQ(nextRoundText("congkak,rounds=traditional/0,0,0,0,0,0,0/0,0,0,0,0,0,0/49,49/-/burnt=n7", Side::South),
            "congkak,rounds=traditional/7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S");
}

TEST(Golden, RoundsBurntHousesAreSkippedByTheirOwnersSowing) {
  // North's houses 6 and 7 are burnt: his 3 seeds go to his store, then s1 and s2 (not n6, n7 and
  // his store, which would have earned him another turn). The last seed ends in an empty house of
  // South's: the turn ends.
  EXPECT_EQ(scene("congkak,rounds=traditional/0,0,7,7,7,7,7/7,7,7,7,3,0,0/20,12/N/burnt=n6,n7", {5}), R"(
lift n5 (3)
drop N store
drop s1
drop s2
       1   2   3   4   5   6   7    North
     [ 7][ 7][ 7][ 7][ 0][--][--]
 20                               13
     [ 7][ 7][ 7][ 7][ 7][ 1][ 1]
       7   6   5   4   3   2   1    South to move
congkak,rounds=traditional/1,1,7,7,7,7,7/7,7,7,7,0,0,0/20,13/S/burnt=n6,n7
)");
}

TEST(Golden, RoundsBurntHousesAreSkippedByTheOpponentAndCaptureNothing) {
  // South's 8 seeds: his store, n1..n5, then past the burnt n6, n7 (and North's store) to s1, s2.
  // s2 was empty: capture=empty takes the last seed; the house opposite, n6, is burnt and empty.
  EXPECT_EQ(scene("congkak,rounds=traditional/0,0,7,7,7,7,8/7,7,7,7,3,0,0/20,11/S/burnt=n6,n7", {7}), R"(
lift s7 (8)
drop S store
drop n1
drop n2
drop n3
drop n4
drop n5
drop s1
drop s2
capture s2 (1) -> S store
       1   2   3   4   5   6   7    North to move
     [ 8][ 8][ 8][ 8][ 4][--][--]
 22                               11
     [ 0][ 7][ 7][ 7][ 7][ 0][ 1]
       7   6   5   4   3   2   1    South
congkak,rounds=traditional/1,0,7,7,7,7,0/8,8,8,8,4,0,0/22,11/N/burnt=n6,n7
)");
}

TEST(Rounds, BurntHousesInPositionStringsAreChecked) {
  const auto error = [](const char* text) {
    auto pos = parsePosition(text);
    return pos ? std::string("parsed") : pos.error().message;
  };
  EXPECT_NE(error("congkak,rounds=traditional/7,7,7,7,7,7,7/7,7,7,7,7,0,0/11,3/N/burnt=n8").find("n1..n7"),
            std::string::npos);
  EXPECT_NE(error("congkak,rounds=traditional/7,7,7,7,7,7,7/7,7,7,7,7,0,0/11,3/N/burnt=n5").find("holds seeds"),
            std::string::npos);
  EXPECT_NE(error("congkak,rounds=traditional/0,0,0,0,0,0,0/7,7,7,7,7,7,7/49,0/N/burnt=s1,s2,s3,s4,s5,s6,s7")
                .find("every house of a row"),
            std::string::npos);
  EXPECT_NE(error("congkak,rounds=traditional/7,7,7,7,7,7,7/7,7,7,7,7,0,0/11,3/N/burnt=").find("burnt house"),
            std::string::npos);
  // Single-round rules have no burnt houses: the field is one too many.
  EXPECT_NE(error("congkak/7,7,7,7,7,7,7/7,7,7,7,7,0,0/11,3/N/burnt=n6,n7").find("4 fields"), std::string::npos);
  // A burnt house is never legal, even though it is the player's.
  Rules rules;
  auto pos = parsePosition("congkak,rounds=traditional/7,7,7,7,7,7,7/7,7,7,7,7,0,0/11,3/N/burnt=n6,n7", &rules);
  ASSERT_TRUE(pos);
  EXPECT_EQ(Board(rules).legalMask(*pos), 0b0011111U);
}

// Plays a whole match, each player always sowing his lowest legal house.
Game playMatch(const char* rules) {
  Game game(*parseRules(rules));
  for (int guard = 0; !game.over() && guard < 20000; ++guard) {
    const std::uint32_t mask = game.board().legalMask(game.position());
    EXPECT_TRUE(game.play(std::countr_zero(mask) + 1));
  }
  EXPECT_TRUE(game.over());
  return game;
}

// 12 seeds, 2 a house. Round 1 ends 4-8; South fills his houses 1 and 2, his house 3 is burnt;
// North fills his three and keeps 2. North begins round 2, and his relay passes over s3.
constexpr const char* kSmall = "congkak,houses=3,seeds=2,rounds=traditional";
constexpr const char* kSmallRound2 = "congkak,houses=3,seeds=2,rounds=traditional/2,2,0/2,2,2/0,2/N/burnt=s3";

TEST(Golden, RoundsARelayPassesOverTheBurntHouseAndTheMatchEnds) {
  // n1's 2 seeds: n2, n3 (relay, 3): North's store, s1, s2 (relay, 3): past the burnt s3 and South's
  // store to n1, n2, n3, emptied by the relay: capture=empty takes it with s1 opposite (3), 4 in
  // all. South's row is empty: the round ends; North sweeps his own row (1 + 4) and has all 12.
  EXPECT_EQ(scene(kSmallRound2, {1}), R"(
lift n1 (2)
drop n2
drop n3
relay n3 (3)
drop N store
drop s1
drop s2
relay s2 (3)
drop n1
drop n2
drop n3
capture s1 (3) -> N store
capture n3 (1) -> N store
sweep n1 (1) -> N store
sweep n2 (4) -> N store
game_end
       1   2   3    North
     [ 0][ 0][ 0]
  0               12
     [--][ 0][ 0]
       3   2   1    South
game over
congkak,houses=3,seeds=2,rounds=traditional/0,0,0/0,0,0/0,12/-/burnt=s3
)");
}

TEST(Rounds, EachRoundStartsFromThePreviousRoundsSeedsUntilOneCannotFillAHouse) {
  const Game game = playMatch(kSmall);
  ASSERT_EQ(game.setResults().size(), 2U);
  EXPECT_EQ(game.setResults()[0].outcome.south, 4);
  EXPECT_EQ(game.setResults()[0].outcome.north, 8);
  // Round 2 begins on the refill of round 1's stores, North to move.
  const auto second = std::find_if(game.plies().begin(), game.plies().end(), [](const Ply& p) { return p.set == 2; });
  ASSERT_NE(second, game.plies().end());
  EXPECT_EQ(second->mover, Side::North);
  const Board& board = game.board();
  EXPECT_EQ(board.toString(*board.nextRound(game.plies()[static_cast<std::size_t>(second - game.plies().begin() - 1)].after, Side::North)),
            kSmallRound2);
  // South ends round 2 with nothing: he cannot fill a house, the match is over and North's.
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.currentSet(), 2);
  EXPECT_FALSE(board.nextRound(game.position(), Side::South));
  EXPECT_EQ(game.matchWinner(), Winner::North);
  EXPECT_TRUE(game.board().legalMask(game.position()) == 0);
}

TEST(Rounds, TheMatchStopsAfterTheLastRoundAllowed) {
  // Lowest houses on a 3 x 3 board: every round is the same 9-9 draw, for ever but for the limit.
  const Game game = playMatch("congkak,houses=3,seeds=3,rounds=traditional");
  ASSERT_EQ(game.setResults().size(), static_cast<std::size_t>(kMaxRounds));
  for (const SetResult& r : game.setResults()) EXPECT_EQ(r.outcome.winner, Winner::Draw);
  EXPECT_EQ(game.matchWinner(), Winner::Draw);
  EXPECT_EQ(printRecord(Record{{}, game, {}}).substr(0, 83),
            "[Rules \"congkak,houses=3,seeds=3,rounds=traditional\"]\n[Result \"1/2-1/2\"]\n\nset 1 1. ");
}

TEST(Rounds, RecordsWriteEachRoundAndTheMatchsWinnerAndReadBack) {
  const Game game = playMatch(kSmall);
  const std::string text = printRecord(Record{{}, game, {}});
  EXPECT_EQ(text,
            "[Rules \"congkak,houses=3,seeds=2,rounds=traditional\"]\n"
            "[Result \"0-1\"]\n"
            "\n"
            "set 1 1. 1 2. 1 3. 1+3 0-1 {4-8}\n"
            "set 2 1. 1x4 0-1 {0-12}\n");
  auto back = parseRecord(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(printRecord(*back), text);
  EXPECT_EQ(back->game.position(), game.position());
  // The result is the match's winner, not points ("0-2"), and a third round cannot be written.
  std::string points = text;
  points.replace(points.find("0-1\"]"), 3, "0-2");
  EXPECT_FALSE(parseRecord(points));
  EXPECT_FALSE(parseRecord(text + "set 3 1. 1\n"));
}

// A match stopped between two rounds (or sets): the next one has begun, with no move yet. Its
// `set K` line comes before the record's end, so the `*` or the adjudicated result is not read as
// the last round's result, and the record reads back.
TEST(Rounds, ARecordStoppedBetweenRoundsReadsBack) {
  for (const char* rules : {kSmall, "mangala,houses=3,seeds=2"}) {
    Game game(*parseRules(rules));
    while (game.setResults().empty()) {
      const std::uint32_t mask = game.board().legalMask(game.position());
      ASSERT_TRUE(game.play(std::countr_zero(mask) + 1));
    }
    ASSERT_FALSE(game.over());
    ASSERT_EQ(game.currentSet(), 2);
    for (const char* adjudicated : {"", "1-0"}) {
      const std::string text = printRecord(Record{{}, game, adjudicated});
      const std::string end = std::string("\nset 2 ") + (*adjudicated != '\0' ? adjudicated : "*") + "\n";
      EXPECT_EQ(text.substr(text.size() - end.size()), end) << text;
      auto back = parseRecord(text);
      ASSERT_TRUE(back) << back.error().message << "\n" << text;
      EXPECT_EQ(printRecord(*back), text);
      EXPECT_EQ(back->game.position(), game.position());
      EXPECT_EQ(back->game.currentSet(), 2);
    }
  }
  // The record of round 1 of kSmall, as the page and the server print it.
  Game game(*parseRules(kSmall));
  for (int h : {1, 1, 1, 3}) ASSERT_TRUE(game.play(h));
  EXPECT_EQ(printRecord(Record{{}, game, {}}),
            "[Rules \"congkak,houses=3,seeds=2,rounds=traditional\"]\n"
            "[Result \"*\"]\n"
            "\n"
            "set 1 1. 1 2. 1 3. 1+3 0-1 {4-8}\n"
            "set 2 *\n");
}

TEST(Rounds, AGameFromAPositionIsOneRound) {
  Rules rules;
  auto pos = parsePosition("congkak,rounds=traditional/0,0,7,7,7,7,8/7,7,7,7,3,0,0/20,11/S/burnt=n6,n7", &rules);
  ASSERT_TRUE(pos);
  Game game(rules, *pos);
  EXPECT_EQ(game.setCount(), 1);
  ASSERT_TRUE(game.play(7));
  EXPECT_EQ(game.position().burnt, pos->burnt);
}

}  // namespace
}  // namespace semis
