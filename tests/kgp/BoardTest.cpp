#include "kgp/Board.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kgp/Command.hpp"
#include "KalahRules.hpp"

namespace semis::kgp {
namespace {

using Values = std::vector<std::uint32_t>;

// KGP's own reading of a move, written here from the reference implementations' description
// (go-kgp board.go, pykgp Board.sow): the mover is South of the literal, pits 0..n-1 in sowing
// order, then the mover's store, then the other row's pits 0..n-1 (the other store skipped); a last
// seed in an empty own pit facing a non-empty pit n-1-i captures both. Returns whether the mover
// plays again. Leaves the end of the game out: the playouts below stop before it.
bool kgpSow(Values& b, int move) {
  const auto n = static_cast<int>(b[0]);
  auto south = [&](int i) -> std::uint32_t& { return b[static_cast<std::size_t>(3 + i)]; };
  auto north = [&](int i) -> std::uint32_t& { return b[static_cast<std::size_t>(3 + n + i)]; };
  std::uint32_t stones = south(move - 1);
  south(move - 1) = 0;
  int pos = move;  // the next pit to sow
  bool own = true;
  while (stones > 0) {
    if (pos == n) {
      if (own) {
        ++b[1];
        --stones;
      }
      own = !own;
      pos = 0;
      continue;
    }
    ++(own ? south(pos) : north(pos));
    ++pos;
    --stones;
  }
  if (pos == 0 && !own) return true;  // the last seed fell in the mover's store
  if (own && pos > 0) {
    const int last = pos - 1;
    if (south(last) == 1 && north(n - 1 - last) > 0) {
      b[1] += north(n - 1 - last) + 1;
      north(n - 1 - last) = 0;
      south(last) = 0;
    }
  }
  return false;
}

bool rowEmpty(const Values& b, int row) {
  const auto n = static_cast<int>(b[0]);
  for (int i = 0; i < n; ++i) {
    if (b[static_cast<std::size_t>(3 + row * n + i)] != 0) return false;
  }
  return true;
}

TEST(KgpBoard, StartPositionsBothSides) {
  const Board b6(kalah(6, 4));
  const Position start = b6.start();
  const Values six{6, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  EXPECT_EQ(*toKgpBoard(b6, start, Side::South), six);
  EXPECT_EQ(*toKgpBoard(b6, start, Side::North), six);
  const Board b12(kalah(12, 12));
  const Values twelve = *toKgpBoard(b12, b12.start(), Side::South);
  ASSERT_EQ(twelve.size(), 27U);
  EXPECT_EQ(twelve[0], 12U);
  for (std::size_t i = 3; i < twelve.size(); ++i) EXPECT_EQ(twelve[i], 12U);
  EXPECT_EQ(formatCommand(Command{2, std::nullopt, "state", {Arg::ofBoard(*toKgpBoard(b6, start, Side::South))}}),
            "2 state <6,0,0,4,4,4,4,4,4,4,4,4,4,4,4>");
}

TEST(KgpBoard, TheBotIsAlwaysSouth) {
  const Board b(kalah(6, 4));
  Position pos = b.start();
  ASSERT_TRUE(b.play(pos, 3).has_value());  // S3: 4 seeds into s4, s5, s6 and the store: again
  ASSERT_TRUE(b.play(pos, 1).has_value());  // S1: s2..s5
  ASSERT_EQ(pos.toMove, Side::North);
  // As South sees it: its store 1, its houses 0,5,1,6,6,5; North's untouched.
  EXPECT_EQ(*toKgpBoard(b, pos, Side::South), (Values{6, 1, 0, 0, 5, 1, 6, 6, 5, 4, 4, 4, 4, 4, 4}));
  // As North (to move) sees it: rows and stores swapped, each row still in its sowing order.
  EXPECT_EQ(*toKgpBoard(b, pos, Side::North), (Values{6, 0, 1, 4, 4, 4, 4, 4, 4, 0, 5, 1, 6, 6, 5}));
  // And back: the literal as North saw it is the same position, North to move.
  auto back = fromKgpBoard(b, *toKgpBoard(b, pos, Side::North), Side::North);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(*back, pos);
}

// Plays games move by move, each move both in Semis and by KGP's rules on the mover's literal, and
// compares: the mirroring and the house numbers agree in sowing, captures and extra turns.
void playBothWays(const Rules& rules, std::uint32_t seed) {
  const Board b(rules);
  Position pos = b.start();
  int plies = 0;
  while (!pos.over && plies < 400) {
    const Side mover = pos.toMove;
    Values literal = *toKgpBoard(b, pos, mover);
    ASSERT_EQ(fromKgpBoard(b, literal, mover).value(), pos);
    std::vector<int> legal;
    for (int h = 1; h <= b.houses(); ++h) {
      if (b.isLegal(pos, h)) legal.push_back(h);
    }
    seed = seed * 1103515245U + 12345U;
    const int house = legal[(seed >> 16) % legal.size()];
    const auto move = kgpMoveOfHouse(house);
    ASSERT_EQ(houseOfKgpMove(move, b.houses()), house);
    const bool again = kgpSow(literal, static_cast<int>(move));
    ASSERT_TRUE(b.play(pos, house).has_value());
    ++plies;
    if (rowEmpty(literal, 0) || rowEmpty(literal, 1)) break;  // the end of the game: leftovers differ by rule
    ASSERT_FALSE(pos.over);
    EXPECT_EQ(*toKgpBoard(b, pos, mover), literal) << "ply " << plies << " house " << house;
    EXPECT_EQ(pos.toMove == mover, again) << "ply " << plies;
  }
  EXPECT_GT(plies, 10);
}

TEST(KgpBoard, MovesAgreeWithKgpSowingOnSixByFour) {
  for (std::uint32_t seed : {1U, 2U, 3U, 4U, 5U}) playBothWays(kalah(6, 4), seed);
}

TEST(KgpBoard, MovesAgreeWithKgpSowingOnTwelveByTwelve) {
  for (std::uint32_t seed : {7U, 8U, 9U}) playBothWays(kalah(12, 12), seed);
}

TEST(KgpBoard, MoveNumbers) {
  EXPECT_EQ(houseOfKgpMove(1, 6), 1);
  EXPECT_EQ(houseOfKgpMove(6, 6), 6);
  EXPECT_EQ(houseOfKgpMove(0, 6), std::nullopt);
  EXPECT_EQ(houseOfKgpMove(7, 6), std::nullopt);
  EXPECT_EQ(houseOfKgpMove(-1, 6), std::nullopt);
  EXPECT_EQ(houseOfKgpMove(12, 12), 12);
}

TEST(KgpBoard, RefusesWhatALiteralCannotSay) {
  const Board manqala(presetRules(Preset::AlManqala));
  EXPECT_FALSE(toKgpBoard(manqala, manqala.start(), Side::South).has_value());
  const Board b(kalah(4, 3));
  EXPECT_FALSE(fromKgpBoard(b, Values{6, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, Side::South).has_value());
  EXPECT_FALSE(fromKgpBoard(b, Values{4, 0, 0, 3, 3, 3, 3, 3, 3, 3}, Side::South).has_value());
  EXPECT_FALSE(fromKgpBoard(b, Values{4, 0, 0, 3, 3, 3, 3, 3, 3, 3, 4}, Side::South).has_value());
  EXPECT_TRUE(fromKgpBoard(b, Values{4, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3}, Side::South).has_value());
}

}  // namespace
}  // namespace semis::kgp
