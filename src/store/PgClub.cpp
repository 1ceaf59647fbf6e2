// The club's records on PostgreSQL (store/ClubStore.hpp), through the backend's pooled calls: each
// method is one transaction (writes) or one read-only snapshot (reads).

#include <cstdio>
#include <cstdlib>

#include "store/PgClub.hpp"

#include "accounts/Passwords.hpp"
#include "store/ClubSchema.hpp"

namespace semis::store {

namespace {

std::string num(long long v) { return std::to_string(v); }
std::string real(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
double realOf(const PgResult& r, int row, int col) { return std::strtod(PQgetvalue(r.raw(), row, col), nullptr); }
bool isNull(const PgResult& r, int row, int col) { return PQgetisnull(r.raw(), row, col) != 0; }

constexpr const char* kRatingColumns = "player,game_key,rating,deviation,volatility,games,wins,draws,losses,at";

RatingRow ratingRow(const PgResult& r, int i, int c) {
  RatingRow row;
  row.player = r.text(i, c);
  row.key = r.text(i, c + 1);
  row.rating = realOf(r, i, c + 2);
  row.deviation = realOf(r, i, c + 3);
  row.volatility = realOf(r, i, c + 4);
  row.games = r.number(i, c + 5);
  row.wins = r.number(i, c + 6);
  row.draws = r.number(i, c + 7);
  row.losses = r.number(i, c + 8);
  row.at = r.number(i, c + 9);
  return row;
}

PlayerCard cardRow(const PgResult& r, int i, int c) {
  return PlayerCard{PlayerRow{r.text(i, c), r.text(i, c + 1), r.number(i, c + 2)}, r.text(i, c + 3)};
}

SeekRow seekRow(const PgResult& r, int i) {
  SeekRow s;
  s.id = r.text(i, 0);
  s.player = r.text(i, 1);
  s.rules = r.text(i, 2);
  s.key = r.text(i, 3);
  s.clockSeconds = static_cast<int>(r.number(i, 4));
  s.clockIncrement = static_cast<int>(r.number(i, 5));
  s.rated = r.number(i, 6) != 0;
  s.rating = realOf(r, i, 7);
  s.range = static_cast<int>(r.number(i, 8));
  s.quick = r.number(i, 9) != 0;
  s.created = r.number(i, 10);
  s.game = r.text(i, 11);
  return s;
}
constexpr const char* kSeekColumns =
    "id,player,rules,game_key,clock_seconds,clock_increment,rated,rating,rating_range,quick,created,game";
constexpr const char* kCardJoin = "SELECT p.id,p.name,p.created,COALESCE(a.username,'') FROM ";

class PgClub final : public ClubStore {
 public:
  PgClub(PgRun run, PgGameWriter insertGame) : run_(std::move(run)), insertGame_(std::move(insertGame)) {}

  StoreResult<void> createAccount(const AccountRow& a) override {
    return exec("INSERT INTO accounts(player,username,username_key,password_hash,created) VALUES($1,$2,$3,$4,$5)",
                {a.player, a.username, accounts::usernameKey(a.username), a.passwordHash, num(a.created)});
  }
  StoreResult<std::optional<AccountRow>> accountByUsername(const std::string& username) override {
    return account("SELECT player,username,password_hash,created FROM accounts WHERE username_key=$1", accounts::usernameKey(username));
  }
  StoreResult<std::optional<AccountRow>> accountOf(const std::string& player) override {
    return account("SELECT player,username,password_hash,created FROM accounts WHERE player=$1", player);
  }
  StoreResult<void> deleteAccount(const std::string& player, const std::string& deletedName) override {
    return run_(true, [&](PGconn* c) -> StoreResult<void> {
      for (const char* sql : kDeleteAccount) {
        if (auto r = pgQuery(c, sql, {player}); !r) return tl::unexpected(r.error());
      }
      if (auto r = pgQuery(c, "UPDATE players SET name=$1 WHERE id=$2", {deletedName, player}); !r) return tl::unexpected(r.error());
      return {};
    });
  }
  StoreResult<void> addToken(const std::string& player, const std::string& tokenHash) override {
    return exec("INSERT INTO tokens(token_hash,player) VALUES($1,$2)", {tokenHash, player});
  }
  StoreResult<void> dropToken(const std::string& tokenHash) override {
    return exec("DELETE FROM tokens WHERE token_hash=$1", {tokenHash});
  }
  StoreResult<void> createClaim(const std::string& codeHash, const std::string& player, long long expires) override {
    return exec("INSERT INTO claims(code_hash,player,expires) VALUES($1,$2,$3)", {codeHash, player, num(expires)});
  }
  StoreResult<std::optional<std::string>> takeClaim(const std::string& codeHash, long long now) override {
    std::optional<std::string> player;
    auto done = run_(true, [&](PGconn* c) -> StoreResult<void> {
      // Deleted as it is read: two redemptions at once get it once.
      auto r = pgQuery(c, "DELETE FROM claims WHERE code_hash=$1 AND expires>$2 RETURNING player", {codeHash, num(now)});
      if (!r) return tl::unexpected(r.error());
      if (r->rows() > 0) player = r->text(0, 0);
      if (auto d = pgQuery(c, "DELETE FROM claims WHERE expires<=$1", {num(now)}); !d) return tl::unexpected(d.error());
      return {};
    });
    if (!done) return tl::unexpected(done.error());
    return player;
  }

  StoreResult<std::vector<RatingRow>> ratings(const std::string& player) override {
    std::vector<RatingRow> out;
    auto r = query(std::string("SELECT ") + kRatingColumns + " FROM ratings WHERE player=$1 ORDER BY game_key", {player},
                   [&](const PgResult& res, int i) { out.push_back(ratingRow(res, i, 0)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::optional<RatingRow>> rating(const std::string& player, const std::string& key) override {
    std::optional<RatingRow> out;
    auto r = query(std::string("SELECT ") + kRatingColumns + " FROM ratings WHERE player=$1 AND game_key=$2", {player, key},
                   [&](const PgResult& res, int i) { out = ratingRow(res, i, 0); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<void> applyRated(const RatedResult& rr) override {
    return run_(true, [&](PGconn* c) -> StoreResult<void> {
      auto first = pgQuery(c,
                           "INSERT INTO rated_results(game,game_key,south_score,after_s,after_n,change_s,change_n,at) "
                           "VALUES($1,$2,$3,$4,$5,$6,$7,$8)",
                           {rr.game, rr.key, real(rr.southScore), real(rr.after[0].rating), real(rr.after[1].rating),
                            real(rr.change[0]), real(rr.change[1]), num(rr.at)});
      if (!first) return tl::unexpected(first.error());  // a second result for the game: Conflict
      // Both rows in player-id order: two games of the same players rated at once never deadlock.
      const bool swap = rr.after[1].player < rr.after[0].player;
      for (const RatingRow& a : {rr.after[swap ? 1 : 0], rr.after[swap ? 0 : 1]}) {
        auto u = pgQuery(c,
                         "INSERT INTO ratings(player,game_key,rating,deviation,volatility,games,wins,draws,losses,at) "
                         "VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT(player,game_key) DO UPDATE SET "
                         "rating=EXCLUDED.rating,deviation=EXCLUDED.deviation,volatility=EXCLUDED.volatility,"
                         "games=EXCLUDED.games,wins=EXCLUDED.wins,draws=EXCLUDED.draws,losses=EXCLUDED.losses,at=EXCLUDED.at",
                         {a.player, a.key, real(a.rating), real(a.deviation), real(a.volatility), num(a.games), num(a.wins),
                          num(a.draws), num(a.losses), num(a.at)});
        if (!u) return tl::unexpected(u.error());
        auto p = pgQuery(c, "INSERT INTO rating_points(player,game_key,at,rating,deviation,game) VALUES($1,$2,$3,$4,$5,$6)",
                         {a.player, a.key, num(rr.at), real(a.rating), real(a.deviation), rr.game});
        if (!p) return tl::unexpected(p.error());
      }
      return {};
    });
  }
  StoreResult<std::optional<RatedResult>> ratedResult(const std::string& game) override {
    std::optional<RatedResult> out;
    auto r = query("SELECT r.game,r.game_key,r.south_score,r.after_s,r.after_n,r.change_s,r.change_n,r.at,g.seat_s,g.seat_n "
                   "FROM rated_results r JOIN games g ON g.id=r.game WHERE r.game=$1",
                   {game}, [&](const PgResult& res, int i) {
                     RatedResult rr;
                     rr.game = res.text(i, 0);
                     rr.key = res.text(i, 1);
                     rr.southScore = realOf(res, i, 2);
                     rr.after[0] = RatingRow{res.text(i, 8), rr.key, realOf(res, i, 3)};
                     rr.after[1] = RatingRow{res.text(i, 9), rr.key, realOf(res, i, 4)};
                     rr.change = {realOf(res, i, 5), realOf(res, i, 6)};
                     rr.at = res.number(i, 7);
                     out = rr;
                   });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<RatingPoint>> ratingHistory(const std::string& player, const std::string& key,
                                                      std::size_t limit) override {
    std::vector<RatingPoint> out;
    auto r = query("SELECT at,rating,deviation,game FROM (SELECT at,rating,deviation,game FROM rating_points "
                   "WHERE player=$1 AND game_key=$2 ORDER BY at DESC LIMIT $3) p ORDER BY at",
                   {player, key, num(static_cast<long long>(limit))}, [&](const PgResult& res, int i) {
                     out.push_back(RatingPoint{res.number(i, 0), realOf(res, i, 1), realOf(res, i, 2), res.text(i, 3)});
                   });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<std::pair<RatingRow, PlayerCard>>> leaderboard(const std::string& key, double maxDeviation,
                                                                         std::size_t limit) override {
    std::vector<std::pair<RatingRow, PlayerCard>> out;
    auto r = query("SELECT r.player,r.game_key,r.rating,r.deviation,r.volatility,r.games,r.wins,r.draws,r.losses,r.at,"
                   "p.id,p.name,p.created,COALESCE(a.username,'') FROM ratings r JOIN players p ON p.id=r.player "
                   "LEFT JOIN accounts a ON a.player=r.player WHERE r.game_key=$1 AND r.deviation<$2 "
                   "ORDER BY r.rating DESC LIMIT $3",
                   {key, real(maxDeviation), num(static_cast<long long>(limit))},
                   [&](const PgResult& res, int i) { out.emplace_back(ratingRow(res, i, 0), cardRow(res, i, 10)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<std::string>> unratedGames(long long sinceMs, std::size_t limit) override {
    std::vector<std::string> out;
    auto r = query(kUnratedGamesSql, {num(sinceMs), num(static_cast<long long>(limit))},
                   [&](const PgResult& res, int i) { out.push_back(res.text(i, 0)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::pair<long long, double>> firstPlayerScore(const std::string& key) override {
    std::pair<long long, double> out{0, 0};
    auto r = query("SELECT COUNT(*),COALESCE(SUM(south_score),0) FROM rated_results WHERE game_key=$1", {key},
                   [&](const PgResult& res, int i) { out = {res.number(i, 0), realOf(res, i, 1)}; });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<PlayedGame>> gamesOf(const std::string& player, long long before, std::size_t limit) override {
    std::vector<PlayedGame> out;
    auto r = query("SELECT g.id,g.rules,g.mode,g.level,g.clock_seconds,g.clock_increment,g.seat_s,g.seat_n,g.status,"
                   "g.result,g.created,g.updated,g.rated,r.change_s,r.change_n FROM (SELECT * FROM games WHERE seat_s=$1 "
                   "AND status IN ('over','abandoned') UNION SELECT * FROM games WHERE seat_n=$1 AND status IN "
                   "('over','abandoned')) g LEFT JOIN rated_results r ON r.game=g.id WHERE g.updated<$2 "
                   "ORDER BY g.updated DESC LIMIT $3",
                   {player, num(before), num(static_cast<long long>(limit))}, [&](const PgResult& res, int i) {
                     PlayedGame pg{pgGameRow(res, i), std::nullopt};
                     if (!isNull(res, i, 13)) pg.change = std::array<double, 2>{realOf(res, i, 13), realOf(res, i, 14)};
                     out.push_back(std::move(pg));
                   });
    if (!r) return tl::unexpected(r.error());
    return out;
  }

  StoreResult<void> createSeek(const SeekRow& k) override {
    return exec("INSERT INTO seeks(id,player,rules,game_key,clock_seconds,clock_increment,rated,rating,rating_range,quick,"
                "created,game) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
                {k.id, k.player, k.rules, k.key, num(k.clockSeconds), num(k.clockIncrement), num(k.rated ? 1 : 0),
                 real(k.rating), num(k.range), num(k.quick ? 1 : 0), num(k.created), k.game});
  }
  StoreResult<bool> cancelSeek(const std::string& id, const std::string& player) override {
    long long n = 0;
    auto r = run_(true, [&](PGconn* c) -> StoreResult<void> {
      auto d = pgQuery(c, "DELETE FROM seeks WHERE id=$1 AND player=$2 AND game=''", {id, player});
      if (!d) return tl::unexpected(d.error());
      n = d->affected();
      return {};
    });
    if (!r) return tl::unexpected(r.error());
    return n > 0;
  }
  StoreResult<std::vector<SeekRow>> openSeeks() override {
    return seeks(std::string("SELECT ") + kSeekColumns + " FROM seeks WHERE game='' ORDER BY created", {});
  }
  StoreResult<std::optional<SeekRow>> seek(const std::string& id) override {
    auto rows = seeks(std::string("SELECT ") + kSeekColumns + " FROM seeks WHERE id=$1", {id});
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }
  StoreResult<void> pairSeeks(const std::string& a, const std::string& b, const GameRow& game,
                              const std::vector<EventRow>& events) override {
    return run_(true, [&](PGconn* c) -> StoreResult<void> {
      auto u = pgQuery(c, "UPDATE seeks SET game=$1 WHERE id IN ($2,$3) AND game=''", {game.id, a, b});
      if (!u) return tl::unexpected(u.error());
      if (u->affected() != 2) return tl::unexpected(StoreError{Fault::Conflict, "a seek was paired or cancelled meanwhile"});
      return insertGame_(c, game, events);
    });
  }
  StoreResult<long long> expireSeeks(long long beforeMs) override {
    long long n = 0;
    auto r = run_(true, [&](PGconn* c) -> StoreResult<void> {
      auto d = pgQuery(c, "DELETE FROM seeks WHERE game='' AND created<$1", {num(beforeMs)});
      if (!d) return tl::unexpected(d.error());
      n = d->affected();
      return {};
    });
    if (!r) return tl::unexpected(r.error());
    return n;
  }

  StoreResult<void> addFriend(const std::string& player, const std::string& other, long long at) override {
    return exec("INSERT INTO friends(player,other,at) VALUES($1,$2,$3) ON CONFLICT DO NOTHING", {player, other, num(at)});
  }
  StoreResult<void> removeFriend(const std::string& player, const std::string& other) override {
    return exec("DELETE FROM friends WHERE player=$1 AND other=$2", {player, other});
  }
  StoreResult<std::vector<PlayerCard>> friendsOf(const std::string& player) override {
    return cards(std::string(kCardJoin) + "friends f JOIN players p ON p.id=f.other LEFT JOIN accounts a ON "
                                         "a.player=p.id WHERE f.player=$1 ORDER BY p.name",
                 player);
  }
  StoreResult<void> block(const std::string& player, const std::string& other, long long at) override {
    return exec("INSERT INTO blocks(player,other,at) VALUES($1,$2,$3) ON CONFLICT DO NOTHING", {player, other, num(at)});
  }
  StoreResult<void> unblock(const std::string& player, const std::string& other) override {
    return exec("DELETE FROM blocks WHERE player=$1 AND other=$2", {player, other});
  }
  StoreResult<bool> blockedEitherWay(const std::string& a, const std::string& b) override {
    bool found = false;
    auto r = query("SELECT 1 FROM blocks WHERE (player=$1 AND other=$2) OR (player=$2 AND other=$1) LIMIT 1", {a, b},
                   [&](const PgResult&, int) { found = true; });
    if (!r) return tl::unexpected(r.error());
    return found;
  }
  StoreResult<std::vector<PlayerCard>> blockedBy(const std::string& player) override {
    return cards(std::string(kCardJoin) + "blocks b JOIN players p ON p.id=b.other LEFT JOIN accounts a ON "
                                         "a.player=p.id WHERE b.player=$1 ORDER BY p.name",
                 player);
  }
  StoreResult<std::optional<PlayerCard>> card(const std::string& player) override {
    auto rows = cards(std::string(kCardJoin) + "players p LEFT JOIN accounts a ON a.player=p.id WHERE p.id=$1", player);
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }

 private:
  StoreResult<void> exec(const char* sql, const std::vector<std::string>& params) {
    return run_(true, [&](PGconn* c) -> StoreResult<void> {
      auto r = pgQuery(c, sql, params);
      if (!r) return tl::unexpected(r.error());
      return {};
    });
  }
  template <class OnRow>
  StoreResult<void> query(const std::string& sql, const std::vector<std::string>& params, OnRow&& onRow) {
    return run_(false, [&](PGconn* c) -> StoreResult<void> {
      auto r = pgQuery(c, sql.c_str(), params);
      if (!r) return tl::unexpected(r.error());
      for (int i = 0; i < r->rows(); ++i) onRow(*r, i);
      return {};
    });
  }
  StoreResult<std::optional<AccountRow>> account(const char* sql, const std::string& key) {
    std::optional<AccountRow> out;
    auto r = query(sql, {key}, [&](const PgResult& res, int i) {
      out = AccountRow{res.text(i, 0), res.text(i, 1), res.text(i, 2), res.number(i, 3)};
    });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<SeekRow>> seeks(const std::string& sql, const std::vector<std::string>& params) {
    std::vector<SeekRow> out;
    auto r = query(sql, params, [&](const PgResult& res, int i) { out.push_back(seekRow(res, i)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }
  StoreResult<std::vector<PlayerCard>> cards(const std::string& sql, const std::string& key) {
    std::vector<PlayerCard> out;
    auto r = query(sql, {key}, [&](const PgResult& res, int i) { out.push_back(cardRow(res, i, 0)); });
    if (!r) return tl::unexpected(r.error());
    return out;
  }

  PgRun run_;
  PgGameWriter insertGame_;
};

}  // namespace

GameRow pgGameRow(const PgResult& r, int row, int c) {
  GameRow g;
  g.id = r.text(row, c + 0);
  g.rules = r.text(row, c + 1);
  g.mode = r.text(row, c + 2);
  g.level = r.text(row, c + 3);
  g.clockSeconds = static_cast<int>(r.number(row, c + 4));
  g.clockIncrement = static_cast<int>(r.number(row, c + 5));
  g.seatS = r.text(row, c + 6);
  g.seatN = r.text(row, c + 7);
  g.status = r.text(row, c + 8);
  g.result = r.text(row, c + 9);
  g.created = r.number(row, c + 10);
  g.updated = r.number(row, c + 11);
  g.rated = r.number(row, c + 12) != 0;
  return g;
}

std::unique_ptr<ClubStore> makePgClub(PgRun run, PgGameWriter insertGame) {
  return std::make_unique<PgClub>(std::move(run), std::move(insertGame));
}

}  // namespace semis::store
