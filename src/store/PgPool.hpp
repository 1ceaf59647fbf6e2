#pragma once
// A few libpq connections shared by the server's threads: each call leases one for its whole
// duration (one transaction, never interleaved with another thread's statements), and gives it
// back. A connection found broken is closed and opened anew on its next lease.

#include <libpq-fe.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

// A query's result, cleared when it goes.
class PgResult {
 public:
  explicit PgResult(PGresult* r) : r_(r) {}
  ~PgResult() { PQclear(r_); }
  PgResult(PgResult&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  PgResult& operator=(PgResult&&) = delete;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;

  [[nodiscard]] PGresult* raw() const { return r_; }
  [[nodiscard]] int rows() const { return PQntuples(r_); }
  [[nodiscard]] std::string text(int row, int col) const { return PQgetvalue(r_, row, col); }
  [[nodiscard]] long long number(int row, int col) const;
  // Rows an INSERT, UPDATE or DELETE touched.
  [[nodiscard]] long long affected() const;

 private:
  PGresult* r_;
};

// The store's fault for a PostgreSQL error (its SQLSTATE), or for a lost connection.
[[nodiscard]] Fault pgFault(const char* sqlState, bool connectionLost);

// One parameterized statement (text parameters, text results).
StoreResult<PgResult> pgQuery(PGconn* conn, const char* sql, const std::vector<std::string>& params = {});
// A script without parameters (the schema).
StoreResult<void> pgScript(PGconn* conn, const char* sql);

class PgPool {
 public:
  PgPool(std::string url, int size, int lockTimeoutMs);
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  class Lease {
   public:
    Lease(PgPool* pool, int slot) : pool_(pool), slot_(slot) {}
    Lease(Lease&& o) noexcept : pool_(o.pool_), slot_(o.slot_) { o.pool_ = nullptr; }
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    [[nodiscard]] PGconn* conn() const;
    // Closes the connection: the next lease of this slot connects anew.
    void drop();

   private:
    PgPool* pool_;
    int slot_;
  };

  // A connection, opened if the slot has none; Busy when the server cannot be reached or every
  // connection stays leased for too long.
  StoreResult<Lease> acquire();

 private:
  StoreResult<PGconn*> connect();
  void release(int slot);

  std::string url_;
  int lockTimeoutMs_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<PGconn*> conns_;
  std::vector<int> free_;
};

}  // namespace semis::store
