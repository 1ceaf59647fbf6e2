#include "engine/Levels.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "engine/Book.hpp"

namespace semis::engine {

Result<Level> parseLevel(std::string_view text) {
  if (text == "easy") return Level::Easy;
  if (text == "medium") return Level::Medium;
  if (text == "hard") return Level::Hard;
  if (text == "perfect") return Level::Perfect;
  return fail("unknown level '" + std::string(text) + "' (easy, medium, hard, perfect)");
}

std::string_view levelName(Level level) {
  switch (level) {
    case Level::Easy:
      return "easy";
    case Level::Medium:
      return "medium";
    case Level::Hard:
      return "hard";
    case Level::Perfect:
      return "perfect";
  }
  return "?";
}

Player::Player(const Rules& rules, Level level, LevelOptions options)
    : level_(level),
      options_(options),
      search_(std::make_unique<Search>(rules, options.tableMegabytes)),
      rng_(options.seed),
      book_(level == Level::Perfect && options.useBook ? builtInBook(rules) : nullptr) {}

int Player::choose(const Position& pos) {
  const Board& board = search_->board();
  const std::uint32_t mask = board.legalMask(pos);
  if (mask == 0) return 0;
  if (std::popcount(mask) == 1) return std::countr_zero(mask) + 1;
  switch (level_) {
    case Level::Easy: {
      Limits limits;
      limits.cancel = cancel_;
      limits.depth = 1;
      std::vector<MoveValue> values = search_->moveValues(pos, limits);
      // A beginner sometimes does not see the moves that capture or play again.
      std::uniform_real_distribution<double> chance(0.0, 1.0);
      const bool blind = chance(rng_) < options_.easyMissChance;
      std::vector<MoveValue> seen;
      for (const MoveValue& mv : values) {
        Position child = pos;
        const MoveInfo info = board.apply(child, mv.move);
        if (blind && (info.extraTurn || info.captured > 0)) continue;
        seen.push_back(mv);
      }
      if (seen.empty()) seen = values;
      std::uniform_int_distribution<int> noise(-options_.easyNoise, options_.easyNoise);
      int best = seen.front().move;
      int bestValue = -kInfinity;
      for (const MoveValue& mv : seen) {
        const int v = mv.value + noise(rng_);
        if (v > bestValue) {
          bestValue = v;
          best = mv.move;
        }
      }
      return best;
    }
    case Level::Medium: {
      Limits limits;
      limits.cancel = cancel_;
      limits.depth = options_.mediumDepth;
      limits.seconds = options_.hardSeconds;
      return search_->run(pos, limits).bestMove;
    }
    case Level::Hard: {
      Limits limits;
      limits.cancel = cancel_;
      limits.seconds = options_.hardSeconds;
      return search_->run(pos, limits).bestMove;
    }
    case Level::Perfect: {
      // The opening book's proven move, at once (Book.hpp).
      if (book_ != nullptr) {
        if (const auto m = book_->find(board, pos); m && board.isLegal(pos, m->move)) return m->move;
      }
      // The exact solve proves a value far sooner than a ply-by-ply search; when the budget ends it
      // first, the rest of the budget chooses as Hard does.
      Limits limits;
      limits.cancel = cancel_;
      limits.seconds = options_.hardSeconds * 5;
      limits.aim = Aim::ValueFirst;
      return search_->run(pos, limits).bestMove;
    }
  }
  return std::countr_zero(mask) + 1;
}

}  // namespace semis::engine
