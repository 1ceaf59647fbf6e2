// The shared backend: PostgreSQL through libpq, for several servers on one database. Every call
// leases one pooled connection and is one transaction on it; parameters always travel apart from
// the SQL text (PQexecParams), never pasted into it. The statements are the store's shared ones
// (SqlStore.cpp); this backend is their runner, with its own action in one round trip.

#include <poll.h>

#include <chrono>

#include "store/AccuracyStore.hpp"
#include "store/BotStore.hpp"
#include "store/ContestStore.hpp"
#include "store/ClubSchema.hpp"
#include "store/PgPool.hpp"
#include "store/SqlRunner.hpp"
#include "store/StudyStore.hpp"

namespace semis::store {

namespace {

// PostgreSQL never held the unversioned schema (version 1, SQLite's alone): it starts at version 2,
// the same tables as SQLite's version 2.
constexpr const char* kSchema2 = R"SQL(
CREATE TABLE players(id text PRIMARY KEY, name text NOT NULL, created bigint NOT NULL);
CREATE TABLE tokens(token_hash text PRIMARY KEY, player text NOT NULL REFERENCES players(id));
CREATE TABLE games(
  id text PRIMARY KEY, rules text NOT NULL, mode text NOT NULL, level text NOT NULL,
  clock_seconds integer NOT NULL, clock_increment integer NOT NULL,
  seat_s text NOT NULL, seat_n text NOT NULL, status text NOT NULL, result text NOT NULL,
  created bigint NOT NULL, updated bigint NOT NULL);
CREATE INDEX games_status_updated ON games(status, updated);
CREATE INDEX games_seat_s ON games(seat_s, status);
CREATE INDEX games_seat_n ON games(seat_n, status);
CREATE TABLE moves(
  game text NOT NULL, seq integer NOT NULL, kind text NOT NULL, side integer NOT NULL, house integer NOT NULL,
  client_id text NOT NULL, clock_s bigint NOT NULL, clock_n bigint NOT NULL, event_n bigint NOT NULL,
  PRIMARY KEY(game, seq));
CREATE TABLE events(game text NOT NULL, n bigint NOT NULL, json text NOT NULL, PRIMARY KEY(game, n));
)SQL";

constexpr SchemaStep kSteps[] = {{2, kSchema2},     {3, kClubSchema}, {4, kStudySchema},   {5, kTrustSchema},
                                 {6, kBotSchema},   {7, kContestSchema}, {8, kBotAccuracySchema}};
// Enough for a server's threads: a call holds its connection only for its own statements.
constexpr int kPoolSize = 4;
// Taken by every migration step, so servers starting together migrate one after the other.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7150331)";

std::string num(long long v) { return std::to_string(v); }

// Write: BEGIN..COMMIT around the body; Snapshot: a read-only repeatable-read transaction;
// Single: one statement, read, retried once on a dropped connection; Statement: one writing
// statement (its own transaction), never retried (it may have committed before the drop).
enum class Mode { Write, Snapshot, Single, Statement };

bool idleButClosed(PGconn* c) {
  if (PQstatus(c) == CONNECTION_BAD) return true;
  pollfd p{PQsocket(c), POLLIN, 0};
  return ::poll(&p, 1, 0) != 0;
}

// A PostgreSQL array literal of texts: {"a","b\"c"}.
std::string textArray(const std::vector<std::string>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char ch : items[i]) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += '"';
  }
  return out + "}";
}

// The statements of one call, on its leased connection.
class PgTx final : public SqlTx {
 public:
  explicit PgTx(PGconn* conn) : conn_(conn) {}

  StoreResult<SqlResult> run(std::string_view sql, const std::vector<SqlValue>& params) override {
    std::vector<std::string> texts;
    texts.reserve(params.size());
    for (const SqlValue& v : params) {
      if (const auto* n = std::get_if<long long>(&v)) texts.push_back(num(*n));
      if (const auto* d = std::get_if<double>(&v)) texts.push_back(realText(*d));
      if (const auto* t = std::get_if<std::string>(&v)) texts.push_back(*t);
    }
    auto r = pgQuery(conn_, std::string(sql).c_str(), texts);
    if (!r) return tl::unexpected(r.error());
    SqlResult out;
    out.changed = r->affected();
    const int columns = PQnfields(r->raw());
    for (int i = 0; i < r->rows(); ++i) {
      std::vector<SqlRow::Cell> cells;
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(r->raw(), i, c) != 0) {
          cells.emplace_back(std::monostate{});
        } else {
          cells.emplace_back(r->text(i, c));
        }
      }
      out.rows.emplace_back(std::move(cells));
    }
    return out;
  }

  StoreResult<void> script(const char* sql) override { return pgScript(conn_, sql); }

 private:
  PGconn* conn_;
};

class PgRunner final : public SqlRunner {
 public:
  PgRunner(const std::string& url, const OpenOptions& options) : pool_(url, kPoolSize, options.busyTimeoutMs) {}

  [[nodiscard]] std::string_view backend() const override { return "postgresql"; }

  StoreResult<void> transaction(Access access, const std::function<StoreResult<void>(SqlTx&)>& body) override {
    const Mode mode = access == Access::Write ? Mode::Write : access == Access::Snapshot ? Mode::Snapshot : Mode::Single;
    return call<void>(mode, [&](PGconn* c) {
      PgTx tx(c);
      return body(tx);
    });
  }

  [[nodiscard]] std::span<const SchemaStep> schemaSteps() const override { return kSteps; }

  StoreResult<int> schemaVersion(SqlTx& tx) override {
    if (auto l = tx.run(kMigrationLock); !l) return tl::unexpected(l.error());
    if (auto t = tx.script("CREATE TABLE IF NOT EXISTS schema_version(version integer NOT NULL, "
                           "opened bigint NOT NULL DEFAULT 0)");
        !t) {
      return tl::unexpected(t.error());
    }
    auto v = tx.run("SELECT version FROM schema_version");
    if (!v) return tl::unexpected(v.error());
    return v->rows.empty() ? 0 : v->rows.front().small(0);
  }

  // The common action (no game created with it) in one round trip: the game row's update and the
  // inserts in one statement, which is its own transaction. The inserts take their game id from
  // the update's result, so a missing game writes nothing; a move or event number already taken
  // fails the whole statement (Fault::Conflict).
  std::optional<StoreResult<void>> applyFast(const Action& a) override {
    if (a.created) return std::nullopt;  // the shared statements, in one transaction
    std::vector<std::string> params{a.game, num(a.at)};
    std::string sql = "WITH u AS (UPDATE games SET updated=$2::bigint";
    if (a.update) {
      sql += ", seat_s=$3::text, seat_n=$4::text, status=$5::text, result=$6::text";
      params.insert(params.end(), {a.update->seatS, a.update->seatN, a.update->status, a.update->result});
    }
    sql += " WHERE id=$1::text RETURNING id)";
    auto arg = [&](std::string value, const char* type) {
      params.push_back(std::move(value));
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "$" + std::to_string(...).
      std::string ref = "$";
      ref += std::to_string(params.size());
      ref += "::";
      ref += type;
      return ref;
    };
    if (a.move) {
      const MoveRow& m = *a.move;
      sql += ", m AS (INSERT INTO moves(game,seq,kind,side,house,client_id,clock_s,clock_n,event_n) SELECT id, " +
             arg(num(m.seq), "integer") + ", " + arg(m.kind, "text") + ", " + arg(num(m.side), "integer") + ", " +
             arg(num(m.house), "integer") + ", " + arg(m.clientId, "text") + ", " + arg(num(m.clockS), "bigint") + ", " +
             arg(num(m.clockN), "bigint") + ", " + arg(num(m.eventN), "bigint") + " FROM u RETURNING 1)";
    }
    if (!a.events.empty()) {
      std::vector<std::string> ns, texts;
      for (const EventRow& e : a.events) {
        ns.push_back(num(e.n));
        texts.push_back(e.json);
      }
      sql += ", e AS (INSERT INTO events(game,n,json) SELECT u.id, ev.n, ev.json FROM u, unnest(" +
             arg(textArray(ns), "bigint[]") + ", " + arg(textArray(texts), "text[]") + ") AS ev(n, json) RETURNING 1)";
    }
    sql += " SELECT count(*) FROM u";
    auto statement = [&] {
      return call<void>(Mode::Statement, [&](PGconn* c) -> StoreResult<void> {
        auto r = pgQuery(c, sql.c_str(), params);
        if (!r) return tl::unexpected(r.error());
        if (r->number(0, 0) == 0) return tl::unexpected(StoreError{Fault::Conflict, "no game " + a.game});
        return {};
      });
    };
    auto done = statement();
    if (done || done.error().fault == Fault::Conflict || a.events.empty()) return done;
    // Lost with its connection, before or after its commit? The record says which: our first
    // event there (the same text: the same action) means stored; nothing there, try once more.
    auto stored = call<std::optional<std::string>>(Mode::Single, [&](PGconn* c) -> StoreResult<std::optional<std::string>> {
      auto r = pgQuery(c, "SELECT json FROM events WHERE game=$1 AND n=$2", {a.game, num(a.events.front().n)});
      if (!r) return tl::unexpected(r.error());
      if (r->rows() == 0) return std::nullopt;
      return r->text(0, 0);
    });
    if (!stored) return done;
    if (*stored) {
      if (**stored == a.events.front().json) return StoreResult<void>{};
      return tl::unexpected(StoreError{Fault::Conflict, "event taken by another writer"});
    }
    return statement();
  }

  std::optional<StoreResult<std::vector<long long>>> lastEvents(const std::vector<std::string>& ids) override {
    if (ids.empty()) return std::vector<long long>{};
    // One statement for all: the ids as one text[].
    auto r = run(Access::Read,
                 "SELECT COALESCE((SELECT MAX(n) FROM events e WHERE e.game = g.id), 0) "
                 "FROM unnest($1::text[]) WITH ORDINALITY AS g(id, i) ORDER BY g.i",
                 {textArray(ids)});
    if (!r) return tl::unexpected(r.error());
    std::vector<long long> last;
    for (const SqlRow& row : r->rows) last.push_back(row.integer(0));
    return last;
  }

  // The server's own housekeeping (VACUUM) is PostgreSQL's autovacuum: maintain() does nothing.

 private:
  // One call on one leased connection. Write and Snapshot run in a transaction (COMMIT on success,
  // ROLLBACK on any failure); Single is one statement. A connection lost before COMMIT was sent is
  // retried once on a fresh connection (nothing of the call can have been kept); a loss during COMMIT
  // is answered Busy: the action may or may not be stored, and a retry tells (Conflict if it was).
  template <class T, class Body>
  StoreResult<T> call(Mode mode, Body&& body) {
    for (int attempt = 0, stale = 0;; ++attempt) {
      auto lease = pool_.acquire();
      if (!lease) return tl::unexpected(lease.error());
      PGconn* c = lease->conn();
      // A connection the server closed while it sat in the pool says so now, before anything is
      // sent (an idle connection has nothing to read, we LISTEN to nothing: anything readable is
      // its goodbye): take another; nothing was sent, so even a write may go again.
      if (idleButClosed(c) && stale++ <= kPoolSize) {
        lease->drop();
        --attempt;
        continue;
      }
      bool committing = mode == Mode::Statement;
      auto result = [&]() -> StoreResult<T> {
        if (mode == Mode::Write || mode == Mode::Snapshot) {
          auto b = pgQuery(c, mode == Mode::Write ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
          if (!b) return tl::unexpected(b.error());
        }
        StoreResult<T> r = body(c);
        if (r && (mode == Mode::Write || mode == Mode::Snapshot)) {
          committing = true;
          if (auto cm = pgQuery(c, "COMMIT"); !cm) return tl::unexpected(cm.error());
        }
        return r;
      }();
      if (result) return result;
      if (PQstatus(c) == CONNECTION_BAD) {
        lease->drop();
        if (attempt == 0 && !committing) continue;
      } else if (PQtransactionStatus(c) != PQTRANS_IDLE) {
        if (!pgQuery(c, "ROLLBACK")) lease->drop();
      }
      return result;
    }
  }

  PgPool pool_;
};

}  // namespace

StoreResult<std::unique_ptr<Store>> openPostgres(const std::string& url, const OpenOptions& options) {
  return openSqlStore(std::make_unique<PgRunner>(url, options));
}

}  // namespace semis::store
