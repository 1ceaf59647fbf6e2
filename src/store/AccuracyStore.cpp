#include "store/AccuracyStore.hpp"

#include "store/SqlRunner.hpp"

namespace semis::store {

namespace {

// The games' index (status, updated) narrows to the recent ends; the bots' key and the reviews'
// key answer the rest. An aborted game (no show, or left before the second move) was not played:
// it is not judged, as it is not rated.
constexpr const char* kUnreviewedSql =
    "SELECT g.id FROM games g WHERE g.status='over' AND g.updated>=$1 AND "
    "g.result NOT LIKE '%\"reason\":\"aborted\"%' AND "
    "(EXISTS (SELECT 1 FROM bots b WHERE b.player=g.seat_s) OR "
    "EXISTS (SELECT 1 FROM bots b WHERE b.player=g.seat_n)) AND "
    "NOT EXISTS (SELECT 1 FROM bot_accuracy a WHERE a.game=g.id) ORDER BY g.updated, g.id LIMIT $2";

class SqlAccuracy final : public AccuracyStore {
 public:
  explicit SqlAccuracy(SqlRunner& runner) : run_(runner) {}

  StoreResult<std::vector<std::string>> unreviewedBotGames(long long sinceMs, std::size_t limit) override {
    auto r = run_.run(Access::Read, kUnreviewedSql, {sinceMs, static_cast<long long>(limit)});
    if (!r) return tl::unexpected(r.error());
    std::vector<std::string> out;
    for (const SqlRow& row : r->rows) out.push_back(row.text(0));
    return out;
  }

  StoreResult<bool> keepAccuracy(const std::vector<BotAccuracyRow>& rows) override {
    if (rows.empty()) return false;
    return transact<bool>(run_, Access::Write, [&](SqlTx& tx) -> StoreResult<bool> {
      auto there = tx.run("SELECT 1 FROM bot_accuracy WHERE game=$1", {rows.front().game});
      if (!there) return tl::unexpected(there.error());
      if (!there->rows.empty()) return false;
      for (const BotAccuracyRow& a : rows) {
        // Two instances writing at once: the second meets the key and keeps nothing of its own.
        auto r = tx.run("INSERT INTO bot_accuracy(game,player,perfect,proven,at) VALUES($1,$2,$3,$4,$5) "
                        "ON CONFLICT DO NOTHING",
                        {a.game, a.player, a.perfect, a.proven, a.at});
        if (!r) return tl::unexpected(r.error());
        if (r->changed == 0) return tl::unexpected(StoreError{Fault::Conflict, "the game was reviewed meanwhile"});
      }
      return true;
    });
  }

  StoreResult<AccuracyTotal> accuracyOf(const std::string& player) override {
    auto r = run_.run(Access::Read,
                      "SELECT COALESCE(SUM(perfect),0), COALESCE(SUM(proven),0), COUNT(*) "
                      "FROM bot_accuracy WHERE player=$1",
                      {player});
    if (!r) return tl::unexpected(r.error());
    const SqlRow& row = r->rows.at(0);
    return AccuracyTotal{row.integer(0), row.integer(1), row.integer(2)};
  }

  StoreResult<std::vector<BotAccuracyRow>> accuracyOfGame(const std::string& game) override {
    auto r = run_.run(Access::Read,
                      "SELECT game,player,perfect,proven,at FROM bot_accuracy WHERE game=$1 ORDER BY player", {game});
    if (!r) return tl::unexpected(r.error());
    std::vector<BotAccuracyRow> out;
    for (const SqlRow& row : r->rows)
      out.push_back(BotAccuracyRow{row.text(0), row.text(1), row.integer(2), row.integer(3), row.integer(4)});
    return out;
  }

 private:
  SqlRunner& run_;
};

}  // namespace

std::unique_ptr<AccuracyStore> makeAccuracyStore(SqlRunner& runner) { return std::make_unique<SqlAccuracy>(runner); }

}  // namespace semis::store
