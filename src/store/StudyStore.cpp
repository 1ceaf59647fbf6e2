#include "store/StudyStore.hpp"

#include <cstdlib>
#include <deque>
#include <mutex>

namespace semis::store {

namespace {

long long number(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }
std::string num(long long v) { return std::to_string(v); }

constexpr const char* kPuzzleColumns = "game_key,day,position,value,line,decisions,created";

PuzzleRow puzzleRow(const std::vector<std::string>& r) {
  return PuzzleRow{r[0], number(r[1]), r[2], static_cast<int>(number(r[3])), r[4], static_cast<int>(number(r[5])),
                   number(r[6])};
}

class SqlStudy final : public StudyStore {
 public:
  explicit SqlStudy(SqlCall call) : call_(std::move(call)) {}

  StoreResult<std::optional<PuzzleRow>> puzzle(const std::string& key, long long day) override {
    auto r = call_(false, sql(std::string("SELECT ") + kPuzzleColumns + " FROM daily_puzzles WHERE game_key=$1 AND day=$2"),
                   {key, num(day)});
    if (!r) return tl::unexpected(r.error());
    if (r->rows.empty()) return std::optional<PuzzleRow>();
    return puzzleRow(r->rows.front());
  }

  StoreResult<PuzzleRow> keepPuzzle(const PuzzleRow& p) override {
    auto w = call_(true,
                   "INSERT INTO daily_puzzles(game_key,day,position,value,line,decisions,created) "
                   "VALUES($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING",
                   {p.key, num(p.day), p.position, num(p.value), p.line, num(p.decisions), num(p.created)});
    if (!w) return tl::unexpected(w.error());
    auto kept = puzzle(p.key, p.day);
    if (!kept) return tl::unexpected(kept.error());
    if (!*kept) return tl::unexpected(StoreError{Fault::Other, "the day's puzzle was not kept"});
    return **kept;
  }

  StoreResult<bool> puzzleGiven(const std::string& key, const std::string& position) override {
    auto r = call_(false, "SELECT 1 FROM daily_puzzles WHERE game_key=$1 AND position=$2", {key, position});
    if (!r) return tl::unexpected(r.error());
    return !r->rows.empty();
  }

  StoreResult<std::vector<PuzzleRow>> puzzlesBefore(const std::string& key, long long beforeDay,
                                                    std::size_t limit) override {
    const char* q = sql(std::string("SELECT ") + kPuzzleColumns +
                        " FROM daily_puzzles WHERE game_key=$1 AND day<$2 ORDER BY day DESC LIMIT " +
                        num(static_cast<long long>(limit)));
    auto r = call_(false, q, {key, num(beforeDay)});
    if (!r) return tl::unexpected(r.error());
    std::vector<PuzzleRow> out;
    for (const auto& row : r->rows) out.push_back(puzzleRow(row));
    return out;
  }

  StoreResult<bool> addResult(const DailyResultRow& d) override {
    auto w = call_(true,
                   "INSERT INTO daily_results(player,game_key,day,solved,result,at) VALUES($1,$2,$3,$4,$5,$6) "
                   "ON CONFLICT DO NOTHING",
                   {d.player, d.key, num(d.day), d.solved ? "1" : "0", num(d.result), num(d.at)});
    if (!w) return tl::unexpected(w.error());
    return w->changed > 0;
  }

  StoreResult<std::vector<DailyResultRow>> results(const std::string& player, const std::string& key,
                                                   std::size_t limit) override {
    const char* q = sql(
        "SELECT player,game_key,day,solved,result,at FROM daily_results WHERE player=$1 AND game_key=$2 ORDER BY day "
        "DESC LIMIT " + num(static_cast<long long>(limit)));
    auto r = call_(false, q, {player, key});
    if (!r) return tl::unexpected(r.error());
    std::vector<DailyResultRow> out;
    for (const auto& row : r->rows) {
      out.push_back(DailyResultRow{row[0], row[1], number(row[2]), number(row[3]) != 0,
                                   static_cast<int>(number(row[4])), number(row[5])});
    }
    return out;
  }

 private:
  // Statement texts made at run time live as long as the store, one copy each: SQLite caches its
  // prepared statements by the text's address (SqliteConn::statements). A deque never moves them.
  const char* sql(const std::string& text) {
    std::lock_guard lock(textsMutex_);
    for (const std::string& known : texts_) {
      if (known == text) return known.c_str();
    }
    return texts_.emplace_back(text).c_str();
  }

  SqlCall call_;
  std::mutex textsMutex_;
  std::deque<std::string> texts_;
};

}  // namespace

std::unique_ptr<StudyStore> makeStudyStore(SqlCall call) { return std::make_unique<SqlStudy>(std::move(call)); }

}  // namespace semis::store
