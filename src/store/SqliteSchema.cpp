// The SQLite schema's versions and the steps between them. Each step runs in one transaction
// (BEGIN IMMEDIATE, so two processes opening the same file at once migrate it once: the second
// sees the new version inside its own transaction and skips the step). A failed step leaves the
// file at the version before it.

#include <sqlite3.h>

#include <string>

#include "accounts/Tokens.hpp"
#include "store/ClubSchema.hpp"
#include "store/StudyStore.hpp"
#include "store/SqliteStore.hpp"

namespace semis::store {

namespace {

// Version 1: the schema the server used before versions existed (no schema_version table): plain
// tokens as the players' key and in the games' seats.
constexpr const char* kStep1 = R"SQL(
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

// Version 2: players by public id, tokens only as hashes, seats hold player ids, games know when
// they last changed. A seat token without a player row (none should exist) gets a new player, so
// no seat is freed and no plain token survives. semis_hash_token and semis_new_id are registered
// on the connection for this step (accounts/Tokens.hpp).
constexpr const char* kStep2 = R"SQL(
INSERT OR IGNORE INTO players(token, id, name)
  SELECT seat, semis_new_id(), 'Player' FROM (SELECT seat_s AS seat FROM games UNION SELECT seat_n FROM games)
  WHERE seat NOT IN ('ai', '');
ALTER TABLE players RENAME TO players_v1;
CREATE TABLE players(id TEXT PRIMARY KEY, name TEXT NOT NULL, created INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO players(id, name, created)
  SELECT id, name, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM players_v1 ORDER BY rowid;
CREATE TABLE tokens(token_hash TEXT PRIMARY KEY, player TEXT NOT NULL REFERENCES players(id)) WITHOUT ROWID;
INSERT INTO tokens(token_hash, player) SELECT semis_hash_token(token), id FROM players_v1;
UPDATE games SET seat_s = (SELECT id FROM players_v1 WHERE token = games.seat_s) WHERE seat_s NOT IN ('ai', '');
UPDATE games SET seat_n = (SELECT id FROM players_v1 WHERE token = games.seat_n) WHERE seat_n NOT IN ('ai', '');
DROP TABLE players_v1;
ALTER TABLE games ADD COLUMN updated INTEGER NOT NULL DEFAULT 0;
UPDATE games SET updated = created;
DROP INDEX IF EXISTS games_status;
CREATE INDEX games_status_updated ON games(status, updated);
CREATE INDEX games_seat_s ON games(seat_s, status);
CREATE INDEX games_seat_n ON games(seat_n, status);
)SQL";

constexpr const char* kSteps[] = {kStep1, kStep2, kClubSchema, kStudySchema, kTrustSchema};
static_assert(sizeof(kSteps) / sizeof(kSteps[0]) == kSchemaVersion);

void hashTokenFunction(sqlite3_context* context, int, sqlite3_value** argv) {
  const auto* text = sqlite3_value_text(argv[0]);
  const std::string hash = accounts::hashToken(text == nullptr ? "" : reinterpret_cast<const char*>(text));
  sqlite3_result_text(context, hash.data(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
}

void newIdFunction(sqlite3_context* context, int, sqlite3_value**) {
  const std::string id = accounts::randomId(10);
  sqlite3_result_text(context, id.data(), static_cast<int>(id.size()), SQLITE_TRANSIENT);
}

StoreResult<bool> hasTable(SqliteConn& conn, const char* name) {
  auto s = conn.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
  if (!s) return tl::unexpected(s.error());
  sqlite3_bind_text(*s, 1, name, -1, SQLITE_STATIC);
  const int rc = sqlite3_step(*s);
  sqlite3_reset(*s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return tl::unexpected(conn.error(rc, "schema"));
  return rc == SQLITE_ROW;
}

}  // namespace

static StoreResult<void> migrateSteps(SqliteConn& conn);

StoreResult<int> sqliteSchemaVersion(SqliteConn& conn) {
  auto versioned = hasTable(conn, "schema_version");
  if (!versioned) return tl::unexpected(versioned.error());
  if (!*versioned) {
    auto legacy = hasTable(conn, "players");
    if (!legacy) return tl::unexpected(legacy.error());
    return *legacy ? 1 : 0;
  }
  auto s = conn.prepare("SELECT version FROM schema_version");
  if (!s) return tl::unexpected(s.error());
  const int rc = sqlite3_step(*s);
  const int version = rc == SQLITE_ROW ? sqlite3_column_int(*s, 0) : 0;
  sqlite3_reset(*s);
  if (rc != SQLITE_ROW) return tl::unexpected(conn.error(rc, "schema version"));
  return version;
}

StoreResult<void> migrateSqlite(SqliteConn& conn) {
  // Step 2 drops the plain tokens: freed pages are zeroed, so no copy of the file keeps them.
  if (auto r = conn.exec("PRAGMA secure_delete=ON"); !r) return r;
  auto r = migrateSteps(conn);
  (void)conn.exec("PRAGMA secure_delete=OFF");
  return r;
}

static StoreResult<void> migrateSteps(SqliteConn& conn) {
  for (int step = 1; step <= kSchemaVersion; ++step) {
    if (auto r = conn.exec("BEGIN IMMEDIATE"); !r) return r;
    auto version = sqliteSchemaVersion(conn);
    if (!version) {
      conn.rollback();
      return tl::unexpected(version.error());
    }
    if (*version > kSchemaVersion) {
      conn.rollback();
      return tl::unexpected(StoreError{Fault::Other, "the database has schema version " + std::to_string(*version) +
                                                         ", newer than this server's " +
                                                         std::to_string(kSchemaVersion)});
    }
    if (*version >= step) {
      conn.rollback();
      continue;
    }
    const std::string record = "CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL, opened INTEGER "
                               "NOT NULL DEFAULT 0); DELETE FROM schema_version; INSERT INTO schema_version(version) "
                               "VALUES(" + std::to_string(step) + ");";
    auto r = conn.exec(kSteps[step - 1]);
    if (r) r = conn.exec(record.c_str());
    if (r) r = conn.exec("COMMIT");
    if (!r) {
      conn.rollback();
      return tl::unexpected(StoreError{r.error().fault, "schema step " + std::to_string(step) + ": " + r.error().message});
    }
  }
  return {};
}

// Registered before migrating: only step 2 uses them, but a connection without them could not run it.
int registerSqliteFunctions(sqlite3* db) {
  int rc = sqlite3_create_function_v2(db, "semis_hash_token", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                      hashTokenFunction, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "semis_new_id", 0, SQLITE_UTF8, nullptr, newIdFunction, nullptr, nullptr,
                                    nullptr);
  }
  return rc;
}

}  // namespace semis::store
