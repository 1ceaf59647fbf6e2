#include "engine/Hint.hpp"

#include <array>
#include <bit>

#include "engine/Book.hpp"

namespace semis::engine {
namespace {

// For each pit of the victim's row: the seeds the attacker would take from it with his best
// capturing move if he were to move now.
std::array<int, kMaxPits> threats(const Board& board, const Position& pos, Side attacker) {
  std::array<int, kMaxPits> at{};
  if (pos.over) return at;
  Position base = pos;
  base.toMove = attacker;
  const Side victim = other(attacker);
  for (std::uint32_t m = board.legalMask(base); m != 0; m &= m - 1) {
    Position child = base;
    const MoveInfo info = board.apply(child, std::countr_zero(m) + 1);
    if (info.captured == 0) continue;
    for (int h = 1; h <= board.houses(); ++h) {
      const int pit = board.housePit(victim, h);
      const int before = base.pits[static_cast<std::size_t>(pit)];
      // A house emptied by a capture (not by the victim's own sowing): it was taken.
      if (before > 0 && child.pits[static_cast<std::size_t>(pit)] == 0 && !child.over)
        at[static_cast<std::size_t>(pit)] = before;
    }
  }
  return at;
}

bool givesExtraTurn(const Board& board, const Position& child, Side opponent) {
  if (child.over || child.toMove != opponent) return false;
  for (std::uint32_t m = board.legalMask(child); m != 0; m &= m - 1) {
    Position next = child;
    if (board.apply(next, std::countr_zero(m) + 1).extraTurn) return true;
  }
  return false;
}

}  // namespace

Verdict verdictOf(int value, bool exact) {
  if (!exact) return {VerdictCode::Estimate, value};
  if (value > 0) return {VerdictCode::WinsBy, value};
  if (value < 0) return {VerdictCode::LosesByAtMost, -value};
  return {VerdictCode::Draws, 0};
}

std::vector<MoveReason> moveReasons(const Board& board, const Position& pos, int move) {
  std::vector<MoveReason> out;
  const Side me = pos.toMove;
  const Side opp = other(me);
  if (board.mustFeed(pos)) out.push_back({Reason::Feeds});
  Position child = pos;
  const MoveInfo info = board.apply(child, move);
  if (info.extraTurn) out.push_back({Reason::ExtraTurn});
  if (info.captured > 0) out.push_back({Reason::Captures, info.captured});
  // A house of mine the opponent could capture now and no longer can after the move: sown out of
  // reach by the move itself (Protects), or saved by changing his sowing (StopsCapture).
  const auto before = threats(board, pos, opp);
  const auto after = threats(board, child, opp);
  int bestPit = -1;
  for (int h = 1; h <= board.houses(); ++h) {
    const int pit = board.housePit(me, h);
    const int n = before[static_cast<std::size_t>(pit)];
    if (n >= 2 && after[static_cast<std::size_t>(pit)] == 0 &&
        (bestPit < 0 || n > before[static_cast<std::size_t>(bestPit)]))
      bestPit = pit;
  }
  if (bestPit >= 0) {
    const int house = board.houseNumber(bestPit);
    out.push_back({house == move ? Reason::Protects : Reason::StopsCapture, before[static_cast<std::size_t>(bestPit)],
                   house});
  }
  // Extra turns for the opponent: this move gives none where another move would.
  if (!info.extraTurn && !givesExtraTurn(board, child, opp)) {
    bool otherGives = false;
    for (std::uint32_t m = board.legalMask(pos); m != 0 && !otherGives; m &= m - 1) {
      const int h = std::countr_zero(m) + 1;
      if (h == move) continue;
      Position c2 = pos;
      const MoveInfo i2 = board.apply(c2, h);
      otherGives = !i2.extraTurn && givesExtraTurn(board, c2, opp);
    }
    if (otherGives) out.push_back({Reason::NoExtraTurnForOpponent});
  }
  return out;
}

std::vector<MoveValue> valuedMoves(Search& search, const Position& pos, const Limits& limits, std::uint64_t* nodes) {
  const Board& board = search.board();
  // Each move valued as Perfect plays: exact where its share of the budget (and the search's
  // endgame table, if it has one) can prove it.
  Limits valued = limits;
  if (valued.aim == Aim::Move) valued.aim = Aim::ValueFirst;
  std::vector<MoveValue> moves = search.moveValues(pos, valued, nodes);
  // The opening book's move is proven: its value is exact even where the budget proves nothing.
  if (const Book* book = builtInBook(board.rules()); book != nullptr) {
    if (const auto known = book->find(board, pos)) {
      for (MoveValue& mv : moves) {
        if (mv.move == known->move) mv = {known->move, known->value, true};
      }
    }
  }
  return moves;
}

Result<Hint> hint(Search& search, const Position& pos, const Limits& limits) {
  const Board& board = search.board();
  if (pos.over || board.legalMask(pos) == 0) return fail("the game is over: no move to recommend");
  Hint h;
  h.moves = valuedMoves(search, pos, limits, &h.nodes);
  // A proven win or draw beats any unproven hope: choose among proven moves when one is >= 0.
  int bestProven = -kInfinity;
  for (const MoveValue& mv : h.moves) {
    if (mv.exact) bestProven = std::max(bestProven, mv.value);
  }
  const bool restrict = bestProven >= 0;
  const MoveValue* best = nullptr;
  for (const MoveValue& mv : h.moves) {
    if (restrict && !mv.exact) continue;
    if (best == nullptr || mv.value > best->value || (mv.value == best->value && mv.exact && !best->exact)) best = &mv;
  }
  h.move = best->move;
  h.value = best->value;
  h.exact = best->exact;
  h.verdict = verdictOf(h.value, h.exact);
  h.reasons = moveReasons(board, pos, h.move);
  return h;
}

}  // namespace semis::engine
