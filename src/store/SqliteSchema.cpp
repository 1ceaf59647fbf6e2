// The SQLite schema's versions and the steps between them. Each step runs in one transaction
// (BEGIN IMMEDIATE, so two processes opening the same file at once migrate it once: the second
// sees the new version inside its own transaction and skips the step). A failed step leaves the
// file at the version before it.

#include <sqlite3.h>

#include <string>

#include "store/AccuracyStore.hpp"
#include "store/BotStore.hpp"
#include "store/ClubSchema.hpp"
#include "store/ContestStore.hpp"
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
// on the connection for this step (the caller's OpenOptions::hashToken and newId).
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

constexpr SchemaStep kSteps[] = {{1, kStep1},       {2, kStep2},     {3, kClubSchema},    {4, kStudySchema},
                                 {5, kTrustSchema}, {6, kBotSchema}, {7, kContestSchema}, {8, kBotAccuracySchema}};
static_assert(std::size(kSteps) == kSchemaVersion);

const OpenOptions& optionsOf(sqlite3_context* context) {
  return *static_cast<const OpenOptions*>(sqlite3_user_data(context));
}

void resultText(sqlite3_context* context, const std::string& text) {
  sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

// Without the caller's functions a version-1 file cannot be upgraded: the step fails, the file stays.
void hashTokenFunction(sqlite3_context* context, int, sqlite3_value** argv) {
  const OpenOptions& options = optionsOf(context);
  if (!options.hashToken) return sqlite3_result_error(context, "upgrading from version 1 needs OpenOptions::hashToken", -1);
  const auto* text = sqlite3_value_text(argv[0]);
  resultText(context, options.hashToken(text == nullptr ? "" : reinterpret_cast<const char*>(text)));
}

void newIdFunction(sqlite3_context* context, int, sqlite3_value**) {
  const OpenOptions& options = optionsOf(context);
  if (!options.newId) return sqlite3_result_error(context, "upgrading from version 1 needs OpenOptions::newId", -1);
  resultText(context, options.newId());
}

StoreResult<bool> hasTable(SqlTx& tx, const char* name) {
  auto r = tx.run("SELECT 1 FROM sqlite_master WHERE type='table' AND name=$1", {std::string(name)});
  if (!r) return tl::unexpected(r.error());
  return !r->rows.empty();
}

}  // namespace

std::span<const SchemaStep> sqliteSchemaSteps() { return kSteps; }

StoreResult<int> sqliteSchemaVersion(SqlTx& tx) {
  auto versioned = hasTable(tx, "schema_version");
  if (!versioned) return tl::unexpected(versioned.error());
  if (!*versioned) {
    auto legacy = hasTable(tx, "players");
    if (!legacy) return tl::unexpected(legacy.error());
    return *legacy ? 1 : 0;
  }
  auto r = tx.run("SELECT version FROM schema_version");
  if (!r) return tl::unexpected(r.error());
  if (r->rows.empty()) return tl::unexpected(StoreError{Fault::Corrupt, "schema_version holds no version"});
  return r->rows.front().small(0);
}

// Registered before migrating: only step 2 uses them, but a connection without them could not run it.
int registerSqliteFunctions(sqlite3* db, const OpenOptions* options) {
  auto* app = const_cast<OpenOptions*>(options);  // sqlite3_user_data hands it back, read as const
  int rc = sqlite3_create_function_v2(db, "semis_hash_token", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, app,
                                      hashTokenFunction, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "semis_new_id", 0, SQLITE_UTF8, app, newIdFunction, nullptr, nullptr, nullptr);
  }
  return rc;
}

}  // namespace semis::store
