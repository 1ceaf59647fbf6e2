// The daily challenge's records (store/StudyStore.hpp) on every backend: SQLite always, PostgreSQL
// with SEMIS_TEST_PG. A day keeps the first puzzle written, raced from threads; a player's first
// result of a day is the one kept.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "store/StudyStore.hpp"
#include "BackendSuite.hpp"

namespace semis::store {
namespace {

class StudySuite : public testing::BackendSuite {
 protected:
  StudyStore& study() { return store_->study(); }
};

PuzzleRow puzzle(long long day, const std::string& position) {
  return PuzzleRow{"kalah", day, position, 2, "5,5,4", 3, 1000 + day};
}

TEST_P(StudySuite, ADayKeepsTheFirstPuzzleWrittenEvenWhenRaced) {
  EXPECT_FALSE(*study().puzzle("kalah", 20791));
  std::vector<std::thread> threads;
  std::atomic<int> agreed{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      auto kept = study().keepPuzzle(puzzle(20791, "kalah/0,0,0,0,1," + std::to_string(i) + "/0,0,0,3,1,9/22,10/N"));
      if (kept && kept->day == 20791) agreed += 1;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(agreed.load(), 4);
  auto kept = study().puzzle("kalah", 20791);
  ASSERT_TRUE(kept && *kept);
  // Every racer was answered the row that stayed.
  auto again = study().keepPuzzle(puzzle(20791, "something else"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->position, (*kept)->position);
  EXPECT_EQ((*kept)->line, "5,5,4");
  EXPECT_EQ((*kept)->value, 2);
  EXPECT_EQ((*kept)->decisions, 3);
  EXPECT_TRUE(*study().puzzleGiven("kalah", (*kept)->position));
  EXPECT_FALSE(*study().puzzleGiven("kalah-club", (*kept)->position));
  EXPECT_FALSE(*study().puzzleGiven("kalah", "never given"));
}

TEST_P(StudySuite, PastDaysComeNewestFirst) {
  for (long long d = 20788; d <= 20791; ++d) ASSERT_TRUE(study().keepPuzzle(puzzle(d, "p" + std::to_string(d))));
  auto before = study().puzzlesBefore("kalah", 20791, 2);
  ASSERT_TRUE(before);
  ASSERT_EQ(before->size(), 2U);
  EXPECT_EQ((*before)[0].day, 20790);
  EXPECT_EQ((*before)[1].day, 20789);
}

TEST_P(StudySuite, APlayersFirstResultOfADayIsTheOneKept) {
  auto first = study().addResult(DailyResultRow{"alice00001", "kalah", 20791, true, 2, 5});
  ASSERT_TRUE(first);
  EXPECT_TRUE(*first);
  auto second = study().addResult(DailyResultRow{"alice00001", "kalah", 20791, false, 0, 6});
  ASSERT_TRUE(second);
  EXPECT_FALSE(*second);
  ASSERT_TRUE(study().addResult(DailyResultRow{"alice00001", "kalah", 20790, false, 1, 4}));
  ASSERT_TRUE(study().addResult(DailyResultRow{"alice00001", "congkak", 20791, true, 3, 4}));
  auto rows = study().results("alice00001", "kalah", 10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2U);
  EXPECT_EQ((*rows)[0].day, 20791);
  EXPECT_TRUE((*rows)[0].solved);
  EXPECT_EQ((*rows)[0].result, 2);
  EXPECT_EQ((*rows)[1].day, 20790);
  EXPECT_FALSE((*rows)[1].solved);
  EXPECT_TRUE(study().results("bob0000001", "kalah", 10)->empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, StudySuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace semis::store
