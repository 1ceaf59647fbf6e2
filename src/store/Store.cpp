#include "store/Store.hpp"

#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace semis::store {

namespace {

constexpr const char* kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS players(token TEXT PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY, rules TEXT NOT NULL, mode TEXT NOT NULL, level TEXT NOT NULL,
  clock_seconds INTEGER NOT NULL, clock_increment INTEGER NOT NULL,
  seat_s TEXT NOT NULL, seat_n TEXT NOT NULL, status TEXT NOT NULL, result TEXT NOT NULL,
  created INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE TABLE IF NOT EXISTS moves(
  game TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, side INTEGER NOT NULL,
  house INTEGER NOT NULL, client_id TEXT NOT NULL, clock_s INTEGER NOT NULL, clock_n INTEGER NOT NULL, event_n INTEGER NOT NULL,
  PRIMARY KEY(game, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events(
  game TEXT NOT NULL, n INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY(game, n)) WITHOUT ROWID;
)SQL";

void bindText(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

std::string colText(sqlite3_stmt* s, int i) {
  const auto* p = sqlite3_column_text(s, i);
  return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
}

// Resets a cached statement whatever way the call leaves.
struct Reset {
  sqlite3_stmt* s;
  ~Reset() {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
  }
};

}  // namespace

Result<std::unique_ptr<Store>> Store::open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string msg = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return fail("cannot open database " + path + ": " + msg);
  }
  std::unique_ptr<Store> store(new Store(db));
  // SQLite's own busy handler sleeps in steps of up to 100 ms; the log restart holds writers for far
  // less, so the move waiting on it retries every 200 us (for at most 5 s).
  sqlite3_busy_handler(db, [](void*, int count) -> int {
    if (count > 25000) return 0;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return 1;
  }, nullptr);
  for (const char* sql : {"PRAGMA journal_mode=WAL;", "PRAGMA synchronous=NORMAL;", "PRAGMA wal_autocheckpoint=0;",
                          "PRAGMA foreign_keys=ON;", kSchema}) {
    if (auto r = store->exec(sql); !r) return tl::unexpected(r.error());
  }
  if (sqlite3_open_v2(path.c_str(), &store->checkpointer_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    return fail("cannot open database " + path + " for checkpoints");
  }
  sqlite3_busy_timeout(store->checkpointer_, 1000);
  // A connection learns the file is in WAL mode only once it reads it; until then checkpoints do nothing.
  if (sqlite3_exec(store->checkpointer_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return fail("cannot read database " + path);
  }
  return store;
}

Store::~Store() {
  for (auto& [sql, stmt] : stmts_) sqlite3_finalize(stmt);
  sqlite3_close(checkpointer_);
  (void)sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  sqlite3_close(db_);
}

Result<void> Store::checkpoint() {
  int logFrames = 0;
  int copied = 0;
  int rc = sqlite3_wal_checkpoint_v2(checkpointer_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copied);
  // A passive checkpoint never resets the log while moves keep coming: once it has copied everything
  // and the log is long, restart it (a wait of a few frames for the writer, then the file starts over).
  if (rc == SQLITE_OK && logFrames > 4000 && copied == logFrames) {
    rc = sqlite3_wal_checkpoint_v2(checkpointer_, nullptr, SQLITE_CHECKPOINT_RESTART, nullptr, nullptr);
  }
  if (rc != SQLITE_OK && rc != SQLITE_BUSY) return fail(std::string("checkpoint: ") + sqlite3_errmsg(checkpointer_));
  return {};
}

Error Store::lastError(const char* what) const { return Error{std::string(what) + ": " + sqlite3_errmsg(db_)}; }

Result<void> Store::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err != nullptr ? err : "unknown error";
    sqlite3_free(err);
    return fail(std::string("sqlite: ") + msg);
  }
  return {};
}

Result<sqlite3_stmt*> Store::prepare(const char* sql) {
  for (auto& [text, stmt] : stmts_) {
    if (text == sql) return stmt;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) return tl::unexpected(lastError("prepare"));
  stmts_.emplace_back(sql, stmt);
  return stmt;
}

Result<void> Store::begin() { return exec("BEGIN IMMEDIATE;"); }
Result<void> Store::commit() { return exec("COMMIT;"); }
void Store::rollback() { (void)exec("ROLLBACK;"); }

#define SEMIS_PREPARE(var, sql)                          \
  auto var##Or = prepare(sql);                           \
  if (!var##Or) return tl::unexpected(var##Or.error()); \
  sqlite3_stmt* var = *var##Or;                          \
  Reset var##Reset{var}

Result<void> Store::putPlayer(const PlayerRow& p) {
  SEMIS_PREPARE(s, "INSERT INTO players(token,id,name) VALUES(?,?,?) ON CONFLICT(token) DO UPDATE SET name=excluded.name");
  bindText(s, 1, p.token);
  bindText(s, 2, p.id);
  bindText(s, 3, p.name);
  if (sqlite3_step(s) != SQLITE_DONE) return tl::unexpected(lastError("put player"));
  return {};
}

Result<std::vector<PlayerRow>> Store::players() {
  SEMIS_PREPARE(s, "SELECT token,id,name FROM players");
  std::vector<PlayerRow> out;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) out.push_back({colText(s, 0), colText(s, 1), colText(s, 2)});
  if (rc != SQLITE_DONE) return tl::unexpected(lastError("players"));
  return out;
}

Result<void> Store::insertGame(const GameRow& g) {
  SEMIS_PREPARE(s, "INSERT INTO games(id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,created) "
                   "VALUES(?,?,?,?,?,?,?,?,?,?,?)");
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
  if (sqlite3_step(s) != SQLITE_DONE) return tl::unexpected(lastError("insert game"));
  return {};
}

Result<void> Store::updateGame(const std::string& id, const std::string& seatS, const std::string& seatN,
                               const std::string& status, const std::string& result) {
  SEMIS_PREPARE(s, "UPDATE games SET seat_s=?, seat_n=?, status=?, result=? WHERE id=?");
  bindText(s, 1, seatS);
  bindText(s, 2, seatN);
  bindText(s, 3, status);
  bindText(s, 4, result);
  bindText(s, 5, id);
  if (sqlite3_step(s) != SQLITE_DONE) return tl::unexpected(lastError("update game"));
  return {};
}

Result<void> Store::insertMove(const MoveRow& m) {
  SEMIS_PREPARE(s, "INSERT INTO moves(game,seq,kind,side,house,client_id,clock_s,clock_n,event_n) VALUES(?,?,?,?,?,?,?,?,?)");
  bindText(s, 1, m.game);
  sqlite3_bind_int(s, 2, m.seq);
  bindText(s, 3, m.kind);
  sqlite3_bind_int(s, 4, m.side);
  sqlite3_bind_int(s, 5, m.house);
  bindText(s, 6, m.clientId);
  sqlite3_bind_int64(s, 7, m.clockS);
  sqlite3_bind_int64(s, 8, m.clockN);
  sqlite3_bind_int64(s, 9, m.eventN);
  if (sqlite3_step(s) != SQLITE_DONE) return tl::unexpected(lastError("insert move"));
  return {};
}

Result<void> Store::insertEvent(const std::string& game, const EventRow& e) {
  SEMIS_PREPARE(s, "INSERT INTO events(game,n,json) VALUES(?,?,?)");
  bindText(s, 1, game);
  sqlite3_bind_int64(s, 2, e.n);
  bindText(s, 3, e.json);
  if (sqlite3_step(s) != SQLITE_DONE) return tl::unexpected(lastError("insert event"));
  return {};
}

Result<std::vector<GameRow>> Store::unfinishedGames() {
  SEMIS_PREPARE(s, "SELECT id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,created "
                   "FROM games WHERE status<>'over' ORDER BY created");
  std::vector<GameRow> out;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    GameRow g;
    g.id = colText(s, 0);
    g.rules = colText(s, 1);
    g.mode = colText(s, 2);
    g.level = colText(s, 3);
    g.clockSeconds = sqlite3_column_int(s, 4);
    g.clockIncrement = sqlite3_column_int(s, 5);
    g.seatS = colText(s, 6);
    g.seatN = colText(s, 7);
    g.status = colText(s, 8);
    g.result = colText(s, 9);
    g.created = sqlite3_column_int64(s, 10);
    out.push_back(std::move(g));
  }
  if (rc != SQLITE_DONE) return tl::unexpected(lastError("unfinished games"));
  return out;
}

Result<std::vector<MoveRow>> Store::moves(const std::string& game) {
  SEMIS_PREPARE(s, "SELECT seq,kind,side,house,client_id,clock_s,clock_n,event_n FROM moves WHERE game=? ORDER BY seq");
  bindText(s, 1, game);
  std::vector<MoveRow> out;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    MoveRow m;
    m.game = game;
    m.seq = sqlite3_column_int(s, 0);
    m.kind = colText(s, 1);
    m.side = sqlite3_column_int(s, 2);
    m.house = sqlite3_column_int(s, 3);
    m.clientId = colText(s, 4);
    m.clockS = sqlite3_column_int64(s, 5);
    m.clockN = sqlite3_column_int64(s, 6);
    m.eventN = sqlite3_column_int64(s, 7);
    out.push_back(std::move(m));
  }
  if (rc != SQLITE_DONE) return tl::unexpected(lastError("moves"));
  return out;
}

Result<std::vector<EventRow>> Store::events(const std::string& game) {
  SEMIS_PREPARE(s, "SELECT n,json FROM events WHERE game=? ORDER BY n");
  bindText(s, 1, game);
  std::vector<EventRow> out;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) out.push_back({sqlite3_column_int64(s, 0), colText(s, 1)});
  if (rc != SQLITE_DONE) return tl::unexpected(lastError("events"));
  return out;
}

Result<long long> Store::countGames() {
  SEMIS_PREPARE(s, "SELECT COUNT(*) FROM games");
  if (sqlite3_step(s) != SQLITE_ROW) return tl::unexpected(lastError("count games"));
  return sqlite3_column_int64(s, 0);
}

}  // namespace semis::store
