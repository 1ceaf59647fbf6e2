// The opening book: the compiled-in Kalah book parses, each of its moves is legal and is the one the
// solver proves best (checked where a solve is quick: the later positions); bad lines are refused.

#include <gtest/gtest.h>

#include "engine/Book.hpp"
#include "engine/BookData.hpp"
#include "engine/Levels.hpp"
#include "study/BookBuilder.hpp"

namespace semis::engine {
namespace {

TEST(Book, TheBuiltInKalahBookParsesAndStartsWithTheSolvedMove) {
  const Rules rules = *parseRules("kalah");
  const Book* book = builtInBook(rules);
  ASSERT_NE(book, nullptr);
  EXPECT_GT(book->size(), 20U);
  const Board board(rules);
  const auto first = book->find(board, board.start());
  ASSERT_TRUE(first);
  // Kalah(6,4) is a first-player win by 8 with house 3 (docs/engine.md, Measurements).
  EXPECT_EQ(first->move, 3);
  EXPECT_EQ(first->value, 8);
  for (const BookText& t : builtInBookTexts()) {
    if (t.name.empty()) continue;
    EXPECT_TRUE(Book::parse(t.text)) << t.name;
  }
  EXPECT_EQ(builtInBook(*parseRules("kalah,seeds=5")), nullptr);
}

TEST(Book, PerfectPlaysTheBookMoveAtOnce) {
  const Rules rules = *parseRules("kalah");
  LevelOptions options;
  options.hardSeconds = 0.001;  // far too short to solve: only the book can find house 3
  options.tableMegabytes = 1;
  Player perfect(rules, Level::Perfect, options);
  const Board board(rules);
  EXPECT_EQ(perfect.choose(board.start()), builtInBook(rules)->find(board, board.start())->move);
}

TEST(Book, ABuiltBookHoldsTheSolversMoves) {
  const Rules rules = *parseRules("kalah,houses=4,seeds=3");
  Search search(rules, 16);
  const Board board(rules);
  const auto book = study::buildBook(search, board.start(), 2);
  ASSERT_TRUE(book);
  EXPECT_GT(book->size(), 3U);
  const auto again = Book::parse(book->text("# test\n"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->text(""), book->text(""));
  const auto m = again->find(board, board.start());
  ASSERT_TRUE(m);
  Search fresh(rules, 16);
  const SearchResult r = fresh.run(board.start(), Limits{});
  EXPECT_EQ(m->value, r.value);
  const auto values = fresh.moveValues(board.start(), Limits{});
  for (const auto& mv : values) EXPECT_LE(mv.value, m->value);
}

TEST(Book, BadLinesAreRefusedWithTheirNumber) {
  const auto bad = Book::parse("# fine\nkalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S 9 1\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("line 2"), std::string::npos);
  EXPECT_FALSE(Book::parse("kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S three 1\n"));
  EXPECT_FALSE(Book::parse("nonsense 1 1\n"));
  EXPECT_FALSE(Book::parse("kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S\n"));
}

}  // namespace
}  // namespace semis::engine
