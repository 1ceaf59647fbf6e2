#include "engine/Hint.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>

#include "engine/Book.hpp"

namespace semis::engine {
namespace {

// For each pit of the victim's row: the most seeds the attacker would take from it with one of his
// moves if he were to move now, read off the trace of each real sowing (its Capture events). Only
// a capture counts: a house emptied otherwise (Congkak's relay lifts the seeds of the house it
// ends in and sows them on; a sweep at the end) is not taken.
std::array<int, kMaxPits> threats(const Board& board, const Position& pos, Side attacker) {
  std::array<int, kMaxPits> at{};
  if (pos.over) return at;
  Position base = pos;
  base.toMove = attacker;
  const Side victim = other(attacker);
  Trace trace;
  for (std::uint32_t m = board.legalMask(base); m != 0; m &= m - 1) {
    Position child = base;
    trace.clear();
    board.apply(child, std::countr_zero(m) + 1, TraceRecorder{&trace});
    for (const Event& e : trace) {
      if (e.kind != EventKind::Capture || board.isStore(e.pit) || board.ownerOf(e.pit) != victim) continue;
      int& seeds = at[static_cast<std::size_t>(e.pit)];
      seeds = std::max(seeds, static_cast<int>(e.count));
    }
  }
  return at;
}

// The houses a chain capture took, read off the move's trace: 2 or more is a chain. A chain starts
// at the house the last seed fell in and goes back along the sowing, on either row (Al-manqala) or
// the opponent's only (Oware); a capture that takes the opposite house first (Kalah's, with
// chain_capture on) is none, and nor is a sweep at the end (Sweep events).
int chainHouses(const Board& board, const Trace& trace) {
  int last = -1;
  int houses = 0;
  for (const Event& e : trace) {
    if (e.kind == EventKind::Drop) last = e.pit;
    if (e.kind != EventKind::Capture || board.isStore(e.pit)) continue;
    if (houses == 0 && e.pit != last) return 0;
    ++houses;
  }
  return houses;
}

// A move whose chain capture would empty the opponent's row and, by grand_slam=nothing, takes none.
bool slamTakesNothing(const Board& board, const MoveInfo& info) {
  return info.grandSlam && board.rules().grandSlam == GrandSlam::Nothing;
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
  // One sowing, traced: what it captures and from which houses are read off the same trace.
  Position child = pos;
  Trace trace;
  const MoveInfo info = board.apply(child, move, TraceRecorder{&trace});
  if (info.extraTurn) out.push_back({Reason::ExtraTurn});
  if (info.captured > 0) {
    const int houses = board.rules().chainCapture ? chainHouses(board, trace) : 0;
    if (houses >= 2) out.push_back({Reason::ChainCaptures, info.captured, 0, houses});
    else out.push_back({Reason::Captures, info.captured});
  }
  if (slamTakesNothing(board, info)) out.push_back({Reason::GrandSlamTakesNothing, board.rowSeeds(child, opp)});
  // A house of mine the opponent could capture now and no longer can after the move: sown out of
  // reach by the move itself (Protects: n is the house's seeds, which the move sows), or saved by
  // changing his sowing (StopsCapture: n is what his capture would take, with any seed his sowing
  // drops there first, as Mangala's even capture does).
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
    const bool sown = house == move;
    out.push_back({sown ? Reason::Protects : Reason::StopsCapture,
                   sown ? pos.pits[static_cast<std::size_t>(bestPit)] : before[static_cast<std::size_t>(bestPit)],
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
  // Another move looks like the biggest capture of all, every seed of the opponent, but is a grand
  // slam that takes nothing: this one is not (the first such move, the lowest house, is named).
  if (!slamTakesNothing(board, info)) {
    for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
      const int h = std::countr_zero(m) + 1;
      Position c2 = pos;
      if (h != move && slamTakesNothing(board, board.apply(c2, h))) {
        out.push_back({Reason::GrandSlamAvoided, board.rowSeeds(c2, opp), h});
        break;
      }
    }
  }
  return out;
}

namespace {

bool hasBudget(const Limits& limits) { return limits.depth == 0 && (limits.seconds > 0 || limits.nodes > 0); }

bool cancelled(const Limits& limits) {
  return limits.cancel != nullptr && limits.cancel->load(std::memory_order_relaxed);
}

bool allProven(const std::vector<MoveValue>& moves) {
  return std::all_of(moves.begin(), moves.end(), [](const MoveValue& mv) { return mv.exact; });
}

// The budget the first pass left (each move had `limits`; a move proven early used less) goes to the
// moves still unproven, highest value first, each taking an equal share of what is left then. The
// table keeps what the first pass learnt, so a second search goes on from there.
using Clock = std::chrono::steady_clock;

void spendTheRest(Search& search, const Position& pos, const Limits& limits, Clock::time_point started,
                  std::vector<MoveValue>& moves, std::uint64_t& nodesSearched) {
  const auto n = static_cast<double>(moves.size());
  const double seconds = limits.seconds * n;
  const auto nodes = limits.nodes * moves.size();
  std::vector<MoveValue*> open;
  for (MoveValue& mv : moves) {
    if (!mv.exact) open.push_back(&mv);
  }
  std::stable_sort(open.begin(), open.end(),
                   [](const MoveValue* a, const MoveValue* b) { return a->value > b->value; });
  for (std::size_t i = 0; i < open.size() && !cancelled(limits); ++i) {
    Limits share = limits;
    const auto left = static_cast<double>(open.size() - i);
    if (limits.seconds > 0) {
      share.seconds = (seconds - std::chrono::duration<double>(Clock::now() - started).count()) / left;
      if (share.seconds < 1e-4) return;
    }
    if (limits.nodes > 0) {
      if (nodesSearched >= nodes) return;
      share.nodes =
          std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(nodes - nodesSearched) / left));
    }
    std::uint64_t searched = 0;
    *open[i] = search.moveValue(pos, open[i]->move, share, &searched);
    nodesSearched += searched;
  }
}

// Every legal move valued as Perfect plays (exact where its share of the budget, or the search's
// endgame table, proves it), the opening book's proven move on top (`bookMove`, 0 when none), and
// what the budget left spent on the moves still unproven.
std::vector<MoveValue> valueAll(Search& search, const Position& pos, const Limits& limits, std::uint64_t& nodes,
                                int& bookMove) {
  const Board& board = search.board();
  const auto started = Clock::now();
  Limits valued = limits;
  if (valued.aim == Aim::Move) valued.aim = Aim::ValueFirst;
  std::vector<MoveValue> moves;
  for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
    std::uint64_t searched = 0;
    moves.push_back(search.moveValue(pos, std::countr_zero(m) + 1, valued, &searched));
    nodes += searched;
  }
  // The opening book's move is proven best: its value is the position's, exact even where the
  // budget proves nothing.
  bookMove = 0;
  if (const Book* book = builtInBook(board.rules()); book != nullptr) {
    if (const auto known = book->find(board, pos)) {
      for (MoveValue& mv : moves) {
        if (mv.move == known->move) mv = {known->move, known->value, true};
      }
      bookMove = known->move;
    }
  }
  if (bookMove == 0 && !allProven(moves) && hasBudget(valued) && !cancelled(valued)) {
    spendTheRest(search, pos, valued, started, moves, nodes);
  }
  return moves;
}

}  // namespace

std::vector<MoveValue> valuedMoves(Search& search, const Position& pos, const Limits& limits, std::uint64_t* nodes) {
  std::uint64_t searched = 0;
  int bookMove = 0;
  std::vector<MoveValue> moves = valueAll(search, pos, limits, searched, bookMove);
  if (nodes != nullptr) *nodes += searched;
  return moves;
}

Result<Hint> hint(Search& search, const Position& pos, const Limits& limits) {
  const Board& board = search.board();
  if (pos.over || board.legalMask(pos) == 0) return fail("the game is over: no move to recommend");
  Hint h;
  int bookMove = 0;
  h.moves = valueAll(search, pos, limits, h.nodes, bookMove);
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
  // The position's value is proven only when the move is the book's (proven best) or every move's
  // value is proven (then none is better than the one chosen). A proven move beside an unproven
  // one that may be better is an estimate of the position, whatever that move's own value.
  h.exact = best->move == bookMove || (best->exact && allProven(h.moves));
  h.verdict = verdictOf(h.value, h.exact);
  h.reasons = moveReasons(board, pos, h.move);
  return h;
}

}  // namespace semis::engine
