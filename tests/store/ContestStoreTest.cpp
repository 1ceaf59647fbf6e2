// Bots' matches and tournaments (store/ContestStore.hpp) on every backend: SQLite always,
// PostgreSQL with SEMIS_TEST_PG. A contest is created at version 1; a write names the version it
// read and changes nothing when another came first; the recent list is by kind, newest first; the
// running ones are what a restart takes up (schema version 7).

#include <gtest/gtest.h>

#include "store/ContestStore.hpp"
#include "BackendSuite.hpp"

namespace semis::store {
namespace {

class ContestSuite : public testing::BackendSuite {
 protected:
  ContestStore& contests() { return store_->contests(); }
  static ContestRow row(const std::string& id, const std::string& kind, long long created) {
    return ContestRow{id, kind, kind == "match" ? "" : "Spring", "alice00001", "kalah,houses=4,seeds=3", "running",
                      created, created, 1, R"({"games":[]})"};
  }
};

TEST_P(ContestSuite, AContestIsKeptAndReadBack) {
  ASSERT_TRUE(contests().createContest(row("c1", "tournament", 100)));
  auto back = contests().contest("c1");
  ASSERT_TRUE(back && *back);
  EXPECT_EQ((*back)->kind, "tournament");
  EXPECT_EQ((*back)->name, "Spring");
  EXPECT_EQ((*back)->owner, "alice00001");
  EXPECT_EQ((*back)->rules, "kalah,houses=4,seeds=3");
  EXPECT_EQ((*back)->status, "running");
  EXPECT_EQ((*back)->version, 1);
  EXPECT_EQ((*back)->body, R"({"games":[]})");
  EXPECT_FALSE(*contests().contest("nope"));
  auto twice = contests().createContest(row("c1", "match", 200));
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().fault, Fault::Conflict);
}

TEST_P(ContestSuite, AWriteNamesTheVersionItReadAndASecondWriterChangesNothing) {
  ASSERT_TRUE(contests().createContest(row("c1", "match", 100)));
  ContestRow mine = row("c1", "match", 100);
  mine.version = 2;
  mine.body = R"({"games":[1]})";
  mine.updated = 150;
  auto first = contests().updateContest(mine);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(*first);
  ContestRow theirs = row("c1", "match", 100);
  theirs.version = 2;  // read version 1 too
  theirs.body = R"({"games":[2]})";
  EXPECT_FALSE(*contests().updateContest(theirs));
  auto back = contests().contest("c1");
  EXPECT_EQ((*back)->body, R"({"games":[1]})");
  EXPECT_EQ((*back)->updated, 150);
  EXPECT_EQ((*back)->version, 2);
  ContestRow ghost = row("zz", "match", 1);
  ghost.version = 2;
  EXPECT_FALSE(*contests().updateContest(ghost)) << "no such contest: nothing written";
}

TEST_P(ContestSuite, RecentByKindNewestFirstAndTheRunningOnesOldestFirst) {
  ASSERT_TRUE(contests().createContest(row("m1", "match", 100)));
  ASSERT_TRUE(contests().createContest(row("t1", "tournament", 200)));
  ASSERT_TRUE(contests().createContest(row("m2", "match", 300)));
  ContestRow done = row("m1", "match", 100);
  done.version = 2;
  done.status = "over";
  ASSERT_TRUE(*contests().updateContest(done));
  auto matches = contests().recentContests("match", 10);
  ASSERT_TRUE(matches);
  ASSERT_EQ(matches->size(), 2U);
  EXPECT_EQ((*matches)[0].id, "m2");
  EXPECT_EQ((*matches)[1].id, "m1");
  EXPECT_EQ((*matches)[1].status, "over");
  EXPECT_EQ(contests().recentContests("match", 1)->size(), 1U);
  auto running = contests().runningContests(10);
  ASSERT_TRUE(running);
  ASSERT_EQ(running->size(), 2U);
  EXPECT_EQ((*running)[0].id, "t1");
  EXPECT_EQ((*running)[1].id, "m2");
}

// A database of schema version 6 (bots, no contests) is upgraded in place when opened.
TEST_P(ContestSuite, AVersion6DatabaseGainsContests) {
  store_.reset();
  ASSERT_EQ(testing::rawExec(*db_, "DROP TABLE bot_accuracy"), "");  // (a later version's)
  ASSERT_EQ(testing::rawExec(*db_, "DROP TABLE contests"), "");
  ASSERT_EQ(testing::rawExec(*db_, "UPDATE schema_version SET version=6"), "");
  auto reopened = openStore(db_->where());
  ASSERT_TRUE(reopened) << reopened.error().message;
  store_ = std::move(*reopened);
  EXPECT_TRUE(contests().createContest(row("c1", "match", 100)));
  EXPECT_TRUE(*contests().contest("c1"));
}

INSTANTIATE_TEST_SUITE_P(Backends, ContestSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace semis::store
