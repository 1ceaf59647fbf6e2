// The club's records (store/ClubStore.hpp), one implementation for both backends: each method is
// one Write transaction or one read, through the backend's SqlRunner, in the same database as the
// games (a pairing creates its game in the transaction that marks the seeks).

#include <chrono>

#include "store/ClubSchema.hpp"
#include "store/SqlStore.hpp"

namespace semis::store {

namespace {

using Params = std::vector<SqlValue>;

long long big(std::size_t v) { return static_cast<long long>(v); }

long long nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

constexpr const char* kRatingColumns = "player,game_key,rating,deviation,volatility,games,wins,draws,losses,at";
constexpr const char* kSeekColumns =
    "id,player,rules,game_key,clock_seconds,clock_increment,rated,rating,rating_range,quick,created,game";
constexpr const char* kAccountColumns = "player,username,password_hash,created,username_key";
// A player's card (cardRow): his row and his account's username, from `players p LEFT JOIN accounts a`.
constexpr const char* kCardColumns = "p.id,p.name,p.created,COALESCE(a.username,'')";

RatingRow ratingRow(const SqlRow& r, std::size_t c) {
  return RatingRow{r.text(c),          r.text(c + 1),    r.real(c + 2),    r.real(c + 3),
                   r.real(c + 4),      r.integer(c + 5), r.integer(c + 6), r.integer(c + 7),
                   r.integer(c + 8),   r.integer(c + 9)};
}

PlayerCard cardRow(const SqlRow& r, std::size_t c) {
  return PlayerCard{PlayerRow{r.text(c), r.text(c + 1), r.integer(c + 2)}, r.text(c + 3)};
}

SeekRow seekRow(const SqlRow& r) {
  return SeekRow{r.text(0),    r.text(1),           r.text(2),   r.text(3),           r.small(4),   r.small(5),
                 r.integer(6) != 0, r.real(7),       r.small(8),  r.integer(9) != 0,   r.integer(10), r.text(11)};
}

AccountRow accountRow(const SqlRow& r) { return AccountRow{r.text(0), r.text(1), r.text(2), r.integer(3), r.text(4)}; }

std::string select(const char* columns, const std::string& rest) { return std::string("SELECT ") + columns + " " + rest; }

class SqlClub final : public ClubStore {
 public:
  explicit SqlClub(SqlRunner& runner) : run_(runner) {}

  StoreResult<void> createAccount(const AccountRow& a) override {
    if (a.usernameKey.empty()) return tl::unexpected(StoreError{Fault::Other, "an account needs its username's key"});
    return run_.transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
      // A bot's name is taken like a username (store/BotStore.hpp).
      auto bot = tx.run("SELECT 1 FROM bots WHERE name_key=$1", {a.usernameKey});
      if (!bot) return tl::unexpected(bot.error());
      if (!bot->rows.empty()) return tl::unexpected(StoreError{Fault::Conflict, "this username is a bot's name"});
      auto r = tx.run("INSERT INTO accounts(player,username,username_key,password_hash,created) VALUES($1,$2,$3,$4,$5)",
                      {a.player, a.username, a.usernameKey, a.passwordHash, a.created});
      if (!r) return tl::unexpected(r.error());
      return {};
    });
  }
  StoreResult<std::optional<AccountRow>> accountByUsername(const std::string& usernameKey) override {
    return one<AccountRow>(select(kAccountColumns, "FROM accounts WHERE username_key=$1"), {usernameKey}, accountRow);
  }
  StoreResult<std::optional<AccountRow>> accountOf(const std::string& player) override {
    return one<AccountRow>(select(kAccountColumns, "FROM accounts WHERE player=$1"), {player}, accountRow);
  }
  StoreResult<void> deleteAccount(const std::string& player, const std::string& deletedName) override {
    return run_.transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
      for (const char* sql : kDeleteAccount) {
        if (auto r = tx.run(sql, {player}); !r) return tl::unexpected(r.error());
      }
      // His bots stop connecting (their games, ratings and names stay).
      if (auto r = tx.run("UPDATE bots SET revoked=$2 WHERE owner=$1 AND revoked=0", {player, nowMs()}); !r) {
        return tl::unexpected(r.error());
      }
      if (auto r = tx.run("UPDATE players SET name=$1 WHERE id=$2", {deletedName, player}); !r) {
        return tl::unexpected(r.error());
      }
      return {};
    });
  }
  StoreResult<void> addToken(const std::string& player, const std::string& tokenHash) override {
    return write("INSERT INTO tokens(token_hash,player) VALUES($1,$2)", {tokenHash, player});
  }
  StoreResult<void> dropToken(const std::string& tokenHash) override {
    return write("DELETE FROM tokens WHERE token_hash=$1", {tokenHash});
  }
  StoreResult<void> createClaim(const std::string& codeHash, const std::string& player, long long expires) override {
    return write("INSERT INTO claims(code_hash,player,expires) VALUES($1,$2,$3)", {codeHash, player, expires});
  }
  StoreResult<std::optional<std::string>> takeClaim(const std::string& codeHash, long long now) override {
    return transact<std::optional<std::string>>(run_, Access::Write, [&](SqlTx& tx) -> StoreResult<std::optional<std::string>> {
      // Deleted as it is read: two redemptions at once get it once.
      auto r = tx.run("DELETE FROM claims WHERE code_hash=$1 AND expires>$2 RETURNING player", {codeHash, now});
      if (!r) return tl::unexpected(r.error());
      if (auto d = tx.run("DELETE FROM claims WHERE expires<=$1", {now}); !d) return tl::unexpected(d.error());
      if (r->rows.empty()) return std::nullopt;
      return r->rows.front().text(0);
    });
  }

  StoreResult<std::vector<RatingRow>> ratings(const std::string& player) override {
    return all<RatingRow>(select(kRatingColumns, "FROM ratings WHERE player=$1 ORDER BY game_key"), {player},
                          [](const SqlRow& r) { return ratingRow(r, 0); });
  }
  StoreResult<std::optional<RatingRow>> rating(const std::string& player, const std::string& key) override {
    return one<RatingRow>(select(kRatingColumns, "FROM ratings WHERE player=$1 AND game_key=$2"), {player, key},
                          [](const SqlRow& r) { return ratingRow(r, 0); });
  }
  StoreResult<void> applyRated(const RatedResult& rr) override {
    return run_.transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
      auto first = tx.run("INSERT INTO rated_results(game,game_key,south_score,after_s,after_n,change_s,change_n,at) "
                          "VALUES($1,$2,$3,$4,$5,$6,$7,$8)",
                          {rr.game, rr.key, rr.southScore, rr.after[0].rating, rr.after[1].rating, rr.change[0],
                           rr.change[1], rr.at});
      if (!first) return tl::unexpected(first.error());  // a second result for the game: Conflict
      // Both rows in player-id order: two games of the same players rated at once never deadlock.
      const bool swap = rr.after[1].player < rr.after[0].player;
      for (const RatingRow& a : {rr.after[swap ? 1 : 0], rr.after[swap ? 0 : 1]}) {
        auto u = tx.run("INSERT INTO ratings(player,game_key,rating,deviation,volatility,games,wins,draws,losses,at) "
                        "VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT(player,game_key) DO UPDATE SET "
                        "rating=EXCLUDED.rating,deviation=EXCLUDED.deviation,volatility=EXCLUDED.volatility,"
                        "games=EXCLUDED.games,wins=EXCLUDED.wins,draws=EXCLUDED.draws,losses=EXCLUDED.losses,at=EXCLUDED.at",
                        {a.player, a.key, a.rating, a.deviation, a.volatility, a.games, a.wins, a.draws, a.losses, a.at});
        if (!u) return tl::unexpected(u.error());
        auto p = tx.run("INSERT INTO rating_points(player,game_key,at,rating,deviation,game) VALUES($1,$2,$3,$4,$5,$6)",
                        {a.player, a.key, rr.at, a.rating, a.deviation, rr.game});
        if (!p) return tl::unexpected(p.error());
      }
      return {};
    });
  }
  StoreResult<std::optional<RatedResult>> ratedResult(const std::string& game) override {
    return one<RatedResult>(
        "SELECT r.game,r.game_key,r.south_score,r.after_s,r.after_n,r.change_s,r.change_n,r.at,g.seat_s,g.seat_n "
        "FROM rated_results r JOIN games g ON g.id=r.game WHERE r.game=$1",
        {game}, [](const SqlRow& r) {
          RatedResult rr;
          rr.game = r.text(0);
          rr.key = r.text(1);
          rr.southScore = r.real(2);
          rr.after[0] = RatingRow{r.text(8), rr.key, r.real(3)};
          rr.after[1] = RatingRow{r.text(9), rr.key, r.real(4)};
          rr.change = {r.real(5), r.real(6)};
          rr.at = r.integer(7);
          return rr;
        });
  }
  StoreResult<std::vector<RatingPoint>> ratingHistory(const std::string& player, const std::string& key,
                                                      std::size_t limit) override {
    return all<RatingPoint>("SELECT at,rating,deviation,game FROM (SELECT at,rating,deviation,game FROM rating_points "
                            "WHERE player=$1 AND game_key=$2 ORDER BY at DESC LIMIT $3) p ORDER BY at",
                            {player, key, big(limit)},
                            [](const SqlRow& r) { return RatingPoint{r.integer(0), r.real(1), r.real(2), r.text(3)}; });
  }
  StoreResult<std::vector<std::pair<RatingRow, PlayerCard>>> leaderboard(const std::string& key, double maxDeviation,
                                                                         std::size_t limit) override {
    return all<std::pair<RatingRow, PlayerCard>>(
        std::string("SELECT r.player,r.game_key,r.rating,r.deviation,r.volatility,r.games,r.wins,r.draws,r.losses,r.at,") +
            kCardColumns +
            " FROM ratings r JOIN players p ON p.id=r.player LEFT JOIN accounts a ON a.player=r.player "
            "WHERE r.game_key=$1 AND r.deviation<$2 ORDER BY r.rating DESC LIMIT $3",
        {key, maxDeviation, big(limit)}, [](const SqlRow& r) { return std::pair{ratingRow(r, 0), cardRow(r, 10)}; });
  }
  StoreResult<std::vector<std::string>> unratedGames(long long sinceMs, std::size_t limit) override {
    return all<std::string>(kUnratedGamesSql, {sinceMs, big(limit)}, [](const SqlRow& r) { return r.text(0); });
  }
  StoreResult<std::pair<long long, double>> firstPlayerScore(const std::string& key) override {
    auto r = one<std::pair<long long, double>>(
        "SELECT COUNT(*),COALESCE(SUM(south_score),0) FROM rated_results WHERE game_key=$1", {key},
        [](const SqlRow& row) { return std::pair{row.integer(0), row.real(1)}; });
    if (!r) return tl::unexpected(r.error());
    return r->value_or(std::pair<long long, double>{0, 0});
  }
  StoreResult<std::vector<PlayedGame>> gamesOf(const std::string& player, long long before, std::size_t limit) override {
    // Two index lookups (games_seat_s, games_seat_n) rather than one scan for an OR.
    return all<PlayedGame>(
        "SELECT g.id,g.rules,g.mode,g.level,g.clock_seconds,g.clock_increment,g.seat_s,g.seat_n,g.status,"
        "g.result,g.created,g.updated,g.rated,r.change_s,r.change_n FROM (SELECT * FROM games WHERE seat_s=$1 "
        "AND status IN ('over','abandoned') UNION SELECT * FROM games WHERE seat_n=$1 AND status IN "
        "('over','abandoned')) g LEFT JOIN rated_results r ON r.game=g.id WHERE g.updated<$2 "
        "ORDER BY g.updated DESC LIMIT $3",
        {player, before, big(limit)}, [](const SqlRow& r) {
          PlayedGame pg{gameRow(r), std::nullopt};
          if (!r.null(13)) pg.change = std::array<double, 2>{r.real(13), r.real(14)};
          return pg;
        });
  }

  StoreResult<void> createSeek(const SeekRow& k) override {
    return write("INSERT INTO seeks(id,player,rules,game_key,clock_seconds,clock_increment,rated,rating,rating_range,quick,"
                 "created,game) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
                 {k.id, k.player, k.rules, k.key, static_cast<long long>(k.clockSeconds),
                  static_cast<long long>(k.clockIncrement), static_cast<long long>(k.rated), k.rating,
                  static_cast<long long>(k.range), static_cast<long long>(k.quick), k.created, k.game});
  }
  StoreResult<bool> cancelSeek(const std::string& id, const std::string& player) override {
    auto r = run_.run(Access::Write, "DELETE FROM seeks WHERE id=$1 AND player=$2 AND game=''", {id, player});
    if (!r) return tl::unexpected(r.error());
    return r->changed > 0;
  }
  StoreResult<std::vector<SeekRow>> openSeeks() override {
    return all<SeekRow>(select(kSeekColumns, "FROM seeks WHERE game='' ORDER BY created"), {}, seekRow);
  }
  StoreResult<std::optional<SeekRow>> seek(const std::string& id) override {
    return one<SeekRow>(select(kSeekColumns, "FROM seeks WHERE id=$1"), {id}, seekRow);
  }
  StoreResult<void> pairSeeks(const std::string& a, const std::string& b, const GameRow& game,
                              const std::vector<EventRow>& events) override {
    return run_.transaction(Access::Write, [&](SqlTx& tx) -> StoreResult<void> {
      auto u = tx.run("UPDATE seeks SET game=$1 WHERE id IN ($2,$3) AND game=''", {game.id, a, b});
      if (!u) return tl::unexpected(u.error());
      if (u->changed != 2) return tl::unexpected(StoreError{Fault::Conflict, "a seek was paired or cancelled meanwhile"});
      return insertGame(tx, game, events);
    });
  }
  StoreResult<long long> expireSeeks(long long beforeMs) override {
    auto r = run_.run(Access::Write, "DELETE FROM seeks WHERE game='' AND created<$1", {beforeMs});
    if (!r) return tl::unexpected(r.error());
    return r->changed;
  }

  StoreResult<void> addFriend(const std::string& player, const std::string& other, long long at) override {
    return write("INSERT INTO friends(player,other,at) VALUES($1,$2,$3) ON CONFLICT DO NOTHING", {player, other, at});
  }
  StoreResult<void> removeFriend(const std::string& player, const std::string& other) override {
    return write("DELETE FROM friends WHERE player=$1 AND other=$2", {player, other});
  }
  StoreResult<std::vector<PlayerCard>> friendsOf(const std::string& player) override {
    return cards("friends f JOIN players p ON p.id=f.other LEFT JOIN accounts a ON a.player=p.id WHERE f.player=$1 "
                 "ORDER BY p.name",
                 player);
  }
  StoreResult<void> block(const std::string& player, const std::string& other, long long at) override {
    return write("INSERT INTO blocks(player,other,at) VALUES($1,$2,$3) ON CONFLICT DO NOTHING", {player, other, at});
  }
  StoreResult<void> unblock(const std::string& player, const std::string& other) override {
    return write("DELETE FROM blocks WHERE player=$1 AND other=$2", {player, other});
  }
  StoreResult<bool> blockedEitherWay(const std::string& a, const std::string& b) override {
    auto r = run_.run(Access::Read,
                      "SELECT 1 FROM blocks WHERE (player=$1 AND other=$2) OR (player=$2 AND other=$1) LIMIT 1", {a, b});
    if (!r) return tl::unexpected(r.error());
    return !r->rows.empty();
  }
  StoreResult<std::vector<PlayerCard>> blockedBy(const std::string& player) override {
    return cards("blocks b JOIN players p ON p.id=b.other LEFT JOIN accounts a ON a.player=p.id WHERE b.player=$1 "
                 "ORDER BY p.name",
                 player);
  }
  StoreResult<std::optional<PlayerCard>> card(const std::string& player) override {
    auto rows = cards("players p LEFT JOIN accounts a ON a.player=p.id WHERE p.id=$1", player);
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }

 private:
  StoreResult<void> write(const char* sql, const Params& params) {
    auto r = run_.run(Access::Write, sql, params);
    if (!r) return tl::unexpected(r.error());
    return {};
  }
  // Every row of one read, each made by `make`.
  template <class T, class Make>
  StoreResult<std::vector<T>> all(const std::string& sql, const Params& params, Make&& make) {
    auto r = run_.run(Access::Read, sql, params);
    if (!r) return tl::unexpected(r.error());
    std::vector<T> out;
    out.reserve(r->rows.size());
    for (const SqlRow& row : r->rows) out.push_back(make(row));
    return out;
  }
  // The first row of one read, if any.
  template <class T, class Make>
  StoreResult<std::optional<T>> one(const std::string& sql, const Params& params, Make&& make) {
    auto r = run_.run(Access::Read, sql, params);
    if (!r) return tl::unexpected(r.error());
    if (r->rows.empty()) return std::nullopt;
    return make(r->rows.front());
  }
  StoreResult<std::vector<PlayerCard>> cards(const char* from, const std::string& key) {
    return all<PlayerCard>(select(kCardColumns, std::string("FROM ") + from), {key},
                           [](const SqlRow& r) { return cardRow(r, 0); });
  }

  SqlRunner& run_;
};

}  // namespace

std::unique_ptr<ClubStore> makeSqlClub(SqlRunner& runner) { return std::make_unique<SqlClub>(runner); }

}  // namespace semis::store
