// Awalé's daily challenge (issue 26): its bare game cycles, so its puzzles are judged by an endgame
// table built by retrograde analysis (study::dailyTableSeeds), and an attempt is played as a game
// with the repetition rule, as the page plays it: a line of value-keeping moves that goes round
// ends in the rule's split and fails.

#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rules/Game.hpp"
#include "study/Daily.hpp"

namespace semis::study {
namespace {

Rules awale() { return *parseRules("awale"); }

// One table for the whole file: built once (about 0.3 s).
DailyTables& tables() {
  static DailyTables t;
  return t;
}

int resultFor(const Game& game, Side player) {
  const Outcome o = game.setResults().back().outcome;
  return player == Side::South ? o.south - o.north : o.north - o.south;
}

TEST(AwaleDaily, HasOneJudgedByItsTableWhichMustBeGiven) {
  const Rules rules = awale();
  EXPECT_TRUE(hasDaily(rules));
  EXPECT_EQ(dailyTableSeeds(rules), 8);
  // The presets judged by the search alone need no table; Al-manqala's no-capture split has none.
  EXPECT_EQ(dailyTableSeeds(*parseRules("kalah")), 0);
  EXPECT_EQ(dailyTableSeeds(*parseRules("mangala-castle")), 0);
  EXPECT_EQ(dailyTableSeeds(*parseRules("al-manqala")), 0);
  const auto without = dailyPuzzle(rules, 20791);
  ASSERT_FALSE(without);
  EXPECT_NE(without.error().message.find("endgame table"), std::string::npos) << without.error().message;
  // Another rule set's table, or a smaller one, is not this daily's judge either.
  EXPECT_FALSE(dailyPuzzle(rules, 20791, {}, tables().find(*parseRules("awale,grand_slam=illegal"))));
  auto small = engine::Egdb::build(rules, 5, 1);
  ASSERT_TRUE(small);
  EXPECT_FALSE(dailyPuzzle(rules, 20791, {}, &*small));
  EXPECT_EQ(tables().find(*parseRules("kalah")), nullptr);
}

TEST(AwaleDaily, APuzzleIsAProvenWinInsideTheTableAndItsLinePlaysToIt) {
  const Rules rules = awale();
  const engine::Egdb* table = tables().find(rules);
  ASSERT_NE(table, nullptr);
  const Board board(rules);
  engine::Search search(rules, 8);
  search.setEgdb(table);
  for (long long day = 20791; day < 20797; ++day) {
    const auto p = dailyPuzzle(rules, day, {}, table);
    ASSERT_TRUE(p) << p.error().message;
    const auto again = dailyPuzzle(rules, day, {}, table);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->position, p->position);
    EXPECT_EQ(again->line, p->line);
    EXPECT_LE(board.rowSeeds(p->position, Side::South) + board.rowSeeds(p->position, Side::North), 8);
    EXPECT_GE(p->value, 1);  // a win: the table's 0 may be endless play, which the rule splits
    EXPECT_GE(p->decisions, 2);
    EXPECT_LE(p->line.size(), 24u);
    // The line, played as a game with the repetition rule, ends with the proven value.
    Game game(rules, p->position);
    for (const int m : p->line) ASSERT_TRUE(game.play(m));
    ASSERT_TRUE(game.over());
    EXPECT_EQ(resultFor(game, p->position.toMove), p->value);
    const auto a = checkAttempt(rules, *p, p->line, table);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_TRUE(a->solved);
    EXPECT_EQ(a->result, p->value);
    // At each of the player's turns on the line, a move that gives value away fails there, naming
    // a best move; an opponent's reply that is not best is refused as bad input.
    Position at = p->position;
    for (std::size_t i = 0; i < p->line.size(); ++i) {
      const auto values = exactValues(search, at);
      ASSERT_TRUE(values);
      int best = -engine::kInfinity;
      for (const auto& mv : *values) best = std::max(best, mv.value);
      for (const auto& mv : *values) {
        if (mv.value == best) continue;
        std::vector<int> moves(p->line.begin(), p->line.begin() + static_cast<long>(i));
        moves.push_back(mv.move);
        const auto bad = checkAttempt(rules, *p, moves, table);
        if (at.toMove == p->position.toMove) {
          ASSERT_TRUE(bad) << bad.error().message;
          EXPECT_FALSE(bad->solved);
          EXPECT_EQ(bad->failedAt, static_cast<int>(i));
        } else {
          EXPECT_FALSE(bad);
        }
      }
      board.apply(at, p->line[i]);
    }
  }
}

// Every attempt in which the player keeps the value at each move (any best move) and the opponent
// answers with his lowest best house, as the page's perfect player does, up to `plies` plies: the
// first whose game ends in a repetition's split below the value, if any (within a budget of games).
std::optional<std::vector<int>> goingRound(const Rules& rules, const Puzzle& p, engine::Search& search, int plies) {
  std::vector<int> moves;
  int budget = 20000;
  std::function<bool(Game&)> walk = [&](Game& game) -> bool {
    if (game.over()) {
      return !game.plies().empty() && game.plies().back().autoSplit && resultFor(game, p.position.toMove) < p.value;
    }
    if (static_cast<int>(moves.size()) >= plies || --budget < 0) return false;
    const auto values = exactValues(search, game.position());
    if (!values) return false;
    int best = -engine::kInfinity;
    for (const auto& mv : *values) best = std::max(best, mv.value);
    for (const auto& mv : *values) {
      if (mv.value != best) continue;
      Game next = game;
      if (!next.play(mv.move)) return false;
      moves.push_back(mv.move);
      if (walk(next)) return true;
      moves.pop_back();
      if (game.position().toMove != p.position.toMove) break;  // the perfect player: lowest best house only
    }
    return false;
  };
  Game game(rules, p.position);
  if (walk(game)) return moves;
  return std::nullopt;
}

TEST(AwaleDaily, ALineOfValueKeepingMovesThatGoesRoundFailsAtThePlayersLastMove) {
  const Rules rules = awale();
  const engine::Egdb* table = tables().find(rules);
  ASSERT_NE(table, nullptr);
  engine::Search search(rules, 8);
  search.setEgdb(table);
  int found = 0;
  for (long long day = 20791; day < 20851 && found == 0; ++day) {
    const auto p = dailyPuzzle(rules, day, {}, table);
    ASSERT_TRUE(p) << p.error().message;
    const auto round = goingRound(rules, *p, search, 30);
    if (!round) continue;
    ++found;
    Game game(rules, p->position);
    int lastMine = -1;
    for (std::size_t i = 0; i < round->size(); ++i) {
      if (game.position().toMove == p->position.toMove) lastMine = static_cast<int>(i);
      ASSERT_TRUE(game.play((*round)[i]));
    }
    ASSERT_TRUE(game.over());
    ASSERT_TRUE(game.plies().back().autoSplit);
    ASSERT_LT(resultFor(game, p->position.toMove), p->value);
    const auto a = checkAttempt(rules, *p, *round, table);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_FALSE(a->solved);
    EXPECT_EQ(a->failedAt, lastMine);
    EXPECT_NE(a->bestAtFailure, 0);
  }
  EXPECT_EQ(found, 1) << "no puzzle of 60 days had a line that goes round";
}

}  // namespace
}  // namespace semis::study
