// The daily challenge: a day's puzzle is reproducible, proven, not trivial, never one the caller has
// seen, and an attempt is judged by the exact values (every best move accepted, any other refused).

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rules/Board.hpp"
#include "rules/Notation.hpp"
#include "study/Daily.hpp"

namespace semis::study {
namespace {

Rules preset(std::string_view name) { return *parseRules(name); }

TEST(Daily, DatesRoundTripAndBadOnesAreRefused) {
  EXPECT_EQ(*parseDay("2000-01-01"), 10957);
  EXPECT_EQ(*parseDay("2026-12-04"), 20791);
  EXPECT_EQ(dayText(20791), "2026-12-04");
  EXPECT_EQ(*parseDay("2024-02-29") + 1, *parseDay("2024-03-01"));
  for (const char* bad : {"2026-02-29", "2026-13-01", "2026-1-01", "20261204", "2026-12-04x", "1999-12-31", ""}) {
    EXPECT_FALSE(parseDay(bad)) << bad;
  }
}

TEST(Daily, TheSameDayGivesTheSamePuzzleAndAnotherDayAnother) {
  const Rules rules = preset("kalah");
  const auto a = dailyPuzzle(rules, 20791);
  const auto b = dailyPuzzle(rules, 20791);
  const auto c = dailyPuzzle(rules, 20792);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->position, b->position);
  EXPECT_EQ(a->line, b->line);
  EXPECT_NE(a->position, c->position);
}

TEST(Daily, APuzzleIsAProvenWinWithRealDecisions) {
  for (const char* name : {"kalah", "kalah-club", "mangala", "mangala-castle", "congkak"}) {
    const Rules rules = preset(name);
    const Board board(rules);
    for (long long day = 20791; day < 20794; ++day) {
      const auto p = dailyPuzzle(rules, day);
      ASSERT_TRUE(p) << name << ' ' << p.error().message;
      EXPECT_GE(p->value, 0) << name;
      EXPECT_GE(p->decisions, 2) << name;
      EXPECT_GE(std::popcount(board.legalMask(p->position)), 3) << name;
      // The line is legal, ends the game, and gives the player exactly the proven value.
      Position pos = p->position;
      for (const int m : p->line) {
        ASSERT_TRUE(board.isLegal(pos, m)) << name;
        board.apply(pos, m);
      }
      ASSERT_TRUE(pos.over) << name;
      const Outcome o = board.outcome(pos);
      const int diff = p->position.toMove == Side::South ? o.south - o.north : o.north - o.south;
      EXPECT_EQ(diff, p->value) << name;
      // The line passes as an attempt.
      const auto a = checkAttempt(rules, *p, p->line);
      ASSERT_TRUE(a) << a.error().message;
      EXPECT_TRUE(a->solved);
      EXPECT_EQ(a->result, p->value);
    }
  }
}

// The sowings of each turn of a record's move text (docs/notation.md): "1. 3+6 2. 5x4" is {{3,6},{5}}.
std::vector<std::vector<int>> turnsOf(const std::string& record) {
  std::vector<std::vector<int>> turns;
  std::istringstream in(record);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '[') continue;  // a tag
    std::istringstream words(line);
    for (std::string w; words >> w;) {
      if (w.back() == '.') {
        turns.emplace_back();
      } else if (!turns.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && w.find('-') == std::string::npos &&
                 w.find('/') == std::string::npos) {
        std::istringstream sowings(w);
        for (std::string one; std::getline(sowings, one, '+');) turns.back().push_back(std::stoi(one));
      }
    }
  }
  return turns;
}

// Issue 27.14: `decisions` counts the player's turns as the notation writes them (a sowing and
// those its extra turns add), not his sowings: a turn of two sowings that each could give value
// away is one decision.
TEST(Daily, DecisionsAreTurnsAsTheNotationWritesThem) {
  int multiSowingTurns = 0;
  for (const char* name : {"kalah", "kalah-club", "mangala", "congkak"}) {
    const Rules rules = preset(name);
    engine::Search search(rules, 16);
    for (long long day = 20791; day < 20795; ++day) {
      const auto p = dailyPuzzle(rules, day);
      ASSERT_TRUE(p) << name << ' ' << p.error().message;
      Game game(rules, p->position);
      for (const int m : p->line) ASSERT_TRUE(game.play(m).has_value()) << name;
      const auto turns = turnsOf(printRecord(Record{{}, game, {}}));
      Position pos = p->position;
      int decisions = 0;
      std::size_t sowings = 0;
      for (const auto& turn : turns) {
        const bool players = pos.toMove == p->position.toMove;
        int givingAway = 0;
        for (const int m : turn) {
          const auto values = exactValues(search, pos);
          ASSERT_TRUE(values) << name;
          int best = -engine::kInfinity;
          for (const auto& mv : *values) best = std::max(best, mv.value);
          if (std::any_of(values->begin(), values->end(), [&](const engine::MoveValue& mv) { return mv.value < best; }))
            ++givingAway;
          game.board().apply(pos, m);
          ++sowings;
        }
        if (players && givingAway > 0) ++decisions;
        if (players && givingAway > 1) ++multiSowingTurns;
      }
      EXPECT_EQ(sowings, p->line.size()) << name;
      EXPECT_EQ(p->decisions, decisions) << name << ' ' << dayText(day);
      EXPECT_GE(p->decisions, 2) << name << ' ' << dayText(day);
    }
  }
  EXPECT_GT(multiSowingTurns, 0) << "no turn of several decisive sowings met: the test proves nothing";
}

TEST(Daily, ASeenPositionIsNeverGivenAgain) {
  const Rules rules = preset("kalah");
  const auto first = dailyPuzzle(rules, 20791);
  ASSERT_TRUE(first);
  std::set<std::string> asked;
  const Board board(rules);
  const auto again = dailyPuzzle(rules, 20791, [&](const Position& pos) {
    asked.insert(board.toString(pos));
    return pos == first->position;
  });
  ASSERT_TRUE(again);
  EXPECT_NE(again->position, first->position);
  EXPECT_TRUE(asked.count(board.toString(first->position)));
}

TEST(Daily, AMoveThatGivesValueAwayFailsTheAttemptAndEveryBestMoveIsAccepted) {
  const Rules rules = preset("kalah");
  const auto p = dailyPuzzle(rules, 20791);
  ASSERT_TRUE(p);
  engine::Search search(rules, 16);
  const auto values = exactValues(search, p->position);
  ASSERT_TRUE(values);
  int best = -engine::kInfinity;
  for (const auto& mv : *values) best = std::max(best, mv.value);
  for (const auto& mv : *values) {
    if (mv.value < best) {
      const auto a = checkAttempt(rules, *p, {mv.move});
      ASSERT_TRUE(a);
      EXPECT_FALSE(a->solved);
      EXPECT_EQ(a->failedAt, 0);
      EXPECT_EQ(a->bestAtFailure, p->line.front());
    } else {
      // A best first move is not a failure: the attempt only lacks its end.
      const auto a = checkAttempt(rules, *p, {mv.move});
      ASSERT_FALSE(a);
      EXPECT_NE(a.error().message.find("stops before the end"), std::string::npos);
    }
  }
  // Illegal moves and moves after the end are bad input.
  const auto illegal = checkAttempt(rules, *p, {0});
  ASSERT_FALSE(illegal);
  EXPECT_NE(illegal.error().message.find("move 1 is not legal"), std::string::npos);
  for (int house = 1; house <= rules.houses; ++house) {
    if (Board(rules).isLegal(p->position, house)) continue;  // an empty house, not a move
    const auto empty = checkAttempt(rules, *p, {house});
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message.find("not legal"), std::string::npos);
  }
  std::vector<int> tooLong = p->line;
  tooLong.push_back(1);
  const auto after = checkAttempt(rules, *p, tooLong);
  ASSERT_FALSE(after);
  EXPECT_NE(after.error().message.find("after the end of the game"), std::string::npos);
}

TEST(Daily, RulesWithHistoryHaveNone) {
  EXPECT_FALSE(hasDaily(preset("al-manqala")));
  EXPECT_FALSE(dailyPuzzle(preset("al-manqala"), 20791));
}

}  // namespace
}  // namespace semis::study
