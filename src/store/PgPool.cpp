#include "store/PgPool.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace semis::store {

namespace {

// How long a call waits for one of the pool's connections before answering Busy.
constexpr auto kLeaseWait = std::chrono::seconds(5);

// CREATE ... IF NOT EXISTS and the like speak through notices; libpq would print them on stderr,
// in the middle of the server's JSON log.
void quietNotices(void*, const char*) {}

std::string trimmed(const char* message) {
  std::string s = message == nullptr ? "" : message;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

StoreError resultError(PGconn* conn, const PGresult* r, const char* what) {
  const bool lost = PQstatus(conn) == CONNECTION_BAD;
  const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  const std::string message = r != nullptr && *PQresultErrorMessage(r) != '\0' ? trimmed(PQresultErrorMessage(r))
                                                                                 : trimmed(PQerrorMessage(conn));
  return StoreError{pgFault(state, lost), std::string(what) + ": " + message};
}

}  // namespace

long long PgResult::number(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }

long long PgResult::affected() const { return std::strtoll(PQcmdTuples(r_), nullptr, 10); }

Fault pgFault(const char* sqlState, bool connectionLost) {
  const std::string s = sqlState == nullptr ? "" : sqlState;
  if (s == "53100") return Fault::Full;        // disk_full
  if (s == "25006") return Fault::ReadOnly;    // read_only_sql_transaction (a standby, a read-only database)
  if (s.starts_with("23")) return Fault::Conflict;  // unique_violation 23505, foreign keys...
  if (s == "40001" || s == "40P01" ||          // serialization failure, deadlock: retry
      s == "55P03" || s == "57014" ||          // lock_timeout, statement canceled
      s == "53300" ||                          // too many connections
      s.starts_with("57P") ||                  // admin or crash shutdown, cannot connect now
      s.starts_with("08")) {                   // connection exceptions
    return Fault::Busy;
  }
  if (s == "XX001" || s == "XX002") return Fault::Corrupt;
  if (s.empty() && connectionLost) return Fault::Busy;
  return Fault::Other;
}

StoreResult<PgResult> pgQuery(PGconn* conn, const char* sql, const std::vector<std::string>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  PgResult r(PQexecParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
  const auto status = PQresultStatus(r.raw());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return tl::unexpected(resultError(conn, r.raw(), sql));
  return r;
}

StoreResult<void> pgScript(PGconn* conn, const char* sql) {
  PgResult r(PQexec(conn, sql));
  const auto status = PQresultStatus(r.raw());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return tl::unexpected(resultError(conn, r.raw(), "schema"));
  return {};
}

PgPool::PgPool(std::string url, int size, int lockTimeoutMs)
    : url_(std::move(url)), lockTimeoutMs_(lockTimeoutMs), conns_(static_cast<std::size_t>(size), nullptr) {
  for (int i = size - 1; i >= 0; --i) free_.push_back(i);
}

PgPool::~PgPool() {
  for (PGconn* c : conns_) PQfinish(c);
}

StoreResult<PGconn*> PgPool::connect() {
  // The URL first (expanded into its parts), then what the store needs on top: an answer within
  // seconds when the server is unreachable, and a dead peer noticed by the kernel.
  const char* keys[] = {"dbname", "connect_timeout", "keepalives_idle", "keepalives_interval", "application_name", nullptr};
  const char* values[] = {url_.c_str(), "3", "10", "5", "semis", nullptr};
  PGconn* conn = PQconnectdbParams(keys, values, 1);
  if (conn == nullptr) return tl::unexpected(StoreError{Fault::Other, "postgresql: out of memory"});
  if (PQstatus(conn) != CONNECTION_OK) {
    StoreError e{Fault::Busy, "cannot connect to postgresql: " + trimmed(PQerrorMessage(conn))};
    // A wrong password or a missing database does not get better by retrying.
    if (e.message.find("authentication") != std::string::npos || e.message.find("does not exist") != std::string::npos) {
      e.fault = Fault::Other;
    }
    PQfinish(conn);
    return tl::unexpected(e);
  }
  PQsetNoticeProcessor(conn, quietNotices, nullptr);
  // Another session's lock (a migration, a LOCK TABLE in a shell) is waited for at most this long,
  // then the call answers Busy: the same promise as SQLite's busy timeout.
  const std::string set = "SET lock_timeout = " + std::to_string(lockTimeoutMs_);
  if (auto r = pgScript(conn, set.c_str()); !r) {
    PQfinish(conn);
    return tl::unexpected(r.error());
  }
  return conn;
}

StoreResult<PgPool::Lease> PgPool::acquire() {
  int slot = -1;
  {
    std::unique_lock lock(mutex_);
    if (!freed_.wait_for(lock, kLeaseWait, [&] { return !free_.empty(); })) {
      return tl::unexpected(StoreError{Fault::Busy, "postgresql: every connection is in use"});
    }
    slot = free_.back();
    free_.pop_back();
  }
  Lease lease(this, slot);
  PGconn*& conn = conns_[static_cast<std::size_t>(slot)];
  if (conn != nullptr && PQstatus(conn) != CONNECTION_OK) lease.drop();
  if (conn == nullptr) {
    auto made = connect();
    if (!made) return tl::unexpected(made.error());
    conn = *made;
  }
  return lease;
}

void PgPool::release(int slot) {
  {
    std::lock_guard lock(mutex_);
    free_.push_back(slot);
  }
  freed_.notify_one();
}

PgPool::Lease::~Lease() {
  if (pool_ != nullptr) pool_->release(slot_);
}

PGconn* PgPool::Lease::conn() const { return pool_->conns_[static_cast<std::size_t>(slot_)]; }

void PgPool::Lease::drop() {
  PGconn*& conn = pool_->conns_[static_cast<std::size_t>(slot_)];
  PQfinish(conn);
  conn = nullptr;
}

}  // namespace semis::store
