#include "study/Daily.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <random>

#include "engine/Levels.hpp"
#include "rules/Game.hpp"

namespace semis::study {

namespace {

// Days from 1970-01-01 of a civil date, and back (the proleptic Gregorian calendar).
long long daysFromCivil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

void civilFromDays(long long z, long long& y, unsigned& m, unsigned& d) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<long long>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

// FNV-1a: a seed that is the same on every platform (std::hash is not).
std::uint64_t fnv(std::string_view text, std::uint64_t h = 1469598103934665603ULL) {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

int greedyMove(const Board& board, const Position& pos) {
  int best = 0;
  int bestScore = -1;
  for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
    const int house = std::countr_zero(m) + 1;
    Position child = pos;
    const MoveInfo info = board.apply(child, house);
    const int score = info.captured * 2 + (info.extraTurn ? 1 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = house;
    }
  }
  return best;
}

int bestOf(const std::vector<engine::MoveValue>& values) {
  const engine::MoveValue* best = &values.front();
  for (const auto& mv : values) {
    if (mv.value > best->value) best = &mv;
  }
  return best->move;
}

int valueOf(const std::vector<engine::MoveValue>& values, int move) {
  for (const auto& mv : values) {
    if (mv.move == move) return mv.value;
  }
  return -engine::kInfinity;
}

bool givesAway(const std::vector<engine::MoveValue>& values) {
  const int best = valueOf(values, bestOf(values));
  return std::any_of(values.begin(), values.end(), [&](const engine::MoveValue& mv) { return mv.value < best; });
}

// A generated game's endgame: two seeded beginners play from the start until at most `target`
// seeds are left in the houses. Nothing when the game ends first.
std::optional<Position> generatedEndgame(const Rules& rules, std::uint64_t seed, int target) {
  engine::LevelOptions options;
  options.tableMegabytes = 1;
  options.seed = seed;
  engine::Player south(rules, engine::Level::Easy, options);
  options.seed = seed ^ 0x9e3779b97f4a7c15ULL;
  engine::Player north(rules, engine::Level::Easy, options);
  const Board board(rules);
  Position pos = board.start();
  for (int ply = 0; ply < 400 && !pos.over; ++ply) {
    if (board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North) <= target) return pos;
    const int house = (pos.toMove == Side::South ? south : north).choose(pos);
    if (!board.isLegal(pos, house)) return std::nullopt;
    board.apply(pos, house);
  }
  return std::nullopt;
}

}  // namespace

Result<long long> parseDay(std::string_view text) {
  int y = 0, m = 0, d = 0;
  const auto field = [&](std::size_t at, std::size_t len, int& out) {
    if (text.size() < at + len) return false;
    const char* b = text.data() + at;
    const auto [end, ec] = std::from_chars(b, b + len, out);
    return ec == std::errc() && end == b + len;
  };
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !field(0, 4, y) || !field(5, 2, m) || !field(8, 2, d)) {
    return fail("a date is written YYYY-MM-DD");
  }
  if (y < 2000 || y > 2200 || m < 1 || m > 12 || d < 1) return fail("no such date: " + std::string(text));
  const long long day = daysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  if (dayText(day) != text) return fail("no such date: " + std::string(text));
  return day;
}

std::string dayText(long long day) {
  long long y = 0;
  unsigned m = 0, d = 0;
  civilFromDays(day, y, m, d);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", y, m, d);
  return buf;
}

// Awalé's bare game cycles: the search without a table proved none of its 10-seed endgames in
// minutes, and above a table only those whose every line captures into it (docs/study.md).
int dailyTableSeeds(const Rules& rules) {
  const bool cycling = rules.repetitions > 0 && rules.idleLimit == 0;
  return cycling && engine::Egdb::applies(rules) && engine::Egdb::retrograde(rules) ? 8 : 0;
}

bool hasDaily(const Rules& rules) {
  return (rules.repetitions == 0 && rules.idleLimit == 0) || dailyTableSeeds(rules) > 0;
}

const engine::Egdb* DailyTables::find(const Rules& rules) {
  const int seeds = dailyTableSeeds(rules);
  if (seeds == 0) return nullptr;
  // Held while building: two first requests for the same table build it once, and the build is
  // a fraction of a second.
  std::lock_guard lock(mu_);
  for (const auto& [r, table] : tables_) {
    if (r == rules) return table.get();
  }
  auto built = engine::Egdb::build(rules, seeds, 1);
  tables_.emplace_back(rules, built ? std::make_unique<engine::Egdb>(std::move(*built)) : nullptr);
  return tables_.back().second.get();
}

namespace {

// The table a daily of these rules is judged by, when they need one.
Result<void> tableFits(const Rules& rules, const engine::Egdb* table) {
  const int seeds = dailyTableSeeds(rules);
  if (seeds == 0) return {};
  if (table == nullptr || !table->serves(rules) || table->maxSeeds() < seeds) {
    return fail("the daily challenge of " + toString(rules) + " is judged by its " + std::to_string(seeds) +
                "-seed endgame table, which is not built");
  }
  return {};
}

}  // namespace

Result<std::vector<engine::MoveValue>> exactValues(engine::Search& search, const Position& pos) {
  engine::Limits limits;
  limits.aim = engine::Aim::Value;
  limits.nodes = 4'000'000;  // a daily endgame takes far fewer; a larger position is refused
  auto values = search.moveValues(pos, limits);
  if (values.empty()) return fail("the game is over");
  for (const auto& mv : values) {
    if (!mv.exact) return fail("the position is too large to prove");
  }
  return values;
}

Result<Puzzle> dailyPuzzle(const Rules& rules, long long day, const std::function<bool(const Position&)>& seen,
                           const engine::Egdb* table) {
  if (!hasDaily(rules)) return fail("no daily challenge for " + toString(rules) + ": its history rules are not solved");
  if (auto fits = tableFits(rules, table); !fits) return tl::unexpected(fits.error());
  const int tableSeeds = dailyTableSeeds(rules);
  const Board board(rules);
  const int total = board.seedCount(board.start());
  engine::Search search(rules, 32);
  if (tableSeeds > 0) search.setEgdb(table);
  std::mt19937_64 rng(fnv(toString(rules) + '/' + dayText(day)));
  constexpr int kCandidates = 300;
  constexpr std::size_t kTableLinePlies = 24;
  for (int k = 0; k < kCandidates; ++k) {
    const std::uint64_t seed = rng();
    // Judged by a table: within it (a few seeds fewer sometimes, for variety).
    std::uniform_int_distribution<int> size(tableSeeds > 0 ? tableSeeds - 2 : std::max(6, total * 22 / 100),
                                            tableSeeds > 0 ? tableSeeds : std::max(8, total * 36 / 100));
    const int target = size(rng);
    const auto pos = generatedEndgame(rules, seed, target);
    if (!pos || std::popcount(board.legalMask(*pos)) < 3 || (seen && seen(*pos))) continue;
    auto values = exactValues(search, *pos);
    if (!values) continue;
    const int best = bestOf(*values);
    const int value = valueOf(*values, best);
    // A win to find (a draw will do after many candidates, except where the table's 0 may be its
    // value of endless play, which a repetition rule splits otherwise), and moves that throw it away.
    if (value < (k < kCandidates / 2 || tableSeeds > 0 ? 1 : 0) || !givesAway(*values)) continue;
    Puzzle p;
    p.day = day;
    p.position = *pos;
    p.value = value;
    p.candidate = k;
    // The best line, and the real decisions on it: the player's turns (a turn is a sowing and the
    // sowings its extra turns add, as the notation writes `3+6`) in which some sowing had a move
    // that gives value away. A turn of several such sowings is one decision.
    Position at = *pos;
    bool ok = true;
    bool decided = false;  // this turn already counted
    std::vector<engine::MoveValue> here = *values;
    // A line that comes back to a position is refused: it would never end on the bare board, and
    // under a repetition rule (awale) the split would decide the game instead of the proven value.
    std::vector<Position> visited;
    while (!at.over) {
      if (std::find(visited.begin(), visited.end(), at) != visited.end()) {
        ok = false;
        break;
      }
      visited.push_back(at);
      if (at.toMove == pos->toMove && !decided && givesAway(here)) {
        ++p.decisions;
        decided = true;
      }
      const int m = bestOf(here);
      p.line.push_back(m);
      if (!board.apply(at, m).extraTurn) decided = false;  // the turn ends
      if (at.over) break;
      auto next = exactValues(search, at);
      if (!next) {
        ok = false;
        break;
      }
      here = std::move(*next);
    }
    // Judged by a table, a best line can wander (the table knows values, not distances): a puzzle
    // is a few moves, not a long ending.
    if (!ok || p.decisions < 2 || (tableSeeds > 0 && p.line.size() > kTableLinePlies)) continue;
    // Not the first grab a beginner would make, unless the line asks more of him after it.
    const int greedy = greedyMove(board, *pos);
    const bool greedyIsBest = valueOf(*values, greedy) == value;
    if (greedyIsBest && p.decisions < 3) continue;
    return p;
  }
  return fail("no endgame passed the checks");
}

Result<Attempt> checkAttempt(const Rules& rules, const Puzzle& puzzle, const std::vector<int>& moves,
                             const engine::Egdb* table) {
  if (auto fits = tableFits(rules, table); !fits) return tl::unexpected(fits.error());
  engine::Search search(rules, 16);
  if (dailyTableSeeds(rules) > 0) search.setEgdb(table);
  const Side player = puzzle.position.toMove;
  Game game(rules, puzzle.position);
  Attempt a;
  int lastMine = -1;  // the player's last move, and a best move there
  int bestAtMine = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (game.over()) return fail("move " + std::to_string(i + 1) + " comes after the end of the game");
    const Position pos = game.position();  // the values are those of the position before the move
    if (!game.play(moves[i])) return fail("move " + std::to_string(i + 1) + " is not legal");
    auto values = exactValues(search, pos);
    if (!values) return tl::unexpected(values.error());
    const int best = bestOf(*values);
    if (valueOf(*values, moves[i]) < valueOf(*values, best)) {
      if (pos.toMove != player) return fail("move " + std::to_string(i + 1) + " is not the perfect player's");
      a.failedAt = static_cast<int>(i);
      a.bestAtFailure = best;
      if (i + 1 != moves.size()) return fail("the attempt goes on after the move that gave the value away");
      return a;
    }
    if (pos.toMove == player) {
      lastMine = static_cast<int>(i);
      bestAtMine = best;
    }
  }
  if (!game.over()) return fail("the attempt stops before the end of the game");
  const Outcome o = game.setResults().back().outcome;
  const int result = player == Side::South ? o.south - o.north : o.north - o.south;
  // Every move kept the value, yet a repetition split the board below it: the line went round.
  if (result < puzzle.value) {
    a.failedAt = lastMine;
    a.bestAtFailure = bestAtMine;
    return a;
  }
  a.solved = true;
  a.result = result;
  return a;
}

}  // namespace semis::study
