// The club's records on SQLite (store/ClubStore.hpp): the same writer and reader connections as the
// games, so a pairing creates its game in the transaction that marks the seeks.

#include <initializer_list>
#include <variant>

#include "accounts/Passwords.hpp"
#include "store/ClubSchema.hpp"
#include "store/ClubStore.hpp"
#include "store/SqliteCommon.hpp"

namespace semis::store {

namespace {

using Value = std::variant<long long, double, std::string>;

void bindAll(sqlite3_stmt* s, std::initializer_list<Value> values) {
  int i = 1;
  for (const Value& v : values) {
    if (const auto* n = std::get_if<long long>(&v)) sqlite3_bind_int64(s, i, *n);
    if (const auto* d = std::get_if<double>(&v)) sqlite3_bind_double(s, i, *d);
    if (const auto* t = std::get_if<std::string>(&v)) bindText(s, i, *t);
    ++i;
  }
}

// One statement without rows on the writer (inside writeTransaction): the rows it changed.
StoreResult<long long> change(SqliteConn& w, const char* sql, std::initializer_list<Value> values) {
  SEMIS_PREPARE(w, s, sql);
  bindAll(s, values);
  if (const int rc = sqlite3_step(s); rc != SQLITE_DONE) return tl::unexpected(w.error(rc, "club write"));
  return static_cast<long long>(sqlite3_changes(w.db));
}

// Each row of a query on `conn` (its mutex held by the caller) to `onRow`.
template <class OnRow>
StoreResult<void> each(SqliteConn& conn, const char* sql, std::initializer_list<Value> values, OnRow&& onRow) {
  SEMIS_PREPARE(conn, s, sql);
  bindAll(s, values);
  int rc = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) onRow(s);
  if (rc != SQLITE_DONE) return tl::unexpected(conn.error(rc, "club read"));
  return {};
}

RatingRow ratingRow(sqlite3_stmt* s, int c) {
  RatingRow r;
  r.player = colText(s, c);
  r.key = colText(s, c + 1);
  r.rating = sqlite3_column_double(s, c + 2);
  r.deviation = sqlite3_column_double(s, c + 3);
  r.volatility = sqlite3_column_double(s, c + 4);
  r.games = sqlite3_column_int64(s, c + 5);
  r.wins = sqlite3_column_int64(s, c + 6);
  r.draws = sqlite3_column_int64(s, c + 7);
  r.losses = sqlite3_column_int64(s, c + 8);
  r.at = sqlite3_column_int64(s, c + 9);
  return r;
}

SeekRow seekRow(sqlite3_stmt* s) {
  SeekRow r;
  r.id = colText(s, 0);
  r.player = colText(s, 1);
  r.rules = colText(s, 2);
  r.key = colText(s, 3);
  r.clockSeconds = sqlite3_column_int(s, 4);
  r.clockIncrement = sqlite3_column_int(s, 5);
  r.rated = sqlite3_column_int(s, 6) != 0;
  r.rating = sqlite3_column_double(s, 7);
  r.range = sqlite3_column_int(s, 8);
  r.quick = sqlite3_column_int(s, 9) != 0;
  r.created = sqlite3_column_int64(s, 10);
  r.game = colText(s, 11);
  return r;
}

PlayerCard cardRow(sqlite3_stmt* s, int c) {
  return PlayerCard{PlayerRow{colText(s, c), colText(s, c + 1), sqlite3_column_int64(s, c + 2)}, colText(s, c + 3)};
}

class SqliteClub final : public ClubStore {
 public:
  SqliteClub(SqliteConn& writer, SqliteConn& reader, SqliteGameWriter insertGame)
      : w_(writer), r_(reader), insertGame_(std::move(insertGame)) {}

  StoreResult<void> createAccount(const AccountRow& a) override {
    return writeTransaction<void>(w_, [&]() -> StoreResult<void> {
      auto n = change(w_, "INSERT INTO accounts(player,username,username_key,password_hash,created) VALUES(?,?,?,?,?)",
                      {a.player, a.username, accounts::usernameKey(a.username), a.passwordHash, a.created});
      if (!n) return tl::unexpected(n.error());
      return {};
    });
  }
  StoreResult<std::optional<AccountRow>> accountByUsername(const std::string& username) override {
    return account("SELECT player,username,password_hash,created FROM accounts WHERE username_key=?", accounts::usernameKey(username));
  }
  StoreResult<std::optional<AccountRow>> accountOf(const std::string& player) override {
    return account("SELECT player,username,password_hash,created FROM accounts WHERE player=?", player);
  }
  StoreResult<void> deleteAccount(const std::string& player, const std::string& deletedName) override {
    return writeTransaction<void>(w_, [&]() -> StoreResult<void> {
      for (const char* sql : kDeleteAccount) {
        if (auto n = change(w_, sql, {player}); !n) return tl::unexpected(n.error());
      }
      if (auto n = change(w_, "UPDATE players SET name=? WHERE id=?", {deletedName, player}); !n) return tl::unexpected(n.error());
      return {};
    });
  }
  StoreResult<void> addToken(const std::string& player, const std::string& tokenHash) override {
    return write("INSERT INTO tokens(token_hash,player) VALUES(?,?)", {tokenHash, player});
  }
  StoreResult<void> dropToken(const std::string& tokenHash) override {
    return write("DELETE FROM tokens WHERE token_hash=?", {tokenHash});
  }
  StoreResult<void> createClaim(const std::string& codeHash, const std::string& player, long long expires) override {
    return write("INSERT INTO claims(code_hash,player,expires) VALUES(?,?,?)", {codeHash, player, expires});
  }
  StoreResult<std::optional<std::string>> takeClaim(const std::string& codeHash, long long now) override {
    return writeTransaction<std::optional<std::string>>(w_, [&]() -> StoreResult<std::optional<std::string>> {
      std::optional<std::string> player;
      auto r = each(w_, "SELECT player FROM claims WHERE code_hash=? AND expires>?", {codeHash, now},
                    [&](sqlite3_stmt* s) { player = colText(s, 0); });
      if (!r) return tl::unexpected(r.error());
      if (auto n = change(w_, "DELETE FROM claims WHERE code_hash=? OR expires<=?", {codeHash, now}); !n)
        return tl::unexpected(n.error());
      return player;
    });
  }

  StoreResult<std::vector<RatingRow>> ratings(const std::string& player) override {
    std::vector<RatingRow> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, "SELECT player,game_key,rating,deviation,volatility,games,wins,draws,losses,at FROM ratings "
                      "WHERE player=? ORDER BY game_key",
                  {player}, [&](sqlite3_stmt* s) { out.push_back(ratingRow(s, 0)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::optional<RatingRow>> rating(const std::string& player, const std::string& key) override {
    std::optional<RatingRow> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, "SELECT player,game_key,rating,deviation,volatility,games,wins,draws,losses,at FROM ratings "
                      "WHERE player=? AND game_key=?",
                  {player, key}, [&](sqlite3_stmt* s) { out = ratingRow(s, 0); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<void> applyRated(const RatedResult& rr) override {
    return writeTransaction<void>(w_, [&]() -> StoreResult<void> {
      auto first = change(w_,
                          "INSERT INTO rated_results(game,game_key,south_score,after_s,after_n,change_s,change_n,at) "
                          "VALUES(?,?,?,?,?,?,?,?)",
                          {rr.game, rr.key, rr.southScore, rr.after[0].rating, rr.after[1].rating, rr.change[0],
                           rr.change[1], rr.at});
      if (!first) return tl::unexpected(first.error());  // a second result for the game: Conflict
      // Both rows in player-id order: two games of the same players rated at once never deadlock.
      const bool swap = rr.after[1].player < rr.after[0].player;
      for (const RatingRow& a : {rr.after[swap ? 1 : 0], rr.after[swap ? 0 : 1]}) {
        auto n = change(w_,
                        "INSERT OR REPLACE INTO ratings(player,game_key,rating,deviation,volatility,games,wins,draws,"
                        "losses,at) VALUES(?,?,?,?,?,?,?,?,?,?)",
                        {a.player, a.key, a.rating, a.deviation, a.volatility, a.games, a.wins, a.draws, a.losses, a.at});
        if (!n) return tl::unexpected(n.error());
        n = change(w_, "INSERT INTO rating_points(player,game_key,at,rating,deviation,game) VALUES(?,?,?,?,?,?)",
                   {a.player, a.key, rr.at, a.rating, a.deviation, rr.game});
        if (!n) return tl::unexpected(n.error());
      }
      return {};
    });
  }
  StoreResult<std::optional<RatedResult>> ratedResult(const std::string& game) override {
    std::optional<RatedResult> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_,
                  "SELECT r.game,r.game_key,r.south_score,r.after_s,r.after_n,r.change_s,r.change_n,r.at,g.seat_s,g.seat_n "
                  "FROM rated_results r JOIN games g ON g.id=r.game WHERE r.game=?",
                  {game}, [&](sqlite3_stmt* s) {
                    RatedResult rr;
                    rr.game = colText(s, 0);
                    rr.key = colText(s, 1);
                    rr.southScore = sqlite3_column_double(s, 2);
                    rr.after[0] = RatingRow{colText(s, 8), rr.key, sqlite3_column_double(s, 3)};
                    rr.after[1] = RatingRow{colText(s, 9), rr.key, sqlite3_column_double(s, 4)};
                    rr.change = {sqlite3_column_double(s, 5), sqlite3_column_double(s, 6)};
                    rr.at = sqlite3_column_int64(s, 7);
                    out = rr;
                  });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<RatingPoint>> ratingHistory(const std::string& player, const std::string& key,
                                                      std::size_t limit) override {
    std::vector<RatingPoint> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_,
                  "SELECT at,rating,deviation,game FROM (SELECT at,rating,deviation,game FROM rating_points "
                  "WHERE player=? AND game_key=? ORDER BY at DESC LIMIT ?) ORDER BY at",
                  {player, key, static_cast<long long>(limit)}, [&](sqlite3_stmt* s) {
                    out.push_back(RatingPoint{sqlite3_column_int64(s, 0), sqlite3_column_double(s, 1),
                                              sqlite3_column_double(s, 2), colText(s, 3)});
                  });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<std::pair<RatingRow, PlayerCard>>> leaderboard(const std::string& key, double maxDeviation,
                                                                         std::size_t limit) override {
    std::vector<std::pair<RatingRow, PlayerCard>> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_,
                  "SELECT r.player,r.game_key,r.rating,r.deviation,r.volatility,r.games,r.wins,r.draws,r.losses,r.at,"
                  "p.id,p.name,p.created,COALESCE(a.username,'') FROM ratings r JOIN players p ON p.id=r.player "
                  "LEFT JOIN accounts a ON a.player=r.player WHERE r.game_key=? AND r.deviation<? "
                  "ORDER BY r.rating DESC LIMIT ?",
                  {key, maxDeviation, static_cast<long long>(limit)},
                  [&](sqlite3_stmt* s) { out.emplace_back(ratingRow(s, 0), cardRow(s, 10)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<std::string>> unratedGames(long long sinceMs, std::size_t limit) override {
    std::vector<std::string> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, kUnratedGamesSql, {sinceMs, static_cast<long long>(limit)},
                  [&](sqlite3_stmt* s) { out.push_back(colText(s, 0)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::pair<long long, double>> firstPlayerScore(const std::string& key) override {
    std::pair<long long, double> out{0, 0};
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, "SELECT COUNT(*),COALESCE(SUM(south_score),0) FROM rated_results WHERE game_key=?", {key},
                  [&](sqlite3_stmt* s) { out = {sqlite3_column_int64(s, 0), sqlite3_column_double(s, 1)}; });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<PlayedGame>> gamesOf(const std::string& player, long long before, std::size_t limit) override {
    std::vector<PlayedGame> out;
    std::lock_guard lock(r_.mutex);
    // Two index lookups (games_seat_s, games_seat_n) rather than one scan for an OR.
    auto r = each(r_,
                  "SELECT g.id,g.rules,g.mode,g.level,g.clock_seconds,g.clock_increment,g.seat_s,g.seat_n,g.status,"
                  "g.result,g.created,g.updated,g.rated,r.change_s,r.change_n FROM (SELECT * FROM games WHERE seat_s=?1 "
                  "AND status IN ('over','abandoned') UNION SELECT * FROM games WHERE seat_n=?1 AND status IN "
                  "('over','abandoned')) g LEFT JOIN rated_results r ON r.game=g.id WHERE g.updated<?2 "
                  "ORDER BY g.updated DESC LIMIT ?3",
                  {player, before, static_cast<long long>(limit)}, [&](sqlite3_stmt* s) {
                    PlayedGame pg{gameRow(s), std::nullopt};
                    if (sqlite3_column_type(s, 13) != SQLITE_NULL)
                      pg.change = std::array<double, 2>{sqlite3_column_double(s, 13), sqlite3_column_double(s, 14)};
                    out.push_back(std::move(pg));
                  });
    if (!r) return tl::unexpected(r.error());
    return out;
  }

  StoreResult<void> createSeek(const SeekRow& k) override {
    return write("INSERT INTO seeks(id,player,rules,game_key,clock_seconds,clock_increment,rated,rating,rating_range,"
                 "quick,created,game) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                 {k.id, k.player, k.rules, k.key, static_cast<long long>(k.clockSeconds),
                  static_cast<long long>(k.clockIncrement), static_cast<long long>(k.rated), k.rating,
                  static_cast<long long>(k.range), static_cast<long long>(k.quick), k.created, k.game});
  }
  StoreResult<bool> cancelSeek(const std::string& id, const std::string& player) override {
    return writeTransaction<bool>(w_, [&]() -> StoreResult<bool> {
      auto n = change(w_, "DELETE FROM seeks WHERE id=? AND player=? AND game=''", {id, player});
      if (!n) return tl::unexpected(n.error());
      return *n > 0;
    });
  }
  StoreResult<std::vector<SeekRow>> openSeeks() override { return seeks("SELECT * FROM seeks WHERE game='' ORDER BY created", ""); }
  StoreResult<std::optional<SeekRow>> seek(const std::string& id) override {
    auto rows = seeks("SELECT * FROM seeks WHERE id=?", id);
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }
  StoreResult<void> pairSeeks(const std::string& a, const std::string& b, const GameRow& game,
                              const std::vector<EventRow>& events) override {
    return writeTransaction<void>(w_, [&]() -> StoreResult<void> {
      auto n = change(w_, "UPDATE seeks SET game=? WHERE id IN (?,?) AND game=''", {game.id, a, b});
      if (!n) return tl::unexpected(n.error());
      if (*n != 2) return tl::unexpected(StoreError{Fault::Conflict, "a seek was paired or cancelled meanwhile"});
      return insertGame_(game, events);
    });
  }
  StoreResult<long long> expireSeeks(long long beforeMs) override {
    return writeTransaction<long long>(w_, [&]() -> StoreResult<long long> {
      return change(w_, "DELETE FROM seeks WHERE game='' AND created<?", {beforeMs});
    });
  }

  StoreResult<void> addFriend(const std::string& player, const std::string& other, long long at) override {
    return write("INSERT OR IGNORE INTO friends(player,other,at) VALUES(?,?,?)", {player, other, at});
  }
  StoreResult<void> removeFriend(const std::string& player, const std::string& other) override {
    return write("DELETE FROM friends WHERE player=? AND other=?", {player, other});
  }
  StoreResult<std::vector<PlayerCard>> friendsOf(const std::string& player) override {
    return cards("SELECT p.id,p.name,p.created,COALESCE(a.username,'') FROM friends f JOIN players p ON p.id=f.other "
                 "LEFT JOIN accounts a ON a.player=p.id WHERE f.player=? ORDER BY p.name",
                 player);
  }
  StoreResult<void> block(const std::string& player, const std::string& other, long long at) override {
    return write("INSERT OR IGNORE INTO blocks(player,other,at) VALUES(?,?,?)", {player, other, at});
  }
  StoreResult<void> unblock(const std::string& player, const std::string& other) override {
    return write("DELETE FROM blocks WHERE player=? AND other=?", {player, other});
  }
  StoreResult<bool> blockedEitherWay(const std::string& a, const std::string& b) override {
    bool found = false;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, "SELECT 1 FROM blocks WHERE (player=?1 AND other=?2) OR (player=?2 AND other=?1) LIMIT 1", {a, b},
                  [&](sqlite3_stmt*) { found = true; });
    if (!r) return tl::unexpected(r.error());
    return found;
  }
  StoreResult<std::vector<PlayerCard>> blockedBy(const std::string& player) override {
    return cards("SELECT p.id,p.name,p.created,COALESCE(a.username,'') FROM blocks b JOIN players p ON p.id=b.other "
                 "LEFT JOIN accounts a ON a.player=p.id WHERE b.player=? ORDER BY p.name",
                 player);
  }
  StoreResult<std::optional<PlayerCard>> card(const std::string& player) override {
    auto rows = cards("SELECT p.id,p.name,p.created,COALESCE(a.username,'') FROM players p "
                      "LEFT JOIN accounts a ON a.player=p.id WHERE p.id=?",
                      player);
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }

 private:
  StoreResult<void> write(const char* sql, std::initializer_list<Value> values) {
    return writeTransaction<void>(w_, [&]() -> StoreResult<void> {
      auto n = change(w_, sql, values);
      if (!n) return tl::unexpected(n.error());
      return {};
    });
  }
  StoreResult<std::optional<AccountRow>> account(const char* sql, const std::string& key) {
    std::optional<AccountRow> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, sql, {key}, [&](sqlite3_stmt* s) {
      out = AccountRow{colText(s, 0), colText(s, 1), colText(s, 2), sqlite3_column_int64(s, 3)};
    });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<SeekRow>> seeks(const char* sql, const std::string& key) {
    std::vector<SeekRow> out;
    std::lock_guard lock(r_.mutex);
    auto r = key.empty() ? each(r_, sql, {}, [&](sqlite3_stmt* s) { out.push_back(seekRow(s)); })
                         : each(r_, sql, {key}, [&](sqlite3_stmt* s) { out.push_back(seekRow(s)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<PlayerCard>> cards(const char* sql, const std::string& key) {
    std::vector<PlayerCard> out;
    std::lock_guard lock(r_.mutex);
    auto r = each(r_, sql, {key}, [&](sqlite3_stmt* s) { out.push_back(cardRow(s, 0)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }

  SqliteConn& w_;
  SqliteConn& r_;
  SqliteGameWriter insertGame_;
};

}  // namespace

std::unique_ptr<ClubStore> makeSqliteClub(SqliteConn& writer, SqliteConn& reader, SqliteGameWriter insertGame) {
  return std::make_unique<SqliteClub>(writer, reader, std::move(insertGame));
}

StoreResult<SqlRows> sqliteCall(SqliteConn& writer, SqliteConn& reader, bool write, const char* sql,
                                const std::vector<std::string>& params) {
  const auto one = [&](SqliteConn& conn) -> StoreResult<SqlRows> {
    SEMIS_PREPARE(conn, s, sql);
    for (std::size_t i = 0; i < params.size(); ++i) bindText(s, static_cast<int>(i) + 1, params[i]);
    SqlRows out;
    int rc = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
      auto& row = out.rows.emplace_back();
      for (int c = 0; c < sqlite3_column_count(s); ++c) row.push_back(colText(s, c));
    }
    if (rc != SQLITE_DONE) return tl::unexpected(conn.error(rc, "study"));
    out.changed = sqlite3_changes(conn.db);
    return out;
  };
  if (write) return writeTransaction<SqlRows>(writer, [&] { return one(writer); });
  std::lock_guard lock(reader.mutex);
  return one(reader);
}

}  // namespace semis::store
