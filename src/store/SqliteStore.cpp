#include "store/SqliteStore.hpp"

#include "store/SqliteCommon.hpp"

#include <cerrno>
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

constexpr const char* kGameColumns =
    "SELECT id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,created,updated,rated "
    "FROM games WHERE id=?";


long long nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
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

StoreResult<sqlite3_stmt*> SqliteConn::prepare(const char* sql) {
  if (auto it = statements.find(sql); it != statements.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return tl::unexpected(error(rc, "prepare"));
  statements.emplace(sql, stmt);
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
  SEMIS_PREPARE(*this, s, sql);
  const int rc = sqlite3_step(s);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return tl::unexpected(error(rc, sql));
  return {};
}

void SqliteConn::rollback() {
  if (db != nullptr && sqlite3_get_autocommit(db) == 0) (void)run("ROLLBACK");
}

StoreResult<std::unique_ptr<Store>> SqliteStore::open(const std::string& path, const OpenOptions& options) {
  std::unique_ptr<SqliteStore> store(new SqliteStore);
  SqliteConn& w = store->writer_;
  if (auto r = openConn(w, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, options.busyTimeoutMs); !r) {
    return tl::unexpected(r.error());
  }
  {
    // A file the process may not write opens read-only without a word, and then stays in its old
    // journal mode: check the mode took.
    SEMIS_PREPARE(w, s, "PRAGMA journal_mode=WAL");
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) return tl::unexpected(w.error(rc, "cannot use " + path));
    if (colText(s, 0) != "wal") {
      const bool readOnly = sqlite3_db_readonly(w.db, "main") == 1;
      return tl::unexpected(StoreError{readOnly ? Fault::ReadOnly : Fault::Other,
                                       "cannot use " + path + ": " +
                                           (readOnly ? "read-only" : "no write-ahead log (journal mode " + colText(s, 0) + ")")});
    }
  }
  // The checkpoint is maintain()'s alone (wal_autocheckpoint=0): its fsync would otherwise stall
  // the action that happened to trigger it.
  for (const char* sql : {"PRAGMA synchronous=NORMAL", "PRAGMA wal_autocheckpoint=0", "PRAGMA foreign_keys=ON"}) {
    if (auto r = w.exec(sql); !r) return tl::unexpected(r.error());
  }
  if (const int rc = registerSqliteFunctions(w.db); rc != SQLITE_OK) return tl::unexpected(w.error(rc, "functions"));
  if (auto r = migrateSqlite(w); !r) return tl::unexpected(StoreError{r.error().fault, path + ": " + r.error().message});
  // A real write now, so a read-only file or directory or a full disk stops the server at start
  // instead of at its first move.
  auto wrote = writeTransaction<void>(w, [&]() -> StoreResult<void> {
    SEMIS_PREPARE(w, s, "UPDATE schema_version SET opened=?");
    sqlite3_bind_int64(s, 1, nowMs());
    if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(w.error(rc, "write"));
    return {};
  });
  if (!wrote) return tl::unexpected(StoreError{wrote.error().fault, "cannot write " + path + ": " + wrote.error().message});

  if (auto r = openConn(store->reader_, path, SQLITE_OPEN_READWRITE, options.busyTimeoutMs); !r) {
    return tl::unexpected(r.error());
  }
  (void)store->reader_.exec("PRAGMA query_only=1");
  SqliteConn& c = store->checkpointer_;
  if (auto r = openConn(c, path, SQLITE_OPEN_READWRITE, options.busyTimeoutMs); !r) return tl::unexpected(r.error());
  // The checkpoint runs off the request path: it may wait longer for the log restart than a call.
  c.busyTimeoutMs = 1000;
  // A connection learns the file is in WAL mode only once it reads it; until then checkpoints do nothing.
  if (auto r = c.exec("SELECT count(*) FROM sqlite_master"); !r) return tl::unexpected(r.error());
  SqliteStore* self = store.get();
  store->club_ = makeSqliteClub(store->writer_, store->reader_,
                                [self](const GameRow& game, const std::vector<EventRow>& events) -> StoreResult<void> {
                                  if (auto r = self->insertGame(game); !r) return r;
                                  for (const EventRow& e : events) {
                                    if (auto r = self->insertEvent(game.id, e); !r) return r;
                                  }
                                  return {};
                                });
  const SqlCall call = [self](bool write, const char* sql, const std::vector<std::string>& params) {
    return sqliteCall(self->writer_, self->reader_, write, sql, params);
  };
  store->study_ = makeStudyStore(call);
  store->sessions_ = makeSessionStore(call);
  return std::unique_ptr<Store>(std::move(store));
}

SqliteStore::~SqliteStore() {
  std::lock_guard lock(writer_.mutex);
  if (writer_.db != nullptr) {
    (void)sqlite3_wal_checkpoint_v2(writer_.db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  }
}

StoreResult<void> SqliteStore::insertGame(const GameRow& g) {
  SEMIS_PREPARE(writer_, s,
                "INSERT INTO games(id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,"
                "created,updated,rated) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)");
  bindText(s, 1, g.id);
  bindText(s, 2, g.rules);
  bindText(s, 3, g.mode);
  bindText(s, 4, g.level);
  sqlite3_bind_int(s, 5, g.clockSeconds);
  sqlite3_bind_int(s, 6, g.clockIncrement);
  bindText(s, 7, g.seatS);
  bindText(s, 8, g.seatN);
  bindText(s, 9, g.status);
  bindText(s, 10, g.result);
  sqlite3_bind_int64(s, 11, g.created);
  sqlite3_bind_int64(s, 12, g.updated != 0 ? g.updated : g.created);
  sqlite3_bind_int(s, 13, g.rated ? 1 : 0);
  if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "game " + g.id));
  return {};
}

StoreResult<void> SqliteStore::insertEvent(const std::string& game, const EventRow& e) {
  SEMIS_PREPARE(writer_, s, "INSERT INTO events(game,n,json) VALUES(?,?,?)");
  bindText(s, 1, game);
  sqlite3_bind_int64(s, 2, e.n);
  bindText(s, 3, e.json);
  if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) {
    return tl::unexpected(writer_.error(rc, "event " + std::to_string(e.n) + " of game " + game));
  }
  return {};
}

StoreResult<void> SqliteStore::createPlayer(const PlayerRow& p, const std::string& tokenHash) {
  return writeTransaction<void>(writer_, [&]() -> StoreResult<void> {
    {
      SEMIS_PREPARE(writer_, s, "INSERT INTO players(id,name,created) VALUES(?,?,?)");
      bindText(s, 1, p.id);
      bindText(s, 2, p.name);
      sqlite3_bind_int64(s, 3, p.created);
      if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "player " + p.id));
    }
    SEMIS_PREPARE(writer_, s, "INSERT INTO tokens(token_hash,player) VALUES(?,?)");
    bindText(s, 1, tokenHash);
    bindText(s, 2, p.id);
    if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "token of " + p.id));
    return {};
  });
}

StoreResult<std::optional<PlayerRow>> SqliteStore::readPlayer(const char* sql, const std::string& key) {
  std::lock_guard lock(reader_.mutex);
  SEMIS_PREPARE(reader_, s, sql);
  bindText(s, 1, key);
  const int rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) return PlayerRow{colText(s, 0), colText(s, 1), sqlite3_column_int64(s, 2)};
  if (rc != SQLITE_DONE) return tl::unexpected(reader_.error(rc, "player"));
  return std::nullopt;
}

StoreResult<std::optional<PlayerRow>> SqliteStore::playerByToken(const std::string& tokenHash) {
  return readPlayer(
      "SELECT p.id,p.name,p.created FROM tokens t JOIN players p ON p.id=t.player WHERE t.token_hash=?", tokenHash);
}

StoreResult<std::optional<PlayerRow>> SqliteStore::player(const std::string& id) {
  return readPlayer("SELECT id,name,created FROM players WHERE id=?", id);
}

StoreResult<void> SqliteStore::renamePlayer(const std::string& id, const std::string& name) {
  return writeTransaction<void>(writer_, [&]() -> StoreResult<void> {
    SEMIS_PREPARE(writer_, s, "UPDATE players SET name=? WHERE id=?");
    bindText(s, 1, name);
    bindText(s, 2, id);
    if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "rename " + id));
    if (sqlite3_changes(writer_.db) == 0) return tl::unexpected(StoreError{Fault::Other, "no player " + id});
    return {};
  });
}

StoreResult<void> SqliteStore::createGame(const GameRow& game, const std::vector<EventRow>& events) {
  return writeTransaction<void>(writer_, [&]() -> StoreResult<void> {
    if (auto r = insertGame(game); !r) return r;
    for (const auto& e : events) {
      if (auto r = insertEvent(game.id, e); !r) return r;
    }
    return {};
  });
}

StoreResult<void> SqliteStore::apply(const Action& a) {
  return writeTransaction<void>(writer_, [&]() -> StoreResult<void> {
    if (a.created) {
      if (auto r = insertGame(*a.created); !r) return r;
    }
    if (a.move) {
      const MoveRow& m = *a.move;
      SEMIS_PREPARE(writer_, s,
                    "INSERT INTO moves(game,seq,kind,side,house,client_id,clock_s,clock_n,event_n) "
                    "VALUES(?,?,?,?,?,?,?,?,?)");
      bindText(s, 1, a.game);
      sqlite3_bind_int(s, 2, m.seq);
      bindText(s, 3, m.kind);
      sqlite3_bind_int(s, 4, m.side);
      sqlite3_bind_int(s, 5, m.house);
      bindText(s, 6, m.clientId);
      sqlite3_bind_int64(s, 7, m.clockS);
      sqlite3_bind_int64(s, 8, m.clockN);
      sqlite3_bind_int64(s, 9, m.eventN);
      if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) {
        return tl::unexpected(writer_.error(rc, "move " + std::to_string(m.seq) + " of game " + a.game));
      }
    }
    for (const auto& e : a.events) {
      if (auto r = insertEvent(a.game, e); !r) return r;
    }
    // The game row last: it must exist (an action on no game is refused whole), and `updated`
    // moves with every action.
    if (a.update) {
      SEMIS_PREPARE(writer_, s, "UPDATE games SET updated=?, seat_s=?, seat_n=?, status=?, result=? WHERE id=?");
      sqlite3_bind_int64(s, 1, a.at);
      bindText(s, 2, a.update->seatS);
      bindText(s, 3, a.update->seatN);
      bindText(s, 4, a.update->status);
      bindText(s, 5, a.update->result);
      bindText(s, 6, a.game);
      if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "game " + a.game));
    } else {
      SEMIS_PREPARE(writer_, s, "UPDATE games SET updated=? WHERE id=?");
      sqlite3_bind_int64(s, 1, a.at);
      bindText(s, 2, a.game);
      if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "game " + a.game));
    }
    if (sqlite3_changes(writer_.db) == 0) return tl::unexpected(StoreError{Fault::Conflict, "no game " + a.game});
    return {};
  });
}

StoreResult<std::optional<GameRow>> SqliteStore::readGame(const std::string& id) {
  SEMIS_PREPARE(reader_, s, kGameColumns);
  bindText(s, 1, id);
  const int rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) return gameRow(s);
  if (rc != SQLITE_DONE) return tl::unexpected(reader_.error(rc, "game " + id));
  return std::nullopt;
}

StoreResult<std::optional<GameRow>> SqliteStore::game(const std::string& id) {
  std::lock_guard lock(reader_.mutex);
  return readGame(id);
}

StoreResult<std::optional<GameLog>> SqliteStore::loadGame(const std::string& id) {
  std::lock_guard lock(reader_.mutex);
  // One read transaction: the game row, its moves and its events from the same commit.
  if (auto r = reader_.run("BEGIN"); !r) return tl::unexpected(r.error());
  auto body = [&]() -> StoreResult<std::optional<GameLog>> {
    auto g = readGame(id);
    if (!g) return tl::unexpected(g.error());
    if (!*g) return std::nullopt;
    GameLog log;
    log.game = std::move(**g);
    {
      SEMIS_PREPARE(reader_, s,
                    "SELECT seq,kind,side,house,client_id,clock_s,clock_n,event_n FROM moves WHERE game=? ORDER BY seq");
      bindText(s, 1, id);
      int rc;
      while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        MoveRow m;
        m.seq = sqlite3_column_int(s, 0);
        m.kind = colText(s, 1);
        m.side = sqlite3_column_int(s, 2);
        m.house = sqlite3_column_int(s, 3);
        m.clientId = colText(s, 4);
        m.clockS = sqlite3_column_int64(s, 5);
        m.clockN = sqlite3_column_int64(s, 6);
        m.eventN = sqlite3_column_int64(s, 7);
        log.moves.push_back(std::move(m));
      }
      if (rc != SQLITE_DONE) return tl::unexpected(reader_.error(rc, "moves of " + id));
    }
    SEMIS_PREPARE(reader_, s, "SELECT n,json FROM events WHERE game=? ORDER BY n");
    bindText(s, 1, id);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) log.events.push_back({sqlite3_column_int64(s, 0), colText(s, 1)});
    if (rc != SQLITE_DONE) return tl::unexpected(reader_.error(rc, "events of " + id));
    return log;
  };
  auto result = body();
  reader_.rollback();  // a read transaction: nothing to keep
  return result;
}

StoreResult<long long> SqliteStore::readCount(const char* sql, const std::string& key) {
  std::lock_guard lock(reader_.mutex);
  SEMIS_PREPARE(reader_, s, sql);
  if (!key.empty()) bindText(s, 1, key);
  const int rc = sqlite3_step(s);
  if (rc != SQLITE_ROW) return tl::unexpected(reader_.error(rc, "count"));
  return sqlite3_column_int64(s, 0);
}

StoreResult<long long> SqliteStore::openGamesOf(const std::string& playerId) {
  if (playerId.empty()) return 0;  // "" is a free seat, not a player
  // Two index lookups (games_seat_s, games_seat_n) rather than one scan for an OR.
  return readCount(
      "SELECT (SELECT COUNT(*) FROM games WHERE seat_s=?1 AND status IN ('waiting','playing')) + "
      "(SELECT COUNT(*) FROM games WHERE seat_n=?1 AND seat_s<>?1 AND status IN ('waiting','playing'))",
      playerId);
}

StoreResult<long long> SqliteStore::countGames() { return readCount("SELECT COUNT(*) FROM games", {}); }

StoreResult<std::vector<long long>> SqliteStore::lastEvents(const std::vector<std::string>& ids) {
  std::lock_guard lock(reader_.mutex);
  SEMIS_PREPARE(reader_, s, "SELECT COALESCE(MAX(n), 0) FROM events WHERE game=?");
  std::vector<long long> last;
  last.reserve(ids.size());
  for (const std::string& id : ids) {
    sqlite3_reset(s);
    bindText(s, 1, id);
    if (const int rc = sqlite3_step(s); rc != SQLITE_ROW) return tl::unexpected(reader_.error(rc, "last events"));
    last.push_back(sqlite3_column_int64(s, 0));
  }
  return last;
}

StoreResult<long long> SqliteStore::abandonIdle(long long beforeMs) {
  return writeTransaction<long long>(writer_, [&]() -> StoreResult<long long> {
    SEMIS_PREPARE(writer_, s,
                  "UPDATE games SET status='abandoned' WHERE status IN ('waiting','playing') AND updated < ?");
    sqlite3_bind_int64(s, 1, beforeMs);
    if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(writer_.error(rc, "abandon"));
    return static_cast<long long>(sqlite3_changes(writer_.db));
  });
}

StoreResult<void> SqliteStore::maintain() {
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

}  // namespace semis::store
