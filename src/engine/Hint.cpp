#include "engine/Hint.hpp"

#include <array>
#include <bit>

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

std::string verdictText(int value, bool exact) {
  if (!exact) return "about " + std::string(value > 0 ? "+" : "") + std::to_string(value) + " (not proven)";
  if (value > 0) return "wins by " + std::to_string(value) + " with best play";
  if (value < 0) return "loses by " + std::to_string(-value) + " with best play (the best defence)";
  return "draws with best play";
}

std::vector<std::string> moveReasons(const Board& board, const Position& pos, int move) {
  std::vector<std::string> out;
  const Side me = pos.toMove;
  const Side opp = other(me);
  if (board.mustFeed(pos)) out.emplace_back("feeds the opponent, as the rules require");
  Position child = pos;
  const MoveInfo info = board.apply(child, move);
  if (info.extraTurn) out.emplace_back("ends in your store: you play again");
  if (info.captured > 0)
    out.push_back("captures " + std::to_string(info.captured) + " seed" + (info.captured == 1 ? "" : "s"));
  if (info.castleMade) out.emplace_back("builds your castle");
  // Protection: a house of mine the opponent could capture now and no longer can after the move.
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
    out.push_back("protects your house " + std::to_string(board.houseNumber(bestPit)) + " of " +
                  std::to_string(before[static_cast<std::size_t>(bestPit)]) +
                  " seeds that the opponent could capture next");
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
    if (otherGives) out.emplace_back("avoids giving the opponent an extra turn");
  }
  if (child.over) out.emplace_back("ends the game");
  return out;
}

Result<Hint> hint(Search& search, const Position& pos, const Limits& limits) {
  const Board& board = search.board();
  if (pos.over || board.legalMask(pos) == 0) return fail("the game is over: no move to recommend");
  Hint h;
  // Each move valued as Perfect plays: exact where its share of the budget can prove it.
  Limits valued = limits;
  if (valued.aim == Aim::Move) valued.aim = Aim::ValueFirst;
  h.moves = search.moveValues(pos, valued, &h.nodes);
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
  h.verdict = verdictText(h.value, h.exact);
  h.reasons = moveReasons(board, pos, h.move);
  if (h.reasons.empty()) h.reasons.emplace_back("the search rates it best");
  return h;
}

}  // namespace semis::engine
