#pragma once
// What a backend gives the store's one SQL implementation (SqlStore.cpp, SqlClub.cpp,
// StudyStore.cpp, SessionStore.cpp): statements with numbered parameters ($1..$n, bound by number
// on both backends), run in a transaction of the kind asked, their faults mapped to the store's
// (busy, full, readonly, conflict...). A statement's text is the same on SQLite and PostgreSQL; what
// really differs (the schema's first steps and how migrations are serialised, PostgreSQL's action in
// one round trip, a batched read, housekeeping) are the runner's dialect hooks below.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

// A statement's parameter. (Pass ints, bools and sizes as long long: a variant would not choose.)
using SqlValue = std::variant<long long, double, std::string>;

// One row of a result. SQLite answers typed values, PostgreSQL text: the readers convert either.
class SqlRow {
 public:
  using Cell = std::variant<std::monostate, long long, double, std::string>;
  explicit SqlRow(std::vector<Cell> cells) : cells_(std::move(cells)) {}

  [[nodiscard]] std::string text(std::size_t i) const;  // "" for NULL
  [[nodiscard]] long long integer(std::size_t i) const;
  [[nodiscard]] int small(std::size_t i) const { return static_cast<int>(integer(i)); }
  [[nodiscard]] double real(std::size_t i) const;
  [[nodiscard]] bool null(std::size_t i) const { return std::holds_alternative<std::monostate>(cells_.at(i)); }

 private:
  std::vector<Cell> cells_;
};

struct SqlResult {
  std::vector<SqlRow> rows;
  long long changed = 0;  // the rows an INSERT, UPDATE or DELETE touched
};

// The statements of one transaction.
class SqlTx {
 public:
  virtual ~SqlTx() = default;
  virtual StoreResult<SqlResult> run(std::string_view sql, const std::vector<SqlValue>& params = {}) = 0;
  // A script of statements without parameters (a schema step).
  virtual StoreResult<void> script(const char* sql) = 0;
};

// Write: one transaction, kept whole or not at all (SQLite: the writer's BEGIN IMMEDIATE; PostgreSQL:
// BEGIN..COMMIT). Snapshot: several reads as of one commit. Read: one reading statement (SQLite's
// reader connection; PostgreSQL retries it once on a dropped connection).
enum class Access { Write, Snapshot, Read };

// One schema version and the script that makes it from the one before.
struct SchemaStep {
  int version;
  const char* sql;
};

// The newest schema version, on both backends.
inline constexpr int kSchemaVersion = 8;

class SqlRunner {
 public:
  virtual ~SqlRunner() = default;
  SqlRunner() = default;
  SqlRunner(const SqlRunner&) = delete;
  SqlRunner& operator=(const SqlRunner&) = delete;

  // "sqlite" or "postgresql".
  [[nodiscard]] virtual std::string_view backend() const = 0;
  // Runs `body` in one transaction of the kind asked; any failure (the body's, the commit's) rolls
  // it back. The body may run twice (PostgreSQL, a connection lost before anything was kept).
  virtual StoreResult<void> transaction(Access access, const std::function<StoreResult<void>(SqlTx&)>& body) = 0;

  // One statement in a transaction of its own.
  StoreResult<SqlResult> run(Access access, std::string_view sql, const std::vector<SqlValue>& params = {});

  // Dialect hooks.
  // The backend's schema steps, oldest first; the last is kSchemaVersion.
  [[nodiscard]] virtual std::span<const SchemaStep> schemaSteps() const = 0;
  // Inside a migration step's Write transaction: serialises the servers that migrate one database
  // at once, and reads the version (0: an empty database).
  virtual StoreResult<int> schemaVersion(SqlTx& tx) = 0;
  // Before (true) and after (false) the migration steps.
  virtual StoreResult<void> migrating(bool /*starting*/) { return {}; }
  // An action written in a faster way than the shared statements, or nothing (use them).
  virtual std::optional<StoreResult<void>> applyFast(const Action& /*action*/) { return std::nullopt; }
  // Store::lastEvents in one statement, or nothing (one shared statement per game).
  virtual std::optional<StoreResult<std::vector<long long>>> lastEvents(const std::vector<std::string>& /*ids*/) {
    return std::nullopt;
  }
  // Store::maintain.
  virtual StoreResult<void> maintain() { return {}; }
};

// A transaction whose body answers a value.
template <class T, class Body>
StoreResult<T> transact(SqlRunner& runner, Access access, Body&& body) {
  if constexpr (std::is_void_v<T>) {
    return runner.transaction(access, body);
  } else {
    std::optional<T> out;
    auto done = runner.transaction(access, [&](SqlTx& tx) -> StoreResult<void> {
      StoreResult<T> value = body(tx);
      if (!value) return tl::unexpected(value.error());
      out.emplace(std::move(*value));
      return {};
    });
    if (!done) return tl::unexpected(done.error());
    return std::move(*out);
  }
}

// The shared store over a backend's runner, its schema migrated to kSchemaVersion and written once
// (a database that cannot be written fails here, not at the first move). SqlStore.cpp.
[[nodiscard]] StoreResult<std::unique_ptr<Store>> openSqlStore(std::unique_ptr<SqlRunner> runner);

// PostgreSQL's text for a number (SqlStore.cpp): every digit a double holds.
[[nodiscard]] std::string realText(double v);

}  // namespace semis::store
