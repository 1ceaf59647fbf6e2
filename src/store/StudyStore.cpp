#include "store/StudyStore.hpp"

#include "store/SqlRunner.hpp"

namespace semis::store {

namespace {

constexpr const char* kPuzzleColumns = "game_key,day,position,value,line,decisions,created";

std::string puzzleSelect(const char* rest) { return std::string("SELECT ") + kPuzzleColumns + " FROM daily_puzzles " + rest; }

PuzzleRow puzzleRow(const SqlRow& r) {
  return PuzzleRow{r.text(0), r.integer(1), r.text(2), r.small(3), r.text(4), r.small(5), r.integer(6)};
}

class SqlStudy final : public StudyStore {
 public:
  explicit SqlStudy(SqlRunner& runner) : run_(runner) {}

  StoreResult<std::optional<PuzzleRow>> puzzle(const std::string& key, long long day) override {
    auto r = run_.run(Access::Read, puzzleSelect("WHERE game_key=$1 AND day=$2"), {key, day});
    if (!r) return tl::unexpected(r.error());
    if (r->rows.empty()) return std::optional<PuzzleRow>();
    return puzzleRow(r->rows.front());
  }

  StoreResult<PuzzleRow> keepPuzzle(const PuzzleRow& p) override {
    auto w = run_.run(Access::Write,
                      std::string("INSERT INTO daily_puzzles(") + kPuzzleColumns +
                          ") VALUES($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING",
                      {p.key, p.day, p.position, static_cast<long long>(p.value), p.line,
                       static_cast<long long>(p.decisions), p.created});
    if (!w) return tl::unexpected(w.error());
    auto kept = puzzle(p.key, p.day);
    if (!kept) return tl::unexpected(kept.error());
    if (!*kept) return tl::unexpected(StoreError{Fault::Other, "the day's puzzle was not kept"});
    return **kept;
  }

  StoreResult<bool> puzzleGiven(const std::string& key, const std::string& position) override {
    auto r = run_.run(Access::Read, "SELECT 1 FROM daily_puzzles WHERE game_key=$1 AND position=$2", {key, position});
    if (!r) return tl::unexpected(r.error());
    return !r->rows.empty();
  }

  StoreResult<std::vector<PuzzleRow>> puzzlesBefore(const std::string& key, long long beforeDay,
                                                    std::size_t limit) override {
    auto r = run_.run(Access::Read, puzzleSelect("WHERE game_key=$1 AND day<$2 ORDER BY day DESC LIMIT $3"),
                      {key, beforeDay, static_cast<long long>(limit)});
    if (!r) return tl::unexpected(r.error());
    std::vector<PuzzleRow> out;
    for (const SqlRow& row : r->rows) out.push_back(puzzleRow(row));
    return out;
  }

  StoreResult<bool> addResult(const DailyResultRow& d) override {
    auto w = run_.run(Access::Write,
                      "INSERT INTO daily_results(player,game_key,day,solved,result,at) VALUES($1,$2,$3,$4,$5,$6) "
                      "ON CONFLICT DO NOTHING",
                      {d.player, d.key, d.day, static_cast<long long>(d.solved), static_cast<long long>(d.result), d.at});
    if (!w) return tl::unexpected(w.error());
    return w->changed > 0;
  }

  StoreResult<std::vector<DailyResultRow>> results(const std::string& player, const std::string& key,
                                                   std::size_t limit) override {
    auto r = run_.run(Access::Read,
                      "SELECT player,game_key,day,solved,result,at FROM daily_results WHERE player=$1 AND game_key=$2 "
                      "ORDER BY day DESC LIMIT $3",
                      {player, key, static_cast<long long>(limit)});
    if (!r) return tl::unexpected(r.error());
    std::vector<DailyResultRow> out;
    for (const SqlRow& row : r->rows) {
      out.push_back(DailyResultRow{row.text(0), row.text(1), row.integer(2), row.integer(3) != 0, row.small(4),
                                   row.integer(5)});
    }
    return out;
  }

 private:
  SqlRunner& run_;
};

}  // namespace

std::unique_ptr<StudyStore> makeStudyStore(SqlRunner& runner) { return std::make_unique<SqlStudy>(runner); }

}  // namespace semis::store
