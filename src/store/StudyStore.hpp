#pragma once
// The daily challenge's records (docs/study.md): the puzzle each day was given (kept, so every
// instance gives the same one and no position comes back), and each signed-in player's first
// attempt of each day (his streak). Reached through Store::study().
//
// Its few statements are the same text on both backends: one implementation (StudyStore.cpp) runs
// them through a backend's SqlRunner (store/SqlRunner.hpp).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

struct PuzzleRow {
  std::string key;  // the preset (kalah, kalah-club, ...)
  long long day = 0;  // days since 1970-01-01
  std::string position;  // Board::toString
  int value = 0;
  std::string line;  // houses separated by commas
  int decisions = 0;
  long long created = 0;
};

struct DailyResultRow {
  std::string player;
  std::string key;
  long long day = 0;
  bool solved = false;
  int result = 0;  // solved: the final store difference; else the failed move's index
  long long at = 0;
};

class StudyStore {
 public:
  virtual ~StudyStore() = default;
  StudyStore() = default;
  StudyStore(const StudyStore&) = delete;
  StudyStore& operator=(const StudyStore&) = delete;

  virtual StoreResult<std::optional<PuzzleRow>> puzzle(const std::string& key, long long day) = 0;
  // Keeps the day's puzzle unless it has one already; answers the one kept (the first writer wins,
  // so two instances that generate the same day at once agree).
  virtual StoreResult<PuzzleRow> keepPuzzle(const PuzzleRow& row) = 0;
  // Whether any day of `key` was given this position.
  virtual StoreResult<bool> puzzleGiven(const std::string& key, const std::string& position) = 0;
  // The days of `key` before `beforeDay`, newest first, at most `limit`.
  virtual StoreResult<std::vector<PuzzleRow>> puzzlesBefore(const std::string& key, long long beforeDay,
                                                            std::size_t limit) = 0;
  // The player's first attempt of the day counts: false (and nothing written) when he has one.
  virtual StoreResult<bool> addResult(const DailyResultRow& row) = 0;
  // Newest first, at most `limit`.
  virtual StoreResult<std::vector<DailyResultRow>> results(const std::string& player, const std::string& key,
                                                           std::size_t limit) = 0;
};

class SqlRunner;
[[nodiscard]] std::unique_ptr<StudyStore> makeStudyStore(SqlRunner& runner);

// Schema version 4, the same text for SQLite and PostgreSQL.
inline constexpr const char* kStudySchema = R"SQL(
CREATE TABLE daily_puzzles(game_key text NOT NULL, day bigint NOT NULL, position text NOT NULL,
  value integer NOT NULL, line text NOT NULL, decisions integer NOT NULL, created bigint NOT NULL,
  PRIMARY KEY(game_key, day));
CREATE INDEX daily_puzzles_position ON daily_puzzles(game_key, position);
CREATE TABLE daily_results(player text NOT NULL, game_key text NOT NULL, day bigint NOT NULL,
  solved integer NOT NULL, result integer NOT NULL, at bigint NOT NULL, PRIMARY KEY(player, game_key, day));
)SQL";

}  // namespace semis::store
