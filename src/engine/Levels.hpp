#pragma once
// Playing levels. Easy plays like a beginner: a two-ply look, some noise, and now and then it does
// not see its captures and extra turns. Medium searches a fixed shallow depth. Hard searches at
// full strength within a time budget (about a second in play). Perfect plays the opening book's
// proven moves, solves the position when it can within a longer budget (the exact solve, on most
// of it) and otherwise plays as Hard.

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string_view>

#include "engine/Search.hpp"

namespace semis::engine {

enum class Level : std::uint8_t { Easy, Medium, Hard, Perfect };

[[nodiscard]] Result<Level> parseLevel(std::string_view text);
[[nodiscard]] std::string_view levelName(Level level);

struct LevelOptions {
  double hardSeconds = 1.0;  // Hard's budget per move; Perfect gets five times as much
  int mediumDepth = 3;
  double easyMissChance = 0.35;  // how often Easy overlooks its captures and extra turns
  int easyNoise = 2;             // Easy's values are off by up to this many seeds
  std::uint64_t seed = 1;
  std::size_t tableMegabytes = 16;
  bool useBook = true;  // Perfect plays the built-in opening book's moves (engine/Book.hpp)
};

// One AI player. Not thread-safe (one per thread); deterministic for a given seed and budget
// except where the time budget cuts a search.
class Player {
 public:
  Player(const Rules& rules, Level level, LevelOptions options = {});
  void setEgdb(const class Egdb* egdb) { search_->setEgdb(egdb); }
  // Every later search ends soon after `cancel` turns true (Limits::cancel); choose() then
  // returns the best move found so far. nullptr: none.
  void setCancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  // A legal move for pos (not over).
  int choose(const Position& pos);
  [[nodiscard]] Level level() const { return level_; }

 private:
  Level level_;
  LevelOptions options_;
  std::unique_ptr<Search> search_;
  std::mt19937_64 rng_;
  const std::atomic<bool>* cancel_ = nullptr;
  const class Book* book_ = nullptr;
};

}  // namespace semis::engine
