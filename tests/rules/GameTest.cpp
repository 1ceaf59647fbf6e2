// Game: history rules (repetition, turns without a capture), matches of sets, the pie rule, and the
// game record's grammar.

#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "rules/Game.hpp"
#include "rules/Notation.hpp"
#include "rules/Text.hpp"

namespace semis {
namespace {

Game fromPosition(const char* text) {
  Rules rules;
  auto pos = parsePosition(text, &rules);
  EXPECT_TRUE(pos) << text;
  return Game(rules, *pos);
}

// One seed each on a 98-seed board: both players are forced, and the seeds go round until the
// start position comes back every 14 plies.
constexpr const char* kCycle = "al-manqala/0,0,0,0,0,0,1/0,0,0,0,0,0,1/48,48/S";
constexpr int kCycleMoves[14] = {7, 7, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6};

TEST(Game, AlManqalaThirdRepetitionSplitsTheBoard) {
  Game game = fromPosition(kCycle);
  for (int i = 0; i < 28; ++i) {
    ASSERT_FALSE(game.over()) << i;
    ASSERT_EQ(game.board().legalList(game.position()), std::to_string(kCycleMoves[i % 14])) << i;
    ASSERT_TRUE(game.play(kCycleMoves[i % 14]));
    EXPECT_EQ(game.plies().back().autoSplit, i == 27) << i;
  }
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.board().toString(game.position()), "al-manqala/0,0,0,0,0,0,0/0,0,0,0,0,0,0/49,49/-");
  EXPECT_EQ(describeTrace(game.board(), game.plies().back().trace),
            "lift n6 (1)\ndrop n7\nsplit s7 (1) -> S store\nsplit n7 (1) -> N store\ngame_end\n");
  EXPECT_EQ(game.setResults().front().outcome.winner, Winner::Draw);
  EXPECT_EQ(game.setResults().front().outcome.cause, EndCause::Repetition);
}

TEST(Game, AlManqalaTurnsWithoutCaptureSplitTheBoard) {
  Rules rules;
  auto pos = parsePosition("al-manqala,idle_limit=5/0,0,0,0,0,0,1/0,0,0,0,0,0,1/48,48/S", &rules);
  ASSERT_TRUE(pos);
  Game game(rules, *pos);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(game.play(kCycleMoves[i]));
  EXPECT_TRUE(game.over());
  EXPECT_TRUE(game.plies().back().autoSplit);
  EXPECT_EQ(game.idleTurns(), 5);
  EXPECT_EQ(game.setResults().front().outcome.cause, EndCause::IdleLimit);
}

// The first to 50 captured wins at once, seeds still on the board: the result says so (the
// clients word it), where a game that ends with an empty row says nothing more.
TEST(Game, AlManqalaTargetReachedIsTheResultsCause) {
  Game game = fromPosition("al-manqala/0,0,0,0,0,0,1/1,0,5,0,0,0,0/48,43/S");
  ASSERT_TRUE(game.play(7));  // s7's seed makes n1 two: captured, 50
  ASSERT_TRUE(game.over());
  const Outcome& o = game.setResults().front().outcome;
  EXPECT_EQ(o.winner, Winner::South);
  EXPECT_EQ(o.south, 50);
  EXPECT_EQ(o.cause, EndCause::Target);
  EXPECT_EQ(o.target, 50);
  EXPECT_EQ(game.board().toString(game.position()), "al-manqala/0,0,0,0,0,0,0/0,0,5,0,0,0,0/50,43/-");

  Game kalah(presetRules(Preset::Kalah));
  while (!kalah.over()) ASSERT_TRUE(kalah.play(std::countr_zero(kalah.board().legalMask(kalah.position())) + 1));
  EXPECT_EQ(kalah.setResults().back().outcome.cause, EndCause::Rows);
}

TEST(Game, AgreedSplitIsRecordedAndReplayed) {
  Game game = fromPosition(kCycle);
  ASSERT_TRUE(game.play(7));
  ASSERT_TRUE(game.agreeSplit());
  EXPECT_TRUE(game.over());
  EXPECT_FALSE(game.agreeSplit());
  const std::string text = printRecord(Record{{}, game, {}});
  EXPECT_EQ(text, "[Rules \"al-manqala\"]\n[Position \"" + std::string(kCycle) +
                      "\"]\n[Result \"1/2-1/2\"]\n[Score \"49-49\"]\n\n1. 7 split 1/2-1/2 {49-49}\n");
  auto back = parseRecord(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->game.position(), game.position());
}

TEST(Game, MangalaMatchAlternatesTheFirstPlayerAndRecordsEachSet) {
  Game game(*parseRules("mangala"));
  EXPECT_EQ(game.setCount(), 5);
  std::vector<Side> firsts;
  int guard = 0;
  while (!game.over() && guard++ < 5000) {
    if (game.plies().empty() || game.plies().back().setEnded) firsts.push_back(game.position().toMove);
    const std::uint32_t mask = game.board().legalMask(game.position());
    ASSERT_TRUE(game.play(std::countr_zero(mask) + 1));  // always the lowest legal house
  }
  ASSERT_TRUE(game.over());
  EXPECT_EQ(firsts, (std::vector<Side>{Side::South, Side::North, Side::South, Side::North, Side::South}));
  EXPECT_EQ(game.setResults().size(), 5U);
  const auto points = game.doubledPoints();
  EXPECT_EQ(points[0] + points[1], 10);
  const std::string text = printRecord(Record{{}, game, {}});
  for (int k = 1; k <= 5; ++k) EXPECT_NE(text.find("set " + std::to_string(k) + " 1. "), std::string::npos) << text;
  auto back = parseRecord(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(printRecord(*back), text);
}

TEST(Game, SetsEndedByASplitWithoutMovesArePrinted) {
  Game game(*parseRules("al-manqala,sets=3"));
  ASSERT_TRUE(game.agreeSplit());
  ASSERT_TRUE(game.agreeSplit());
  ASSERT_TRUE(game.play(1));
  const std::string text = printRecord(Record{{}, game, {}});
  EXPECT_EQ(text.substr(text.find("\n\n") + 2),
            "set 1 split 1/2-1/2 {49-49}\nset 2 split 1/2-1/2 {49-49}\nset 3 1. 1 *\n");
  auto back = parseRecord(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->game.plies().size(), 1U);
  EXPECT_EQ(back->game.setResults().size(), 2U);
}

TEST(Game, PieSwapOnlyRightAfterSouthsFirstTurn) {
  Game game(*parseRules("kalah,pie=true"));
  EXPECT_FALSE(game.canSwap());
  ASSERT_TRUE(game.play(3));  // extra turn: still South's first turn
  EXPECT_FALSE(game.canSwap());
  ASSERT_TRUE(game.play(6));
  EXPECT_TRUE(game.canSwap());
  ASSERT_TRUE(game.swap());
  EXPECT_FALSE(game.swap());
  ASSERT_TRUE(game.play(1));
  const std::string text = printRecord(Record{{}, game, {}});
  EXPECT_EQ(text.substr(text.find("\n\n") + 2), "1. 3+6 2. swap 3. 1 *\n");
  EXPECT_TRUE(parseRecord(text));
  EXPECT_FALSE(Game(*parseRules("kalah")).canSwap());
}

TEST(Record, TheGrammarIsStrict) {
  const std::string head = "[Rules \"kalah\"]\n\n";
  EXPECT_TRUE(parseRecord(head + "1. 3+6 2. 1 *"));
  // 3 earns an extra turn: the next sowing must be joined with '+'.
  EXPECT_NE(parseRecord(head + "1. 3 2. 6 *").error().message.find("join"), std::string::npos);
  EXPECT_NE(parseRecord(head + "1. 1+2 *").error().message.find("extra turn"), std::string::npos);
  EXPECT_FALSE(parseRecord(head + "1. 3+6 1 *"));     // no turn number
  EXPECT_FALSE(parseRecord(head + "1. 3+6 3. 1 *"));  // wrong turn number
  EXPECT_FALSE(parseRecord(head + "1. 1x3 *"));       // 1 captures nothing
  EXPECT_FALSE(parseRecord(head + "1. 7 *"));         // no house 7
  EXPECT_FALSE(parseRecord(head + "1. 1 * 2. 1"));    // nothing after the result
  EXPECT_FALSE(parseRecord(head + "1. *"));
  EXPECT_FALSE(parseRecord("[Rules \"kalah\"]\n[Result \"1-0\"]\n\n1. 1 *"));
  EXPECT_FALSE(parseRecord("1. 1 *"));
  // Only real results end a record (found by FuzzRecord: this was taken for an adjudicated result).
  EXPECT_FALSE(parseRecord("[Rules \"al-manqala\"]0,0,0,0,0,1/48,42Y-1/2\"]"));
  EXPECT_TRUE(parseRecord(head + "1. 3+6 2. 1 2.5-1.5"));
  EXPECT_FALSE(parseRecord("[Rules \"kalah\"]\n[Position \"kalah-club/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S\"]\n\n*"));
}

TEST(Record, TagValuesAreEscaped) {
  Record record{{{"South", "Ada \"Queen\" \\ co"}, {"Bad name]", "x"}}, Game(*parseRules("kalah")), {}};
  const std::string text = printRecord(record);
  EXPECT_NE(text.find("[South \"Ada \\\"Queen\\\" \\\\ co\"]"), std::string::npos) << text;
  auto back = parseRecord(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->tags.front().second, "Ada \"Queen\" \\ co");
  EXPECT_EQ(back->tags.back().first, "Badname");
  EXPECT_EQ(printRecord(*back), text);
}

TEST(Record, RelayCutIsMarked) {
  Game game = fromPosition("congkak,relay_limit=1/2,10,10,0,2,12,4/10,10,10,10,10,1,1/6,0/N");
  auto ply = game.play(4);
  ASSERT_TRUE(ply);
  EXPECT_EQ(sowingText(**ply), "4~");
}

TEST(Position, BadStringsAreClearErrors) {
  EXPECT_NE(parsePosition("kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,1/S").error().message.find("49 seeds"), std::string::npos);
  EXPECT_FALSE(parsePosition("kalah/4,4,4,4,4/4,4,4,4,4,4/4,0/S"));
  EXPECT_FALSE(parsePosition("kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/X"));
  EXPECT_FALSE(parsePosition("kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0"));
  EXPECT_FALSE(parsePosition("kalah/0,0,0,0,0,0/4,4,4,4,4,4/24,0/S"));  // no legal move but not over
  EXPECT_FALSE(parsePosition("mangala-castle/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S/castle=n6,-"));
  EXPECT_FALSE(parsePosition("mangala-castle/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S/castle=s2,-"));
  EXPECT_FALSE(parsePosition("chess/4"));
  // Unfinished positions the engine would have ended.
  EXPECT_NE(parsePosition("kalah/4,4,4,4,4,4/0,0,0,0,0,0/24,0/S").error().message.find("row is empty"),
            std::string::npos);
  EXPECT_TRUE(parsePosition("kalah-club/4,4,4,4,4,4/0,0,0,0,0,0/24,0/S"));
  EXPECT_TRUE(parsePosition("kalah/4,4,4,4,4,4/0,0,0,0,0,0/24,0/-"));
  EXPECT_FALSE(parsePosition("al-manqala/1,0,0,0,0,0,1/1,0,0,0,0,0,0/50,45/S"));
  EXPECT_TRUE(parsePosition("mangala-castle/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S"));
}

}  // namespace
}  // namespace semis
