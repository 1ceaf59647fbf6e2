#include "study/Review.hpp"

#include <algorithm>
#include <bit>

namespace semis::study {

Mark markOf(int bestValue, int played, bool forced) {
  if (forced) return Mark::Forced;
  const int loss = std::max(0, bestValue - played);
  if (loss == 0) return Mark::Best;
  if (bestValue > 0 && played < 0) return Mark::Blunder;
  if (loss >= 8) return Mark::Blunder;
  if (bestValue == 0 && played < 0) return Mark::Mistake;
  if (loss >= 4) return Mark::Mistake;
  return loss == 1 ? Mark::Good : Mark::Inaccuracy;
}

Result<Review> review(engine::Search& search, const Game& game, const ReviewLimits& limits) {
  const Board& board = search.board();
  if (!(board.rules() == game.rules())) return fail("the search is for other rules than the game");
  const auto& plies = game.plies();
  // The position before each ply: the one after the ply before it, or the start of a new set.
  std::vector<Position> before(plies.size());
  for (std::size_t i = 0; i < plies.size(); ++i) {
    if (i == 0) before[i] = game.initial();
    else if (plies[i].set != plies[i - 1].set || plies[i - 1].setEnded) before[i] = board.start(plies[i].mover);
    else before[i] = plies[i - 1].after;
    if (before[i].toMove != plies[i].mover || !board.isLegal(before[i], plies[i].move)) {
      return fail("move " + std::to_string(i + 1) + " does not follow from the one before it");
    }
  }
  Review out;
  out.plies.resize(plies.size());
  for (std::size_t k = plies.size(); k-- > 0;) {
    const Ply& ply = plies[k];
    PlyReview& r = out.plies[k];
    r.set = ply.set;
    r.mover = ply.mover;
    r.move = ply.move;
    const int legal = std::popcount(board.legalMask(before[k]));
    if (legal <= 1) {
      r.best = ply.move;
      r.mark = Mark::Forced;
      // Its value is the one after it (the same mover again after an extra turn, else negated);
      // filled in below once the later plies are known.
      continue;
    }
    engine::Limits each;
    each.seconds = limits.secondsPerPosition / legal;
    each.nodes = limits.nodesPerPosition / static_cast<std::uint64_t>(legal);
    each.cancel = limits.cancel;
    each.aim = engine::Aim::ValueFirst;
    std::uint64_t nodes = 0;
    r.moves = search.moveValues(before[k], each, &nodes);
    out.nodes += nodes;
    if (limits.cancel != nullptr && limits.cancel->load()) return fail("the review was cancelled");
    const engine::MoveValue* best = nullptr;
    for (const engine::MoveValue& mv : r.moves) {
      if (best == nullptr || mv.value > best->value || (mv.value == best->value && mv.exact && !best->exact)) best = &mv;
      if (mv.move == ply.move) {
        r.played = mv.value;
        r.playedExact = mv.exact;
      }
    }
    r.best = best->move;
    r.bestValue = best->value;
    r.bestExact = best->exact;
    r.loss = std::max(0, r.bestValue - r.played);
    r.mark = markOf(r.bestValue, r.played, false);
  }
  // A forced move's value is that of the position after it.
  for (std::size_t k = plies.size(); k-- > 0;) {
    PlyReview& r = out.plies[k];
    if (r.mark != Mark::Forced) continue;
    const Position& after = plies[k].after;
    int v = 0;
    bool exact = false;
    if (after.over) {
      v = search.terminalValue(after);
      exact = true;
      if (after.toMove != r.mover) v = -v;
    } else if (k + 1 < plies.size() && plies[k + 1].set == r.set) {
      const PlyReview& next = out.plies[k + 1];
      v = next.mover == r.mover ? next.bestValue : -next.bestValue;
      exact = next.bestExact;
    }
    r.bestValue = r.played = v;
    r.bestExact = r.playedExact = exact;
  }
  markTurning(out, board, game);
  return out;
}

void markTurning(Review& review, const Board& board, const Game& game) {
  review.turning = -1;
  const auto& plies = game.plies();
  if (plies.empty() || !plies.back().after.over) return;
  // The last set's result names the loser (a match: the set the game ended on).
  const Outcome o = board.outcome(plies.back().after);
  if (o.winner == Winner::Draw) return;
  const Side loser = o.winner == Winner::South ? Side::North : Side::South;
  const int set = plies.back().set;
  for (std::size_t k = plies.size(); k-- > 0 && plies[k].set == set;) {
    const PlyReview& r = review.plies[k];
    if (r.mover == loser && r.mark != Mark::Forced && r.bestValue >= 0 && r.played < 0) {
      review.turning = static_cast<int>(k);
      return;
    }
  }
}

}  // namespace semis::study
