#pragma once
// What SqliteStore.cpp and SqliteClub.cpp share: binding and reading values, cached statements
// reset whatever way a call leaves, and the one way a write transaction happens.

#include <sqlite3.h>

#include <string>

#include "store/SqliteStore.hpp"

namespace semis::store {

inline void bindText(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

inline std::string colText(sqlite3_stmt* s, int i) {
  const auto* p = sqlite3_column_text(s, i);
  return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
}

// A games row read from column `c` on: id, rules, mode, level, clock_seconds, clock_increment, seat_s,
// seat_n, status, result, created, updated, rated.
inline GameRow gameRow(sqlite3_stmt* s, int c = 0) {
  GameRow g;
  g.id = colText(s, c + 0);
  g.rules = colText(s, c + 1);
  g.mode = colText(s, c + 2);
  g.level = colText(s, c + 3);
  g.clockSeconds = sqlite3_column_int(s, c + 4);
  g.clockIncrement = sqlite3_column_int(s, c + 5);
  g.seatS = colText(s, c + 6);
  g.seatN = colText(s, c + 7);
  g.status = colText(s, c + 8);
  g.result = colText(s, c + 9);
  g.created = sqlite3_column_int64(s, c + 10);
  g.updated = sqlite3_column_int64(s, c + 11);
  g.rated = sqlite3_column_int(s, c + 12) != 0;
  return g;
}

// Resets a cached statement whatever way the call leaves.
struct Reset {
  sqlite3_stmt* s;
  ~Reset() {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
  }
};

#define SEMIS_PREPARE(conn, var, sql)                   \
  auto var##Or = (conn).prepare(sql);                   \
  if (!var##Or) return tl::unexpected(var##Or.error()); \
  sqlite3_stmt* var = *var##Or;                         \
  Reset var##Reset { var }

// The one place a write transaction happens: the writer's mutex for the whole transaction (no other
// thread's statement can land inside it), BEGIN IMMEDIATE (the file's write lock taken up front, so
// a transaction never fails half way for a lock), COMMIT or ROLLBACK whatever `body` answers.
template <class T, class Body>
StoreResult<T> writeTransaction(SqliteConn& conn, Body&& body) {
  std::lock_guard lock(conn.mutex);
  if (auto r = conn.run("BEGIN IMMEDIATE"); !r) return tl::unexpected(r.error());
  StoreResult<T> result = body();
  if (result) {
    if (auto c = conn.run("COMMIT"); !c) result = tl::unexpected(c.error());
  }
  if (!result) conn.rollback();
  return result;
}


}  // namespace semis::store
