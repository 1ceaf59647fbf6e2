#pragma once
// A suite that runs on every backend: SQLite always, PostgreSQL with SEMIS_TEST_PG (skipped
// without it). Each test opens a store on a fresh, empty database (TestDb.hpp).

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "store/Store.hpp"
#include "TestDb.hpp"

namespace semis::store::testing {

// A token's hash as the store keeps it (64 hex digits), made of one repeated character.
inline std::string hashOf(char c) { return std::string(64, c); }

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

// Statements run beside the store, as an operator would (the test's own connection): the error, or "".
inline std::string rawExec(const TestDb& db, const std::string& sql) {
  if (!db.name().empty()) return pgAdmin(db.where(), sql);
  sqlite3* conn = nullptr;
  std::string error;
  if (sqlite3_open(db.where().c_str(), &conn) != SQLITE_OK) return "cannot open";
  char* message = nullptr;
  if (sqlite3_exec(conn, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) error = message ? message : "failed";
  sqlite3_free(message);
  sqlite3_close(conn);
  return error;
}

}  // namespace semis::store::testing
