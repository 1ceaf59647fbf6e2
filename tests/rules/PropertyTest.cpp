// Properties over many random games (seeded, deterministic) for every preset and some option
// combinations: seeds are conserved, the event trace replays to the same board, position strings and
// records round-trip, no move is legal in a finished game, an illegal move changes nothing.

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>

#include "rules/Game.hpp"
#include "rules/Notation.hpp"

namespace semis {
namespace {

// The test's own reading of a trace: apply its events to the position before the move.
Position replayTrace(const Board& board, Position pos, Side mover, const Trace& trace) {
  Side toMove = other(mover);
  for (const Event& e : trace) {
    auto& at = pos.pits[e.pit];
    switch (e.kind) {
      case EventKind::Lift:
      case EventKind::Relay:
        EXPECT_EQ(at, e.count) << eventName(e.kind) << " must lift the whole pit";
        at = 0;
        break;
      case EventKind::Drop:
        ++pos.pits[e.target];
        break;
      case EventKind::Capture:
      case EventKind::Sweep:
      case EventKind::Split:
        EXPECT_GE(at, e.count);
        EXPECT_TRUE(board.isStore(e.target));
        at = static_cast<std::uint8_t>(at - e.count);
        pos.pits[e.target] = static_cast<std::uint8_t>(pos.pits[e.target] + e.count);
        break;
      case EventKind::Castle:
        pos.castle[static_cast<std::size_t>(index(e.side))] = static_cast<std::int8_t>(e.pit);
        break;
      case EventKind::ExtraTurn:
        toMove = e.side;
        break;
      case EventKind::Pass:
        toMove = other(e.side);
        break;
      case EventKind::MustFeed:
        EXPECT_EQ(e.side, toMove);
        break;
      case EventKind::RelayCut:
      case EventKind::GrandSlam:
        break;
      case EventKind::GameEnd:
        pos.over = true;
        break;
    }
  }
  pos.toMove = pos.over ? Side::South : toMove;
  return pos;
}

int total(const Board& board, const Position& pos) {
  int sum = 0;
  for (int pit = 0; pit < board.rules().ringSize(); ++pit) sum += pos.pits[static_cast<std::size_t>(pit)];
  return sum;
}

struct Stats {
  int games = 0;
  int longest = 0;
};

// Plays `games` random games of `rulesText`, checking every property after every ply.
void playRandomGames(const std::string& rulesText, int games, unsigned seed, Stats& stats) {
  auto rules = parseRules(rulesText);
  EXPECT_TRUE(rules) << rulesText;
  if (!rules) return;
  std::mt19937 rng(seed);
  for (int g = 0; g < games; ++g) {
    Record record{{{"South", "Ada \"the first\""}, {"Event", "random " + std::to_string(g)}}, Game(*rules), {}};
    Game& game = record.game;
    const Board& board = game.board();
    while (!game.over() && game.plies().size() < 3000) {
      const Position before = game.position();
      if (rules->pie && game.canSwap() && rng() % 2 == 0) {
        ASSERT_TRUE(game.swap());
      }
      if (!rules->stores && rng() % 500 == 0) {
        ASSERT_TRUE(game.agreeSplit());
        continue;
      }
      const std::uint32_t mask = board.legalMask(before);
      ASSERT_NE(mask, 0U) << board.toString(before);
      // An illegal move is an error and changes nothing.
      for (int bad : {0, board.houses() + 1, -3}) {
        EXPECT_FALSE(game.play(bad));
      }
      for (int h = 1; h <= board.houses(); ++h) {
        if (((mask >> (h - 1)) & 1U) == 0) {
          EXPECT_FALSE(game.play(h)) << board.toString(before) << " " << h;
        }
      }
      EXPECT_EQ(game.position(), before);
      int pick = static_cast<int>(rng() % static_cast<unsigned>(std::popcount(mask)));
      std::uint32_t m = mask;
      while (pick-- > 0) m &= m - 1;
      auto ply = game.play(std::countr_zero(m) + 1);
      ASSERT_TRUE(ply);
      const Position& after = (*ply)->after;
      EXPECT_EQ(total(board, after), rules->totalSeeds()) << board.toString(after);
      EXPECT_EQ(replayTrace(board, before, (*ply)->mover, (*ply)->trace), after) << board.toString(before);
      auto parsed = parsePosition(board.toString(after));
      ASSERT_TRUE(parsed) << board.toString(after) << ": " << parsed.error().message;
      EXPECT_EQ(*parsed, after);
      EXPECT_EQ(board.toString(*parsed), board.toString(after));
      if (after.over) {
        EXPECT_EQ(board.legalMask(after), 0U);
        for (int h = 1; h <= board.houses(); ++h) {
          Position copy = after;
          EXPECT_FALSE(board.play(copy, h));
          EXPECT_EQ(copy, after);
        }
      }
    }
    if (game.over()) {
      for (int h = 1; h <= board.houses(); ++h) EXPECT_FALSE(game.play(h));
    } else {
      record.adjudicated = "1/2-1/2";
    }
    const std::string text = printRecord(record);
    auto back = parseRecord(text);
    ASSERT_TRUE(back) << back.error().message << "\n" << text;
    EXPECT_EQ(printRecord(*back), text);
    EXPECT_EQ(back->tags, record.tags);
    ASSERT_EQ(back->game.plies().size(), game.plies().size());
    for (std::size_t i = 0; i < game.plies().size(); ++i) {
      EXPECT_EQ(back->game.plies()[i].move, game.plies()[i].move);
      EXPECT_EQ(back->game.plies()[i].after, game.plies()[i].after);
      EXPECT_EQ(back->game.plies()[i].trace, game.plies()[i].trace);
    }
    EXPECT_EQ(back->game.position(), game.position());
    EXPECT_EQ(back->game.doubledPoints(), game.doubledPoints());
    ++stats.games;
    stats.longest = std::max(stats.longest, static_cast<int>(game.plies().size()));
  }
}

Stats randomGames(const std::string& rulesText, int games, unsigned seed) {
  Stats stats;
  playRandomGames(rulesText, games, seed, stats);
  return stats;
}

TEST(Property, Kalah) { EXPECT_EQ(randomGames("kalah", 80, 1).games, 80); }
TEST(Property, KalahCaptureEmptyPie) { EXPECT_EQ(randomGames("kalah,capture=empty,pie=true", 60, 2).games, 60); }
TEST(Property, KalahLeftoversEmptier) {
  EXPECT_EQ(randomGames("kalah,leftovers=emptier,emptier_by_capture=false,houses=4,seeds=3", 100, 3).games, 100);
}
TEST(Property, KalahClub) { EXPECT_EQ(randomGames("kalah-club", 80, 4).games, 80); }
TEST(Property, KalahClubBigBoard) {
  // 160 seeds on 8+8 houses: games of a few hundred plies.
  const Stats s = randomGames("kalah-club,houses=8,seeds=10", 20, 5);
  EXPECT_GE(s.longest, 150);
}
TEST(Property, Mangala) { EXPECT_EQ(randomGames("mangala", 20, 6).games, 20); }
TEST(Property, MangalaCastle) { EXPECT_EQ(randomGames("mangala-castle", 20, 7).games, 20); }
TEST(Property, MangalaCastleSowTreasures) {
  EXPECT_EQ(randomGames("mangala-castle,castle_sow_treasures=true,castle_capture=false", 20, 8).games, 20);
}
TEST(Property, AlManqala) { EXPECT_GE(randomGames("al-manqala", 40, 9).longest, 100); }
TEST(Property, LongGames) {
  // A 5-set Mangala match and Kalah on the biggest board run for several hundred plies.
  EXPECT_GE(randomGames("mangala,houses=8,seeds=10", 3, 13).longest, 300);
  EXPECT_GE(randomGames("kalah,houses=8,seeds=10,sets=3", 3, 14).longest, 300);
}
TEST(Property, AlManqalaNoGrandSlam) { EXPECT_EQ(randomGames("al-manqala,grand_slam=false", 40, 10).games, 40); }
TEST(Property, Awale) { EXPECT_EQ(randomGames("awale", 60, 12).games, 60); }
TEST(Property, AwaleVariants) {
  for (const char* rules : {"awale,grand_slam=all", "awale,grand_slam=illegal", "awale,grand_slam=opponent",
                            "awale,chain_values=1+2+3", "awale,feeding=false", "awale,unfed=starved,split=equal",
                            "awale,houses=3,seeds=2", "awale,first=north,sets=3"}) {
    EXPECT_EQ(randomGames(rules, 20, 13).games, 20) << rules;
  }
}
TEST(Property, Congkak) { EXPECT_EQ(randomGames("congkak", 60, 11).games, 60); }
TEST(Property, CongkakShortRelays) {
  EXPECT_EQ(randomGames("congkak,relay_limit=1,capture=standard,end=on_turn", 60, 12).games, 60);
}
// Whole matches of rounds: every round's refill and burnt houses through the same checks (seeds
// conserved, traces replayed, position strings and records read back).
TEST(Property, CongkakTraditionalRounds) {
  EXPECT_EQ(randomGames("congkak,rounds=traditional", 30, 13).games, 30);
  EXPECT_EQ(randomGames("congkak,houses=4,seeds=3,rounds=traditional,relay_limit=2", 30, 14).games, 30);
}

}  // namespace
}  // namespace semis
