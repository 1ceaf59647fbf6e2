#pragma once
// The embedded backend: one SQLite file in WAL mode, used by one server process from many threads.
// Writes go through one connection under a mutex (a transaction never interleaves with another
// thread's statements); reads take a second connection, so a reader never waits for a writer (WAL
// readers see the last commit); the checkpoint runs on a third, off the request path.
// synchronous=NORMAL: in WAL mode a commit is in the OS once the call returns, so killing the
// process (kill -9) at any moment loses no committed action; only a power cut could lose the last
// commits, and FULL's fsync per action would cost far more than the actions themselves.
// The statements are the store's shared ones (SqlStore.cpp); this backend is their runner.

#include <sqlite3.h>

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "store/SqlRunner.hpp"
#include "store/Store.hpp"

namespace semis::store {

// One SQLite connection, its cached statements and its busy deadline; used only under `mutex`.
struct SqliteConn {
  sqlite3* db = nullptr;
  std::mutex mutex;
  std::unordered_map<std::string, sqlite3_stmt*> statements;  // keyed by the SQL text
  int busyTimeoutMs = 250;
  std::chrono::steady_clock::time_point busySince;

  ~SqliteConn();
  StoreResult<sqlite3_stmt*> prepare(std::string_view sql);
  // A script of statements without parameters (the schema).
  StoreResult<void> exec(const char* sql);
  // One cached statement without parameters and without rows (BEGIN, COMMIT...).
  StoreResult<void> run(const char* sql);
  // Ends the open transaction, if any, keeping nothing.
  void rollback();
  [[nodiscard]] StoreError error(int rc, const std::string& what) const;
};

// Maps an SQLite result code to the store's fault.
[[nodiscard]] Fault sqliteFault(int rc);

// Opens (creating it if need be) and migrates the file at `path` (SqliteStore.cpp).
[[nodiscard]] StoreResult<std::unique_ptr<Store>> openSqlite(const std::string& path, const OpenOptions& options);
// The runner alone, its schema as found (openSqlite's first half; the tests run statements on it).
[[nodiscard]] StoreResult<std::unique_ptr<SqlRunner>> openSqliteRunner(const std::string& path,
                                                                       const OpenOptions& options);

// The schema's steps, version 1 (the unversioned schema) to kSchemaVersion (SqliteSchema.cpp).
[[nodiscard]] std::span<const SchemaStep> sqliteSchemaSteps();
// The schema version the file holds: 0 for an empty file, 1 for the unversioned schema.
StoreResult<int> sqliteSchemaVersion(SqlTx& tx);
// Registers semis_hash_token(token) and semis_new_id(), options' hashToken and newId, for step 2.
// `options` must outlive the connection.
int registerSqliteFunctions(sqlite3* db, const OpenOptions* options);

}  // namespace semis::store
