// The store's one SQL implementation (store/Store.hpp), for SQLite and PostgreSQL alike: every
// statement here is the same text on both, run through the backend's SqlRunner; the runner's
// dialect hooks answer for what differs (store/SqlRunner.hpp).

#include "store/SqlStore.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "store/AccuracyStore.hpp"
#include "store/BotStore.hpp"
#include "store/ContestStore.hpp"
#include "store/SessionStore.hpp"
#include "store/StudyStore.hpp"

namespace semis::store {

std::string SqlRow::text(std::size_t i) const {
  const Cell& c = cells_.at(i);
  if (const auto* t = std::get_if<std::string>(&c)) return *t;
  if (const auto* n = std::get_if<long long>(&c)) return std::to_string(*n);
  if (const auto* d = std::get_if<double>(&c)) return realText(*d);
  return {};
}

long long SqlRow::integer(std::size_t i) const {
  const Cell& c = cells_.at(i);
  if (const auto* n = std::get_if<long long>(&c)) return *n;
  if (const auto* t = std::get_if<std::string>(&c)) return std::strtoll(t->c_str(), nullptr, 10);
  if (const auto* d = std::get_if<double>(&c)) return static_cast<long long>(*d);
  return 0;
}

double SqlRow::real(std::size_t i) const {
  const Cell& c = cells_.at(i);
  if (const auto* d = std::get_if<double>(&c)) return *d;
  if (const auto* n = std::get_if<long long>(&c)) return static_cast<double>(*n);
  if (const auto* t = std::get_if<std::string>(&c)) return std::strtod(t->c_str(), nullptr);
  return 0;
}

std::string realText(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

StoreResult<SqlResult> SqlRunner::run(Access access, std::string_view sql, const std::vector<SqlValue>& params) {
  return transact<SqlResult>(*this, access, [&](SqlTx& tx) { return tx.run(sql, params); });
}

GameRow gameRow(const SqlRow& r, std::size_t c) {
  return GameRow{r.text(c),          r.text(c + 1),     r.text(c + 2),      r.text(c + 3),      r.small(c + 4),
                 r.small(c + 5),     r.text(c + 6),     r.text(c + 7),      r.text(c + 8),      r.text(c + 9),
                 r.integer(c + 10),  r.integer(c + 11), r.integer(c + 12) != 0};
}

StoreResult<void> insertGame(SqlTx& tx, const GameRow& g, const std::vector<EventRow>& events) {
  auto r = tx.run(std::string("INSERT INTO games(") + kGameColumns +
                      ") VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
                  {g.id, g.rules, g.mode, g.level, static_cast<long long>(g.clockSeconds),
                   static_cast<long long>(g.clockIncrement), g.seatS, g.seatN, g.status, g.result, g.created,
                   g.updated != 0 ? g.updated : g.created, static_cast<long long>(g.rated)});
  if (!r) return tl::unexpected(r.error());
  for (const EventRow& e : events) {
    auto w = tx.run("INSERT INTO events(game,n,json) VALUES($1,$2,$3)", {g.id, e.n, e.json});
    if (!w) return tl::unexpected(w.error());
  }
  return {};
}

namespace {

long long nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class SqlStore final : public Store {
 public:
  explicit SqlStore(std::unique_ptr<SqlRunner> runner)
      : runner_(std::move(runner)),
        club_(makeSqlClub(*runner_)),
        study_(makeStudyStore(*runner_)),
        sessions_(makeSessionStore(*runner_)),
        bots_(makeBotStore(*runner_)),
        contests_(makeContestStore(*runner_)),
        accuracy_(makeAccuracyStore(*runner_)) {}

  // The schema steps the database lacks, each in one Write transaction that reads the version
  // inside it (two servers opening one database migrate it once), then one real write.
  StoreResult<void> start() {
    if (auto r = runner_->migrating(true); !r) return r;
    auto migrated = migrate();
    if (auto r = runner_->migrating(false); migrated && !r) migrated = r;
    if (!migrated) return migrated;
    auto wrote = runner_->run(Access::Write, "UPDATE schema_version SET opened=$1", {nowMs()});
    if (!wrote) return tl::unexpected(StoreError{wrote.error().fault, "cannot write: " + wrote.error().message});
    return {};
  }

  [[nodiscard]] std::string_view backend() const override { return runner_->backend(); }

  StoreResult<void> createPlayer(const PlayerRow& p, const std::string& tokenHash) override {
    return runner_->transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
      if (auto r = tx.run("INSERT INTO players(id,name,created) VALUES($1,$2,$3)", {p.id, p.name, p.created}); !r) {
        return tl::unexpected(r.error());
      }
      if (auto r = tx.run("INSERT INTO tokens(token_hash,player) VALUES($1,$2)", {tokenHash, p.id}); !r) {
        return tl::unexpected(r.error());
      }
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
    auto r = runner_->run(Access::Write, "UPDATE players SET name=$1 WHERE id=$2", {name, id});
    if (!r) return tl::unexpected(r.error());
    if (r->changed == 0) return tl::unexpected(StoreError{Fault::Other, "no player " + id});
    return {};
  }

  StoreResult<void> createGame(const GameRow& game, const std::vector<EventRow>& events) override {
    return runner_->transaction(Access::Write, [&](SqlTx& tx) { return insertGame(tx, game, events); });
  }

  StoreResult<void> apply(const Action& a) override {
    if (auto fast = runner_->applyFast(a)) return *fast;
    return runner_->transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
      if (a.created) {
        if (auto r = insertGame(tx, *a.created, {}); !r) return r;
      }
      if (a.move) {
        const MoveRow& m = *a.move;
        auto r = tx.run("INSERT INTO moves(game,seq,kind,side,house,client_id,clock_s,clock_n,event_n) "
                        "VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                        {a.game, static_cast<long long>(m.seq), m.kind, static_cast<long long>(m.side),
                         static_cast<long long>(m.house), m.clientId, m.clockS, m.clockN, m.eventN});
        if (!r) return tl::unexpected(r.error());
      }
      for (const EventRow& e : a.events) {
        if (auto r = tx.run("INSERT INTO events(game,n,json) VALUES($1,$2,$3)", {a.game, e.n, e.json}); !r) {
          return tl::unexpected(r.error());
        }
      }
      // The game row last: it must exist (an action on no game is refused whole), and `updated`
      // moves with every action.
      auto u = a.update ? tx.run("UPDATE games SET updated=$1, seat_s=$2, seat_n=$3, status=$4, result=$5 WHERE id=$6",
                                 {a.at, a.update->seatS, a.update->seatN, a.update->status, a.update->result, a.game})
                        : tx.run("UPDATE games SET updated=$1 WHERE id=$2", {a.at, a.game});
      if (!u) return tl::unexpected(u.error());
      if (u->changed == 0) return tl::unexpected(StoreError{Fault::Conflict, "no game " + a.game});
      return {};
    });
  }

  StoreResult<std::optional<GameRow>> game(const std::string& id) override {
    auto r = runner_->run(Access::Read, gameSelect_, {id});
    if (!r) return tl::unexpected(r.error());
    if (r->rows.empty()) return std::nullopt;
    return gameRow(r->rows.front());
  }

  StoreResult<std::optional<GameLog>> loadGame(const std::string& id) override {
    // One snapshot: the game row, its moves and its events as of the same commit.
    return transact<std::optional<GameLog>>(*runner_, Access::Snapshot,
                                            [&](SqlTx& tx) -> StoreResult<std::optional<GameLog>> {
      auto g = tx.run(gameSelect_, {id});
      if (!g) return tl::unexpected(g.error());
      if (g->rows.empty()) return std::nullopt;
      GameLog log;
      log.game = gameRow(g->rows.front());
      auto m = tx.run("SELECT seq,kind,side,house,client_id,clock_s,clock_n,event_n FROM moves WHERE game=$1 ORDER BY seq",
                      {id});
      if (!m) return tl::unexpected(m.error());
      for (const SqlRow& r : m->rows) {
        log.moves.push_back(
            MoveRow{r.small(0), r.text(1), r.small(2), r.small(3), r.text(4), r.integer(5), r.integer(6), r.integer(7)});
      }
      auto e = tx.run("SELECT n,json FROM events WHERE game=$1 ORDER BY n", {id});
      if (!e) return tl::unexpected(e.error());
      for (const SqlRow& r : e->rows) log.events.push_back({r.integer(0), r.text(1)});
      return log;
    });
  }

  StoreResult<long long> openGamesOf(const std::string& playerId) override {
    if (playerId.empty()) return 0;  // "" is a free seat, not a player
    // Two index lookups (games_seat_s, games_seat_n) rather than one scan for an OR.
    return count("SELECT (SELECT COUNT(*) FROM games WHERE seat_s=$1 AND status IN ('waiting','playing')) + "
                 "(SELECT COUNT(*) FROM games WHERE seat_n=$1 AND seat_s<>$1 AND status IN ('waiting','playing'))",
                 {playerId});
  }

  StoreResult<std::vector<std::string>> openGameIdsOf(const std::string& playerId, std::size_t limit) override {
    std::vector<std::string> ids;
    if (playerId.empty()) return ids;
    auto r = runner_->run(Access::Read,
                          "SELECT id FROM games WHERE (seat_s=$1 OR seat_n=$1) AND status IN ('waiting','playing') "
                          "ORDER BY created, id LIMIT $2",
                          {playerId, static_cast<long long>(limit)});
    if (!r) return tl::unexpected(r.error());
    for (const auto& row : r->rows) ids.push_back(row.text(0));
    return ids;
  }

  StoreResult<long long> abandonIdle(long long beforeMs) override {
    auto r = runner_->run(Access::Write,
                          "UPDATE games SET status='abandoned' WHERE status IN ('waiting','playing') AND updated < $1",
                          {beforeMs});
    if (!r) return tl::unexpected(r.error());
    return r->changed;
  }

  StoreResult<long long> countGames() override { return count("SELECT COUNT(*) FROM games", {}); }

  StoreResult<std::vector<long long>> lastEvents(const std::vector<std::string>& ids) override {
    if (auto batched = runner_->lastEvents(ids)) return *batched;
    return transact<std::vector<long long>>(*runner_, Access::Read, [&](SqlTx& tx) -> StoreResult<std::vector<long long>> {
      std::vector<long long> last;
      last.reserve(ids.size());
      for (const std::string& id : ids) {
        auto r = tx.run("SELECT COALESCE(MAX(n), 0) FROM events WHERE game=$1", {id});
        if (!r) return tl::unexpected(r.error());
        last.push_back(r->rows.at(0).integer(0));
      }
      return last;
    });
  }

  StoreResult<void> maintain() override { return runner_->maintain(); }
  ClubStore& club() override { return *club_; }
  StudyStore& study() override { return *study_; }
  SessionStore& sessions() override { return *sessions_; }
  BotStore& bots() override { return *bots_; }
  ContestStore& contests() override { return *contests_; }
  AccuracyStore& accuracy() override { return *accuracy_; }

 private:
  StoreResult<void> migrate() {
    for (const SchemaStep& step : runner_->schemaSteps()) {
      auto r = runner_->transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
        auto version = runner_->schemaVersion(tx);
        if (!version) return tl::unexpected(version.error());
        if (*version > kSchemaVersion) {
          return tl::unexpected(StoreError{Fault::Other, "the database has schema version " + std::to_string(*version) +
                                                             ", newer than this server's " +
                                                             std::to_string(kSchemaVersion)});
        }
        if (*version >= step.version) return {};
        if (auto s = tx.script(step.sql); !s) return s;
        if (auto s = tx.script("CREATE TABLE IF NOT EXISTS schema_version(version integer NOT NULL, "
                               "opened bigint NOT NULL DEFAULT 0)");
            !s) {
          return s;
        }
        if (auto d = tx.run("DELETE FROM schema_version"); !d) return tl::unexpected(d.error());
        if (auto i = tx.run("INSERT INTO schema_version(version) VALUES($1)", {static_cast<long long>(step.version)}); !i) {
          return tl::unexpected(i.error());
        }
        return {};
      });
      if (!r) {
        return tl::unexpected(
            StoreError{r.error().fault, "schema step " + std::to_string(step.version) + ": " + r.error().message});
      }
    }
    return {};
  }

  StoreResult<std::optional<PlayerRow>> readPlayer(const char* sql, const std::string& key) {
    auto r = runner_->run(Access::Read, sql, {key});
    if (!r) return tl::unexpected(r.error());
    if (r->rows.empty()) return std::nullopt;
    const SqlRow& row = r->rows.front();
    return PlayerRow{row.text(0), row.text(1), row.integer(2)};
  }

  StoreResult<long long> count(const char* sql, const std::vector<SqlValue>& params) {
    auto r = runner_->run(Access::Read, sql, params);
    if (!r) return tl::unexpected(r.error());
    return r->rows.at(0).integer(0);
  }

  const std::string gameSelect_ = std::string("SELECT ") + kGameColumns + " FROM games WHERE id=$1";
  std::unique_ptr<SqlRunner> runner_;
  std::unique_ptr<ClubStore> club_;
  std::unique_ptr<StudyStore> study_;
  std::unique_ptr<SessionStore> sessions_;
  std::unique_ptr<BotStore> bots_;
  std::unique_ptr<ContestStore> contests_;
  std::unique_ptr<AccuracyStore> accuracy_;
};

}  // namespace

StoreResult<std::unique_ptr<Store>> openSqlStore(std::unique_ptr<SqlRunner> runner) {
  auto store = std::make_unique<SqlStore>(std::move(runner));
  if (auto r = store->start(); !r) return tl::unexpected(r.error());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace semis::store
