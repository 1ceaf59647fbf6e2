// The shared backend: PostgreSQL through libpq, for several servers on one database. Every call
// leases one pooled connection and is one transaction on it; parameters always travel apart from
// the SQL text (PQexecParams), never pasted into it.

#include <poll.h>

#include <chrono>

#include "store/ClubSchema.hpp"
#include "store/PgClub.hpp"
#include "store/SessionStore.hpp"
#include "store/StudyStore.hpp"
#include "store/PgPool.hpp"
#include "store/Store.hpp"

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

struct Step {
  int version;
  const char* sql;
};
constexpr Step kSteps[] = {{2, kSchema2}, {3, kClubSchema}, {4, kStudySchema}, {5, kTrustSchema}};
constexpr int kNewest = 5;
// Enough for a server's threads: a call holds its connection only for its own statements.
constexpr int kPoolSize = 4;
// Taken by every migration step, so servers starting together migrate one after the other.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7150331)";

std::string num(long long v) { return std::to_string(v); }

long long nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

constexpr const char* kGameSelect =
    "SELECT id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,created,updated,rated "
    "FROM games WHERE id=$1";


StoreResult<void> insertGame(PGconn* c, const GameRow& g) {
  auto r = pgQuery(c,
                   "INSERT INTO games(id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,"
                   "created,updated,rated) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
                   {g.id, g.rules, g.mode, g.level, num(g.clockSeconds), num(g.clockIncrement), g.seatS, g.seatN,
                    g.status, g.result, num(g.created), num(g.updated != 0 ? g.updated : g.created), num(g.rated ? 1 : 0)});
  if (!r) return tl::unexpected(r.error());
  return {};
}

StoreResult<void> insertEvents(PGconn* c, const std::string& game, const std::vector<EventRow>& events) {
  for (const auto& e : events) {
    auto r = pgQuery(c, "INSERT INTO events(game,n,json) VALUES($1,$2,$3)", {game, num(e.n), e.json});
    if (!r) return tl::unexpected(r.error());
  }
  return {};
}

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

class PgStore final : public Store {
 public:
  PgStore(const std::string& url, const OpenOptions& options) : pool_(url, kPoolSize, options.busyTimeoutMs) {
    club_ = makePgClub(
        [this](bool write, const std::function<StoreResult<void>(PGconn*)>& body) {
          return call<void>(write ? Mode::Write : Mode::Snapshot, body);
        },
        [](PGconn* c, const GameRow& game, const std::vector<EventRow>& events) -> StoreResult<void> {
          if (auto r = insertGame(c, game); !r) return r;
          return insertEvents(c, game.id, events);
        });
    const SqlCall sqlCall = [this](bool write, const char* sql, const std::vector<std::string>& params) {
      SqlRows out;
      auto r = call<void>(write ? Mode::Write : Mode::Snapshot, [&](PGconn* c) -> StoreResult<void> {
        auto q = pgQuery(c, sql, params);
        if (!q) return tl::unexpected(q.error());
        out.changed = std::strtoll(PQcmdTuples(q->raw()), nullptr, 10);
        for (int i = 0; i < q->rows(); ++i) {
          auto& row = out.rows.emplace_back();
          for (int k = 0; k < PQnfields(q->raw()); ++k) row.push_back(q->text(i, k));
        }
        return {};
      });
      if (!r) return StoreResult<SqlRows>(tl::unexpected(r.error()));
      return StoreResult<SqlRows>(std::move(out));
    };
    study_ = makeStudyStore(sqlCall);
    sessions_ = makeSessionStore(sqlCall);
  }

  ClubStore& club() override { return *club_; }
  StudyStore& study() override { return *study_; }
  SessionStore& sessions() override { return *sessions_; }

  StoreResult<void> start() {
    for (const Step& step : kSteps) {
      auto r = call<bool>(Mode::Write, [&](PGconn* c) -> StoreResult<bool> {
        if (auto l = pgQuery(c, kMigrationLock); !l) return tl::unexpected(l.error());
        if (auto t = pgScript(c, "CREATE TABLE IF NOT EXISTS schema_version(version integer NOT NULL, "
                                 "opened bigint NOT NULL DEFAULT 0)");
            !t) {
          return tl::unexpected(t.error());
        }
        auto v = pgQuery(c, "SELECT version FROM schema_version");
        if (!v) return tl::unexpected(v.error());
        const long long version = v->rows() == 0 ? 0 : v->number(0, 0);
        if (version > kNewest) {
          return tl::unexpected(StoreError{Fault::Other, "the database has schema version " + num(version) +
                                                             ", newer than this server's " + num(kNewest)});
        }
        if (version >= step.version) return false;
        if (auto s = pgScript(c, step.sql); !s) return tl::unexpected(s.error());
        if (auto d = pgQuery(c, "DELETE FROM schema_version"); !d) return tl::unexpected(d.error());
        if (auto i = pgQuery(c, "INSERT INTO schema_version(version) VALUES($1)", {num(step.version)}); !i) {
          return tl::unexpected(i.error());
        }
        return true;
      });
      if (!r) return tl::unexpected(StoreError{r.error().fault, "schema step " + num(step.version) + ": " + r.error().message});
    }
    // A real write now, so a read-only database (a standby) stops the server at start.
    return call<void>(Mode::Write, [&](PGconn* c) -> StoreResult<void> {
      auto r = pgQuery(c, "UPDATE schema_version SET opened=$1", {num(nowMs())});
      if (!r) return tl::unexpected(r.error());
      return {};
    });
  }

  [[nodiscard]] std::string_view backend() const override { return "postgresql"; }

  StoreResult<void> createPlayer(const PlayerRow& p, const std::string& tokenHash) override {
    return call<void>(Mode::Write, [&](PGconn* c) -> StoreResult<void> {
      auto r = pgQuery(c, "INSERT INTO players(id,name,created) VALUES($1,$2,$3)", {p.id, p.name, num(p.created)});
      if (!r) return tl::unexpected(r.error());
      auto t = pgQuery(c, "INSERT INTO tokens(token_hash,player) VALUES($1,$2)", {tokenHash, p.id});
      if (!t) return tl::unexpected(t.error());
      return {};
    });
  }

  StoreResult<std::optional<PlayerRow>> playerByToken(const std::string& tokenHash) override {
    return readPlayer("SELECT p.id,p.name,p.created FROM tokens t JOIN players p ON p.id=t.player WHERE t.token_hash=$1",
                      tokenHash);
  }

  StoreResult<std::optional<PlayerRow>> player(const std::string& id) override {
    return readPlayer("SELECT id,name,created FROM players WHERE id=$1", id);
  }

  StoreResult<void> renamePlayer(const std::string& id, const std::string& name) override {
    return call<void>(Mode::Write, [&](PGconn* c) -> StoreResult<void> {
      auto r = pgQuery(c, "UPDATE players SET name=$1 WHERE id=$2", {name, id});
      if (!r) return tl::unexpected(r.error());
      if (r->affected() == 0) return tl::unexpected(StoreError{Fault::Other, "no player " + id});
      return {};
    });
  }

  StoreResult<void> createGame(const GameRow& game, const std::vector<EventRow>& events) override {
    return call<void>(Mode::Write, [&](PGconn* c) -> StoreResult<void> {
      if (auto r = insertGame(c, game); !r) return r;
      return insertEvents(c, game.id, events);
    });
  }

  StoreResult<void> apply(const Action& a) override {
    if (!a.created) return applyInOneStatement(a);
    return call<void>(Mode::Write, [&](PGconn* c) -> StoreResult<void> {
      if (a.created) {
        if (auto r = insertGame(c, *a.created); !r) return r;
      }
      if (a.move) {
        const MoveRow& m = *a.move;
        auto r = pgQuery(c,
                         "INSERT INTO moves(game,seq,kind,side,house,client_id,clock_s,clock_n,event_n) "
                         "VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                         {a.game, num(m.seq), m.kind, num(m.side), num(m.house), m.clientId, num(m.clockS),
                          num(m.clockN), num(m.eventN)});
        if (!r) return tl::unexpected(r.error());
      }
      if (auto r = insertEvents(c, a.game, a.events); !r) return r;
      auto u = a.update ? pgQuery(c, "UPDATE games SET updated=$1, seat_s=$2, seat_n=$3, status=$4, result=$5 WHERE id=$6",
                                  {num(a.at), a.update->seatS, a.update->seatN, a.update->status, a.update->result, a.game})
                        : pgQuery(c, "UPDATE games SET updated=$1 WHERE id=$2", {num(a.at), a.game});
      if (!u) return tl::unexpected(u.error());
      if (u->affected() == 0) return tl::unexpected(StoreError{Fault::Conflict, "no game " + a.game});
      return {};
    });
  }

  // The common action (no game created with it) in one round trip: the game row's update and the
  // inserts in one statement, which is its own transaction. The inserts take their game id from
  // the update's result, so a missing game writes nothing; a move or event number already taken
  // fails the whole statement (Fault::Conflict).
  StoreResult<void> applyInOneStatement(const Action& a) {
    std::vector<std::string> params{a.game, num(a.at)};
    std::string sql = "WITH u AS (UPDATE games SET updated=$2::bigint";
    if (a.update) {
      sql += ", seat_s=$3::text, seat_n=$4::text, status=$5::text, result=$6::text";
      params.insert(params.end(), {a.update->seatS, a.update->seatN, a.update->status, a.update->result});
    }
    sql += " WHERE id=$1::text RETURNING id)";
    auto arg = [&](std::string value, const char* type) {
      params.push_back(std::move(value));
      return "$" + std::to_string(params.size()) + "::" + type;
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
      if (**stored == a.events.front().json) return {};
      return tl::unexpected(StoreError{Fault::Conflict, "event taken by another writer"});
    }
    return statement();
  }

  StoreResult<std::optional<GameRow>> game(const std::string& id) override {
    return call<std::optional<GameRow>>(Mode::Single, [&](PGconn* c) -> StoreResult<std::optional<GameRow>> {
      auto r = pgQuery(c, kGameSelect, {id});
      if (!r) return tl::unexpected(r.error());
      if (r->rows() == 0) return std::nullopt;
      return pgGameRow(*r, 0);
    });
  }

  StoreResult<std::optional<GameLog>> loadGame(const std::string& id) override {
    // One snapshot: the game row, its moves and its events as of the same commit.
    return call<std::optional<GameLog>>(Mode::Snapshot, [&](PGconn* c) -> StoreResult<std::optional<GameLog>> {
      auto g = pgQuery(c, kGameSelect, {id});
      if (!g) return tl::unexpected(g.error());
      if (g->rows() == 0) return std::nullopt;
      GameLog log;
      log.game = pgGameRow(*g, 0);
      auto m = pgQuery(c,
                       "SELECT seq,kind,side,house,client_id,clock_s,clock_n,event_n FROM moves WHERE game=$1 "
                       "ORDER BY seq",
                       {id});
      if (!m) return tl::unexpected(m.error());
      for (int i = 0; i < m->rows(); ++i) {
        log.moves.push_back(MoveRow{static_cast<int>(m->number(i, 0)), m->text(i, 1), static_cast<int>(m->number(i, 2)),
                                    static_cast<int>(m->number(i, 3)), m->text(i, 4), m->number(i, 5), m->number(i, 6),
                                    m->number(i, 7)});
      }
      auto e = pgQuery(c, "SELECT n,json FROM events WHERE game=$1 ORDER BY n", {id});
      if (!e) return tl::unexpected(e.error());
      for (int i = 0; i < e->rows(); ++i) log.events.push_back({e->number(i, 0), e->text(i, 1)});
      return log;
    });
  }

  StoreResult<long long> openGamesOf(const std::string& playerId) override {
    if (playerId.empty()) return 0;  // "" is a free seat, not a player
    return count("SELECT COUNT(*) FROM games WHERE (seat_s=$1 OR seat_n=$1) AND status IN ('waiting','playing')",
                 {playerId});
  }

  StoreResult<long long> abandonIdle(long long beforeMs) override {
    return call<long long>(Mode::Write, [&](PGconn* c) -> StoreResult<long long> {
      auto r = pgQuery(c, "UPDATE games SET status='abandoned' WHERE status IN ('waiting','playing') AND updated < $1",
                       {num(beforeMs)});
      if (!r) return tl::unexpected(r.error());
      return r->affected();
    });
  }

  StoreResult<long long> countGames() override { return count("SELECT COUNT(*) FROM games", {}); }

  StoreResult<std::vector<long long>> lastEvents(const std::vector<std::string>& ids) override {
    if (ids.empty()) return std::vector<long long>{};
    const std::string array = textArray(ids);  // one statement for all: the ids as one text[]
    return call<std::vector<long long>>(Mode::Single, [&](PGconn* c) -> StoreResult<std::vector<long long>> {
      auto r = pgQuery(c,
                       "SELECT COALESCE((SELECT MAX(n) FROM events e WHERE e.game = g.id), 0) "
                       "FROM unnest($1::text[]) WITH ORDINALITY AS g(id, i) ORDER BY g.i",
                       {array});
      if (!r) return tl::unexpected(r.error());
      std::vector<long long> last;
      for (int i = 0; i < r->rows(); ++i) last.push_back(r->number(i, 0));
      return last;
    });
  }

  // The server's own housekeeping (VACUUM) is PostgreSQL's autovacuum.
  StoreResult<void> maintain() override { return {}; }

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

  StoreResult<std::optional<PlayerRow>> readPlayer(const char* sql, const std::string& key) {
    return call<std::optional<PlayerRow>>(Mode::Single, [&](PGconn* c) -> StoreResult<std::optional<PlayerRow>> {
      auto r = pgQuery(c, sql, {key});
      if (!r) return tl::unexpected(r.error());
      if (r->rows() == 0) return std::nullopt;
      return PlayerRow{r->text(0, 0), r->text(0, 1), r->number(0, 2)};
    });
  }

  StoreResult<long long> count(const char* sql, const std::vector<std::string>& params) {
    return call<long long>(Mode::Single, [&](PGconn* c) -> StoreResult<long long> {
      auto r = pgQuery(c, sql, params);
      if (!r) return tl::unexpected(r.error());
      return r->number(0, 0);
    });
  }

  PgPool pool_;
  std::unique_ptr<ClubStore> club_;
  std::unique_ptr<StudyStore> study_;
  std::unique_ptr<SessionStore> sessions_;
};

}  // namespace

StoreResult<std::unique_ptr<Store>> openPostgres(const std::string& url, const OpenOptions& options) {
  auto store = std::make_unique<PgStore>(url, options);
  if (auto r = store->start(); !r) return tl::unexpected(r.error());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace semis::store
