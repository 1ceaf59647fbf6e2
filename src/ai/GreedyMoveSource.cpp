// An instant, deterministic AI for tests and load runs: no search, one look at each move.

#include <bit>

#include "ai/MoveSource.hpp"
#include "engine/Hint.hpp"
#include "rules/Board.hpp"

namespace semis::server {

namespace {

MoveInfo look(const Board& board, const Position& pos, int house) {
  Position child = pos;
  return board.apply(child, house);
}

// The move that captures most, an extra turn breaking ties, the lowest house breaking the rest.
int greedyMove(const Board& board, const Position& pos) {
  int best = 0;
  int bestGain = -1;
  for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
    const int house = std::countr_zero(m) + 1;
    const MoveInfo info = look(board, pos, house);
    const int g = 2 * info.captured + (info.extraTurn ? 1 : 0);
    if (g > bestGain) {
      bestGain = g;
      best = house;
    }
  }
  return best;
}

class GreedyMoveSource final : public MoveSource {
 public:
  int choose(const MoveRequest& request, const std::atomic<bool>& cancelled) override {
    if (cancelled.load()) return 0;
    return greedyMove(Board(request.rules), request.position);
  }

  // Each move valued by its capture alone, never proven.
  std::optional<engine::Hint> hint(const HintRequest& request, const std::atomic<bool>& cancelled) override {
    if (cancelled.load()) return std::nullopt;
    const Board board(request.rules);
    if (request.position.over || board.legalMask(request.position) == 0) return std::nullopt;
    engine::Hint h;
    h.move = greedyMove(board, request.position);
    for (std::uint32_t m = board.legalMask(request.position); m != 0; m &= m - 1) {
      const int house = std::countr_zero(m) + 1;
      const int value = look(board, request.position, house).captured;
      h.moves.push_back({house, value, false});
      if (house == h.move) h.value = value;
    }
    h.verdict = engine::verdictOf(h.value, false);
    h.reasons = engine::moveReasons(board, request.position, h.move);
    return h;
  }
};

}  // namespace

std::unique_ptr<MoveSource> makeGreedyMoveSource() { return std::make_unique<GreedyMoveSource>(); }

}  // namespace semis::server
