#pragma once
// A suite that runs on every backend: SQLite always, PostgreSQL with SEMIS_TEST_PG (skipped
// without it). Each test opens a store on a fresh, empty database (TestDb.hpp).

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "store/Store.hpp"
#include "TestDb.hpp"

namespace semis::store::testing {

class BackendSuite : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql" && !pgAdminUrl()) GTEST_SKIP() << "set SEMIS_TEST_PG for PostgreSQL";
    db_ = std::make_unique<TestDb>(GetParam());
    ASSERT_EQ(db_->error(), "");
    auto s = openStore(db_->where());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
  }
  // For a derived SetUp: whether this one skipped or failed (then nothing more is to be done).
  [[nodiscard]] bool notReady() const { return IsSkipped() || HasFatalFailure(); }

  std::unique_ptr<TestDb> db_;
  std::unique_ptr<Store> store_;
};

}  // namespace semis::store::testing
