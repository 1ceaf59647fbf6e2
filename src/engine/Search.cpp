#include "engine/Search.hpp"

#include <algorithm>
#include <bit>

#include "engine/Egdb.hpp"
#include "engine/Solver.hpp"

namespace semis::engine {
namespace {

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Zobrist {
  std::uint64_t pit[kMaxPits][kMaxTotalSeeds + 1];  // every count a pit may hold
  std::uint64_t north;
  std::uint64_t castle[2][kMaxPits + 1];
  Zobrist() {
    // The keys of boards up to 8 houses and counts below 256 (the limits before 12 x 12) are drawn
    // first, in their old order, so those positions keep their keys and searches their node counts
    // (the bench signature); the big boards' keys come after.
    constexpr int kOldPits = 18;
    constexpr int kOldCounts = 256;
    static_assert(kMaxPits >= kOldPits && kMaxTotalSeeds + 1 >= kOldCounts);
    std::uint64_t s = 0x5E315E315E315E31ULL;
    for (int p = 0; p < kOldPits; ++p)
      for (int c = 0; c < kOldCounts; ++c) pit[p][c] = splitmix(s);
    north = splitmix(s);
    for (auto& row : castle)
      for (int i = 0; i <= kOldPits; ++i) row[i] = splitmix(s);
    for (int p = 0; p < kMaxPits; ++p)
      for (int c = 0; c <= kMaxTotalSeeds; ++c)
        if (p >= kOldPits || c >= kOldCounts) pit[p][c] = splitmix(s);
    for (auto& row : castle)
      for (int i = kOldPits + 1; i <= kMaxPits; ++i) row[i] = splitmix(s);
  }
};

// Immutable after construction (a function-local static is initialised once, thread-safely).
const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}

constexpr int kSolveWarmup = 8;

struct Child {
  Position pos;
  int move;
  int order;
  bool extra;
};

}  // namespace

Search::Search(const Rules& rules, std::size_t tableMegabytes, Kernel kernel)
    : board_(rules),
      solver_(kernel == Kernel::Auto && FastBoard::supports(rules) ? std::make_unique<Solver>(rules, tableMegabytes)
                                                                   : nullptr),
      rulesKey_(rulesKey(rules)),
      table_(solver_ ? 1 : tableMegabytes),
      relative_(Egdb::housesOnly(rules)) {
  (void)zobrist();
}

Search::~Search() = default;

void Search::setEgdb(const Egdb* egdb) {
  egdb_ = egdb != nullptr && egdb->serves(board_.rules()) ? egdb : nullptr;
  if (solver_) solver_->setEgdb(egdb_);
}

void Search::setThreads(int threads) {
  if (solver_) solver_->setThreads(threads);
}

void Search::setFibers(int fibers) {
  if (solver_) solver_->setFibers(fibers);
}

void Search::clear() {
  table_.clear();
  if (solver_) solver_->clear();
}

void Search::stop() {
  stops_.fetch_add(1);
  run_.stop.store(true, std::memory_order_relaxed);
  if (solver_) solver_->stop();
}

void Search::clearStop() {
  run_.stop.store(false);
  if (solver_) solver_->clearStop();
}

std::uint64_t Search::hash(const Position& pos) const {
  const Zobrist& z = zobrist();
  std::uint64_t h = rulesKey_ * 0xD6E8FEB86659FD93ULL;
  const int ring = board_.rules().ringSize();
  for (int p = 0; p < ring; ++p) {
    if (relative_ && board_.isStore(p)) continue;
    h ^= z.pit[p][pos.pits[static_cast<std::size_t>(p)]];
  }
  if (pos.toMove == Side::North) h ^= z.north;
  for (int s = 0; s < 2; ++s) {
    if (pos.castle[static_cast<std::size_t>(s)] != kNoCastle) h ^= z.castle[s][pos.castle[static_cast<std::size_t>(s)]];
  }
  // A round's burnt houses (rounds=traditional): the same seeds with other houses burnt play differently.
  if (pos.burnt != 0) {
    std::uint64_t state = pos.burnt;
    h ^= splitmix(state);
  }
  return h;
}

int Search::terminalValue(const Position& pos) const {
  const Outcome o = board_.outcome(pos);
  return pos.toMove == Side::South ? o.south - o.north : o.north - o.south;
}

int Search::evaluate(const Position& pos) const {
  const Side me = pos.toMove;
  const int d = pos.pits[static_cast<std::size_t>(board_.storePit(me))] -
                pos.pits[static_cast<std::size_t>(board_.storePit(other(me)))];
  const int mine = board_.rowSeeds(pos, me);
  const int theirs = board_.rowSeeds(pos, other(me));
  // Seeds on a row tend to end in its owner's store (Kalah's sweep); a quarter is a modest guess.
  return d + (mine - theirs) / 4;
}

int Search::search(const Position& pos, int alpha, int beta, int depth, int ply, bool& proven) {
  if (run_.countNode()) return 0;
  if (pos.over) {
    proven = true;
    return terminalValue(pos);
  }
  const Side me = pos.toMove;
  const int ring = board_.rules().ringSize();
  int left = 0;
  for (int p = 0; p < ring; ++p) {
    if (!board_.isStore(p)) left += pos.pits[static_cast<std::size_t>(p)];
  }
  const int d = pos.pits[static_cast<std::size_t>(board_.storePit(me))] -
                pos.pits[static_cast<std::size_t>(board_.storePit(other(me)))];
  // The futility bound: the mover can win at most every seed left and lose at most all of them.
  int lo = d - left;
  int hi = d + left;
  if (lo >= beta) {
    proven = true;
    return lo;
  }
  if (hi <= alpha) {
    proven = true;
    return hi;
  }
  // Not at the root: a hit there would prove the value without a move to play.
  if (egdb_ != nullptr && ply > 0 && left <= egdb_->maxSeeds()) {
    const int v = egdb_->probe(board_, pos);
    if (v != Egdb::kUnknown) {
      proven = true;
      return d + v;
    }
  }
  const std::uint64_t key = hash(pos);
  // Where only the houses matter, the table holds values of the seeds left (stores excluded from
  // the key), so positions that differ only in their stores share an entry.
  const int off = relative_ ? d : 0;
  int ttMove = 0;
  if (const TableEntry* e = table_.probe(key)) {
    ttMove = e->move;
    const bool entryProven = e->depth == kProvenDepth;
    const int eLower = e->lower <= -32000 ? -kInfinity : e->lower + off;
    const int eUpper = e->upper >= 32000 ? kInfinity : e->upper + off;
    if (entryProven || e->depth >= depth) {
      if (eLower >= beta || eLower == eUpper) {
        if (ply == 0 && e->move != 0) run_.rootBest = e->move;
        proven = entryProven;
        return eLower;
      }
      if (eUpper <= alpha) {
        proven = entryProven;
        return eUpper;
      }
    }
    if (entryProven) {  // proven bounds hold at any depth: they tighten the futility bound
      lo = std::max(lo, eLower);
      hi = std::min(hi, eUpper);
    }
  }
  if (depth <= 0) {
    proven = false;
    return std::clamp(evaluate(pos), lo, hi);
  }

  Child kids[kMaxHouses];
  int n = 0;
  for (std::uint32_t m = board_.legalMask(pos); m != 0; m &= m - 1) {
    Child& c = kids[n++];
    c.move = std::countr_zero(m) + 1;
    c.pos = pos;
    const MoveInfo info = board_.apply(c.pos, c.move);
    c.extra = info.extraTurn;
    c.order = (c.move == ttMove ? 1 << 20 : 0) + (c.pos.toMove == me && !c.pos.over ? 1 << 12 : 0) +
              info.captured * 16 + c.move;
  }
  // Insertion sort: at most eight moves.
  for (int i = 1; i < n; ++i) {
    Child c = kids[i];
    int j = i - 1;
    while (j >= 0 && kids[j].order < c.order) {
      kids[j + 1] = kids[j];
      --j;
    }
    kids[j + 1] = c;
  }

  int best = -kInfinity;
  int bestMove = 0;
  int a = alpha;
  bool allProven = true;
  bool cutProven = false;
  for (int i = 0; i < n; ++i) {
    const Child& c = kids[i];
    bool childProven = false;
    int v;
    // An extra turn is half a turn: it costs no depth while the path is shorter than the
    // iteration's depth (chains of extra turns can be long and branch at every step: Congkak).
    const int childDepth = c.extra && ply < run_.rootDepth ? depth : depth - 1;
    if (c.pos.toMove == me) {
      v = search(c.pos, a, beta, childDepth, ply + 1, childProven);  // the mover moves again: same sign
    } else {
      v = -search(c.pos, -beta, -a, childDepth, ply + 1, childProven);
    }
    if (run_.aborted) return 0;
    allProven = allProven && childProven;
    if (v > best) {
      best = v;
      bestMove = c.move;
      if (v > a) {
        a = v;
        if (ply == 0) run_.rootBest = c.move;
      }
      if (v >= beta) {
        cutProven = childProven;
        break;
      }
    }
  }
  proven = best >= beta ? cutProven : allProven;
  table_.store(key, alpha - off, beta - off, best - off, depth, proven, bestMove);
  return best;
}

int Search::mtdf(const Position& pos, int guess, int depth, bool& proven) {
  return engine::mtdf(guess, proven, run_.aborted,
                      [&](int beta, bool& p) { return search(pos, beta - 1, beta, depth, 0, p); });
}

std::vector<int> Search::principalVariation(const Position& root) const {
  std::vector<int> pv;
  Position pos = root;
  while (!pos.over && pv.size() < 64) {
    const TableEntry* e = table_.probe(hash(pos));
    if (e == nullptr || e->move == 0 || !board_.isLegal(pos, e->move)) break;
    pv.push_back(e->move);
    board_.apply(pos, e->move);
  }
  return pv;
}

SearchResult Search::valueFirst(const Position& pos, const Limits& limits, const Progress& progress) {
  if (limits.depth != 0 || (limits.seconds == 0 && limits.nodes == 0)) {
    Limits plain = limits;  // a depth limit, or none: no budget to share
    plain.aim = Aim::Move;
    return run(pos, plain, progress);
  }
  // The solve's share of the budget, in fifths (Perfect's measurement in docs/engine.md).
  constexpr int kSolveFifths = 3;
  Limits first = limits;
  first.aim = Aim::Value;
  first.seconds = limits.seconds * kSolveFifths / 5;
  first.nodes = limits.nodes == 0 ? 0 : std::max<std::uint64_t>(1, limits.nodes * kSolveFifths / 5);
  const std::uint32_t stopsBefore = stops_.load();
  const SearchResult solved = run(pos, first, progress);
  const bool cancelled = limits.cancel != nullptr && limits.cancel->load(std::memory_order_relaxed);
  if (solved.exact || cancelled || stops_.load() != stopsBefore) return solved;  // proven, or stopped
  Limits rest = limits;
  rest.aim = Aim::Move;
  rest.seconds = limits.seconds - first.seconds;
  rest.nodes = limits.nodes == 0 ? 0 : std::max<std::uint64_t>(1, limits.nodes - first.nodes);
  SearchResult searched = run(pos, rest, progress);  // on the table the solve left
  searched.nodes += solved.nodes;
  searched.seconds += solved.seconds;
  return searched;
}

SearchResult Search::run(const Position& pos, const Limits& limits, const Progress& progress) {
  if (limits.aim == Aim::ValueFirst) return valueFirst(pos, limits, progress);
  if (solver_) {
    SearchResult r = solver_->run(pos, limits, progress);
    run_.stop.store(false);
    return r;
  }
  run_.begin(limits);
  const std::uint32_t mask = board_.legalMask(pos);
  if (mask == 0) {
    SearchResult result;
    result.value = pos.over ? terminalValue(pos) : evaluate(pos);
    result.exact = pos.over;
    result.seconds = run_.elapsed();
    run_.stop.store(false);
    return result;
  }
  // Without limits this is the solver: a few iterations order the moves, then one search to the
  // end of the game, whose value is proven unless the bare board cycles.
  return deepen(
      run_, evaluate(pos), kMaxDepth, kSolveWarmup, progress,
      [&](int depth, int guess, bool& proven) { return mtdf(pos, guess, depth, proven); },
      [&](SearchResult& result, int v) {
        result.value = v;
        int best = run_.rootBest;
        if (best == 0 || !board_.isLegal(pos, best)) {
          const TableEntry* e = table_.probe(hash(pos));
          best = e != nullptr && e->move != 0 && board_.isLegal(pos, e->move) ? e->move : std::countr_zero(mask) + 1;
        }
        result.bestMove = best;
        result.pv = principalVariation(pos);
      });
}

MoveValue Search::moveValue(const Position& pos, int move, const Limits& limits, std::uint64_t* nodes) {
  MoveValue mv;
  mv.move = move;
  Position child = pos;
  board_.apply(child, move);
  const int sign = child.toMove == pos.toMove ? 1 : -1;
  std::uint64_t searched = 0;
  if (child.over) {
    mv.value = sign * terminalValue(child);
    mv.exact = true;
  } else {
    const SearchResult r = run(child, limits);
    mv.value = sign * r.value;
    mv.exact = r.exact;
    searched = r.nodes;
  }
  if (nodes != nullptr) *nodes = searched;
  return mv;
}

std::vector<MoveValue> Search::moveValues(const Position& pos, const Limits& limits, std::uint64_t* nodes) {
  std::vector<MoveValue> out;
  std::uint64_t total = 0;
  for (std::uint32_t m = board_.legalMask(pos); m != 0; m &= m - 1) {
    std::uint64_t searched = 0;
    out.push_back(moveValue(pos, std::countr_zero(m) + 1, limits, &searched));
    total += searched;
  }
  if (nodes != nullptr) *nodes = total;
  return out;
}

}  // namespace semis::engine
