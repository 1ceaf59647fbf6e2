#pragma once
// Bots' matches and tournaments (contests/, docs/bots.md): one row a contest, its state (entrants,
// schedule, games, results) kept as the contests module writes it, so that a contest survives a
// restart and goes on. Reached through Store::contests().
//
// Each write names the version it read: a second writer of the same contest (another instance that
// drove it meanwhile) changes nothing and hears `false`, so one step is never taken twice.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

struct ContestRow {
  std::string id;
  std::string kind;    // match | tournament
  std::string name;    // a tournament's name ("" for a match)
  std::string owner;   // the member who started it
  std::string rules;   // toString(Rules)
  std::string status;  // running | over
  long long created = 0;  // unix ms
  long long updated = 0;  // unix ms of the last write
  long long version = 1;  // 1 when created, one more each write
  std::string body;       // the contest's state, as contests/ writes it (JSON)
};

class ContestStore {
 public:
  virtual ~ContestStore() = default;
  ContestStore() = default;
  ContestStore(const ContestStore&) = delete;
  ContestStore& operator=(const ContestStore&) = delete;

  // A new contest (its version is 1); the same id twice is a Fault::Conflict.
  virtual StoreResult<void> createContest(const ContestRow& contest) = 0;
  // Its status, updated, body and version (to `contest.version`) written when the stored version is
  // still `contest.version - 1`: true; false (nothing written) when another write came first or
  // there is no such contest.
  virtual StoreResult<bool> updateContest(const ContestRow& contest) = 0;
  virtual StoreResult<std::optional<ContestRow>> contest(const std::string& id) = 0;
  // Of one kind, newest first, at most `limit`.
  virtual StoreResult<std::vector<ContestRow>> recentContests(const std::string& kind, std::size_t limit) = 0;
  // Those still running, oldest first, at most `limit` (the server takes them up again at start).
  virtual StoreResult<std::vector<ContestRow>> runningContests(std::size_t limit) = 0;
};

class SqlRunner;
[[nodiscard]] std::unique_ptr<ContestStore> makeContestStore(SqlRunner& runner);

// Schema version 7, the same text for SQLite and PostgreSQL.
inline constexpr const char* kContestSchema = R"SQL(
CREATE TABLE contests(id text PRIMARY KEY, kind text NOT NULL, name text NOT NULL, owner text NOT NULL,
  rules text NOT NULL, status text NOT NULL, created bigint NOT NULL, updated bigint NOT NULL,
  version bigint NOT NULL, body text NOT NULL);
CREATE INDEX contests_kind ON contests(kind, created);
CREATE INDEX contests_status ON contests(status, created);
)SQL";

}  // namespace semis::store
