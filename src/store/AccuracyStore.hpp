#pragma once
// Bots judged by the solver (docs/bots.md, "Accuracy"): for each finished game with a bot in a
// seat, once reviewed, per bot seat how many of its moves had a proven value and how many of those
// kept the best proven value. A game is reviewed once whatever the instance: its rows are written
// together, and a second writer's are dropped. Reached through Store::accuracy().
//
// Its statements are the same text on both backends (AccuracyStore.cpp, through a SqlRunner).

#include <memory>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

struct BotAccuracyRow {
  std::string game;
  std::string player;  // the bot's player id
  long long perfect = 0;
  long long proven = 0;
  long long at = 0;  // unix ms of the review
};

struct AccuracyTotal {
  long long perfect = 0;
  long long proven = 0;
  long long games = 0;  // the bot's games reviewed
};

class AccuracyStore {
 public:
  virtual ~AccuracyStore() = default;
  AccuracyStore() = default;
  AccuracyStore(const AccuracyStore&) = delete;
  AccuracyStore& operator=(const AccuracyStore&) = delete;

  // Finished games (status over, not aborted) last changed at or after `sinceMs` with a bot in a
  // seat and no review kept yet, oldest first, at most `limit`.
  virtual StoreResult<std::vector<std::string>> unreviewedBotGames(long long sinceMs, std::size_t limit) = 0;
  // A game's rows, one per bot seat, in one transaction: true when kept, false when the game had
  // rows already (another instance reviewed it first: nothing changed).
  virtual StoreResult<bool> keepAccuracy(const std::vector<BotAccuracyRow>& rows) = 0;
  // The sums over a bot's reviewed games (zeros for none).
  virtual StoreResult<AccuracyTotal> accuracyOf(const std::string& player) = 0;
  // One game's rows (none: not reviewed yet).
  virtual StoreResult<std::vector<BotAccuracyRow>> accuracyOfGame(const std::string& game) = 0;
};

class SqlRunner;
[[nodiscard]] std::unique_ptr<AccuracyStore> makeAccuracyStore(SqlRunner& runner);

// Schema step "bot accuracy" (after the bots' version 6), the same text for SQLite and PostgreSQL.
inline constexpr const char* kBotAccuracySchema = R"SQL(
CREATE TABLE bot_accuracy(game text NOT NULL, player text NOT NULL, perfect bigint NOT NULL,
  proven bigint NOT NULL, at bigint NOT NULL, PRIMARY KEY(game, player));
CREATE INDEX bot_accuracy_player ON bot_accuracy(player);
)SQL";

}  // namespace semis::store
