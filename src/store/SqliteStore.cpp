#include "store/SqliteStore.hpp"

#include <cerrno>
#include <charconv>
#include <thread>

namespace semis::store {

namespace {

// SQLite's own busy handler sleeps in steps of up to 100 ms; the checkpoint's log restart holds
// writers for far less, so a call waiting on it retries every 200 us at first. Another process's
// lock (a backup, a shell's BEGIN EXCLUSIVE) is given the connection's busyTimeoutMs, then the
// call answers Busy: the server says "retry" instead of freezing.
int busyHandler(void* arg, int count) {
  auto* conn = static_cast<SqliteConn*>(arg);
  const auto now = std::chrono::steady_clock::now();
  if (count == 0) conn->busySince = now;
  if (now - conn->busySince >= std::chrono::milliseconds(conn->busyTimeoutMs)) return 0;
  std::this_thread::sleep_for(count < 50 ? std::chrono::microseconds(200) : std::chrono::microseconds(2000));
  return 1;
}

StoreResult<void> openConn(SqliteConn& conn, const std::string& path, int flags, int busyTimeoutMs) {
  conn.busyTimeoutMs = busyTimeoutMs;
  const int rc = sqlite3_open_v2(path.c_str(), &conn.db, flags | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    if (conn.db == nullptr) return tl::unexpected(StoreError{Fault::Other, "cannot open " + path + ": out of memory"});
    return tl::unexpected(conn.error(rc, "cannot open " + path));
  }
  sqlite3_extended_result_codes(conn.db, 1);
  sqlite3_busy_handler(conn.db, busyHandler, &conn);
  return {};
}

// Resets a cached statement whatever way the call leaves.
struct Reset {
  sqlite3_stmt* s;
  ~Reset() {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
  }
};

// The number N of a parameter named "$N" or "?N" (SQLite numbers "$N" names by first appearance,
// not by N), or 0.
std::size_t parameterNumber(const char* name) {
  if (name == nullptr || (name[0] != '$' && name[0] != '?')) return 0;
  const std::string_view digits(name + 1);
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return ec == std::errc() && end == digits.data() + digits.size() ? n : 0;
}

// The statements of one transaction on one connection, its mutex held.
class SqliteTx final : public SqlTx {
 public:
  explicit SqliteTx(SqliteConn& conn) : conn_(conn) {}

  StoreResult<SqlResult> run(std::string_view sql, const std::vector<SqlValue>& params) override {
    auto prepared = conn_.prepare(sql);
    if (!prepared) return tl::unexpected(prepared.error());
    sqlite3_stmt* s = *prepared;
    Reset reset{s};
    // Each parameter by its number: "$2" binds params[1] wherever it first appears; a plain "?"
    // takes its position.
    for (int i = 1; i <= sqlite3_bind_parameter_count(s); ++i) {
      const char* name = sqlite3_bind_parameter_name(s, i);
      const std::size_t n = name == nullptr ? static_cast<std::size_t>(i) : parameterNumber(name);
      if (n == 0 || n > params.size()) {
        return tl::unexpected(StoreError{Fault::Other, "parameter " + std::string(name != nullptr ? name : "?") +
                                                           " not given: " + std::string(sql)});
      }
      const SqlValue& v = params[n - 1];
      if (const auto* x = std::get_if<long long>(&v)) sqlite3_bind_int64(s, i, *x);
      if (const auto* d = std::get_if<double>(&v)) sqlite3_bind_double(s, i, *d);
      if (const auto* t = std::get_if<std::string>(&v)) {
        sqlite3_bind_text(s, i, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
      }
    }
    SqlResult out;
    int rc = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
      std::vector<SqlRow::Cell> cells;
      for (int c = 0; c < sqlite3_column_count(s); ++c) {
        switch (sqlite3_column_type(s, c)) {
          case SQLITE_INTEGER:
            cells.emplace_back(static_cast<long long>(sqlite3_column_int64(s, c)));
            break;
          case SQLITE_FLOAT:
            cells.emplace_back(sqlite3_column_double(s, c));
            break;
          case SQLITE_NULL:
            cells.emplace_back(std::monostate{});
            break;
          default: {
            const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
            cells.emplace_back(std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, c))));
          }
        }
      }
      out.rows.emplace_back(std::move(cells));
    }
    if (rc != SQLITE_DONE) return tl::unexpected(conn_.error(rc, std::string(sql.substr(0, 60))));
    out.changed = sqlite3_changes(conn_.db);
    return out;
  }

  StoreResult<void> script(const char* sql) override { return conn_.exec(sql); }

 private:
  SqliteConn& conn_;
};

class SqliteRunner final : public SqlRunner {
 public:
  explicit SqliteRunner(OpenOptions options) : options_(std::move(options)) {}

  ~SqliteRunner() override {
    std::lock_guard lock(writer_.mutex);
    if (writer_.db != nullptr) {
      (void)sqlite3_wal_checkpoint_v2(writer_.db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    }
  }

  StoreResult<void> open(const std::string& path) {
    SqliteConn& w = writer_;
    if (auto r = openConn(w, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, options_.busyTimeoutMs); !r) return r;
    // A file the process may not write opens read-only without a word, and then stays in its old
    // journal mode: check the mode took.
    auto journal = SqliteTx(w).run("PRAGMA journal_mode=WAL", {});
    if (!journal) return tl::unexpected(StoreError{journal.error().fault, "cannot use " + path + ": " + journal.error().message});
    const std::string got = journal->rows.empty() ? "" : journal->rows.front().text(0);
    if (got != "wal") {
      const bool readOnly = sqlite3_db_readonly(w.db, "main") == 1;
      return tl::unexpected(StoreError{readOnly ? Fault::ReadOnly : Fault::Other,
                                       "cannot use " + path + ": " +
                                           (readOnly ? "read-only" : "no write-ahead log (journal mode " + got + ")")});
    }
    // The checkpoint is maintain()'s alone (wal_autocheckpoint=0): its fsync would otherwise stall
    // the action that happened to trigger it.
    for (const char* sql : {"PRAGMA synchronous=NORMAL", "PRAGMA wal_autocheckpoint=0", "PRAGMA foreign_keys=ON"}) {
      if (auto r = w.exec(sql); !r) return r;
    }
    if (const int rc = registerSqliteFunctions(w.db, &options_); rc != SQLITE_OK) {
      return tl::unexpected(w.error(rc, "functions"));
    }
    if (auto r = openConn(reader_, path, SQLITE_OPEN_READWRITE, options_.busyTimeoutMs); !r) return r;
    (void)reader_.exec("PRAGMA query_only=1");
    SqliteConn& c = checkpointer_;
    if (auto r = openConn(c, path, SQLITE_OPEN_READWRITE, options_.busyTimeoutMs); !r) return r;
    // The checkpoint runs off the request path: it may wait longer for the log restart than a call.
    c.busyTimeoutMs = 1000;
    // A connection learns the file is in WAL mode only once it reads it; until then checkpoints do nothing.
    return c.exec("SELECT count(*) FROM sqlite_master");
  }

  [[nodiscard]] std::string_view backend() const override { return "sqlite"; }

  // Write: the writer's mutex for the whole transaction (no other thread's statement can land inside
  // it), BEGIN IMMEDIATE (the file's write lock taken up front, so a transaction never fails half way
  // for a lock), COMMIT or ROLLBACK whatever `body` answers. Reads take the reader.
  StoreResult<void> transaction(Access access, const std::function<StoreResult<void>(SqlTx&)>& body) override {
    SqliteConn& conn = access == Access::Write ? writer_ : reader_;
    std::lock_guard lock(conn.mutex);
    if (access != Access::Read) {
      if (auto r = conn.run(access == Access::Write ? "BEGIN IMMEDIATE" : "BEGIN"); !r) return r;
    }
    SqliteTx tx(conn);
    StoreResult<void> result = body(tx);
    if (result && access == Access::Write) {
      if (auto c = conn.run("COMMIT"); !c) result = tl::unexpected(c.error());
    }
    conn.rollback();  // a failed write, or a read transaction: nothing to keep
    return result;
  }

  [[nodiscard]] std::span<const SchemaStep> schemaSteps() const override { return sqliteSchemaSteps(); }
  StoreResult<int> schemaVersion(SqlTx& tx) override { return sqliteSchemaVersion(tx); }

  // Step 2 drops the plain tokens: freed pages are zeroed, so no copy of the file keeps them.
  StoreResult<void> migrating(bool starting) override {
    std::lock_guard lock(writer_.mutex);
    if (starting) return writer_.exec("PRAGMA secure_delete=ON");
    (void)writer_.exec("PRAGMA secure_delete=OFF");
    return {};
  }

  StoreResult<void> maintain() override {
    std::lock_guard lock(checkpointer_.mutex);
    int logFrames = 0;
    int copied = 0;
    int rc = sqlite3_wal_checkpoint_v2(checkpointer_.db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copied);
    // A passive checkpoint never resets the log while moves keep coming: once it has copied everything
    // and the log is long, restart it (a wait of a few frames for the writer, then the file starts over).
    if (rc == SQLITE_OK && logFrames > 4000 && copied == logFrames) {
      rc = sqlite3_wal_checkpoint_v2(checkpointer_.db, nullptr, SQLITE_CHECKPOINT_RESTART, nullptr, nullptr);
    }
    // Busy is no failure here: another process holds the file, the next round copies the log.
    if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY) return tl::unexpected(checkpointer_.error(rc, "checkpoint"));
    return {};
  }

 private:
  const OpenOptions options_;
  SqliteConn writer_;
  SqliteConn reader_;
  SqliteConn checkpointer_;
};

}  // namespace

Fault sqliteFault(int rc) {
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Fault::Busy;
    case SQLITE_FULL:
      return Fault::Full;
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return Fault::ReadOnly;
    case SQLITE_CONSTRAINT:
      return Fault::Conflict;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Fault::Corrupt;
    default:
      return Fault::Other;
  }
}

SqliteConn::~SqliteConn() {
  for (auto& [sql, stmt] : statements) sqlite3_finalize(stmt);
  sqlite3_close_v2(db);
}

StoreError SqliteConn::error(int rc, const std::string& what) const {
  Fault fault = sqliteFault(rc);
  // An I/O error or a file that cannot be opened says why only in errno: a full disk or a
  // read-only directory (the -wal and -shm files cannot be created) is the caller's business.
  if (fault == Fault::Other && db != nullptr) {
    const int err = sqlite3_system_errno(db);
    if (err == ENOSPC || err == EDQUOT) fault = Fault::Full;
    if (err == EROFS || err == EACCES || err == EPERM) fault = Fault::ReadOnly;
  }
  std::string message = what + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  return StoreError{fault, std::move(message)};
}

StoreResult<sqlite3_stmt*> SqliteConn::prepare(std::string_view sql) {
  std::string key(sql);
  if (auto it = statements.find(key); it != statements.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db, key.c_str(), static_cast<int>(key.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                                    nullptr);
  if (rc != SQLITE_OK) return tl::unexpected(error(rc, "prepare"));
  statements.emplace(std::move(key), stmt);
  return stmt;
}

StoreResult<void> SqliteConn::exec(const char* sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) return tl::unexpected(error(rc, "sqlite"));
  return {};
}

StoreResult<void> SqliteConn::run(const char* sql) {
  auto s = prepare(sql);
  if (!s) return tl::unexpected(s.error());
  Reset reset{*s};
  const int rc = sqlite3_step(*s);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return tl::unexpected(error(rc, sql));
  return {};
}

void SqliteConn::rollback() {
  if (db != nullptr && sqlite3_get_autocommit(db) == 0) (void)run("ROLLBACK");
}

StoreResult<std::unique_ptr<SqlRunner>> openSqliteRunner(const std::string& path, const OpenOptions& options) {
  auto runner = std::make_unique<SqliteRunner>(options);
  if (auto r = runner->open(path); !r) return tl::unexpected(r.error());
  return std::unique_ptr<SqlRunner>(std::move(runner));
}

StoreResult<std::unique_ptr<Store>> openSqlite(const std::string& path, const OpenOptions& options) {
  auto runner = openSqliteRunner(path, options);
  if (!runner) return tl::unexpected(runner.error());
  auto store = openSqlStore(std::move(*runner));
  if (!store) return tl::unexpected(StoreError{store.error().fault, path + ": " + store.error().message});
  return store;
}

}  // namespace semis::store
