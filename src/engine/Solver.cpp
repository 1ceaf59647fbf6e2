#include "engine/Solver.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <thread>

#include "engine/Egdb.hpp"

namespace semis::engine {
namespace {

// Depth-limited iterations before the exact search: they find the value's neighbourhood for MTD(f)
// and the table moves. Kalah(6,4) with the 20-seed tables, nodes of both capture rules together:
// 10: 77 M, 12: 59 M, 14: 60 M, 16: 61 M, 20: 85 M.
constexpr int kSolveWarmup = 12;
constexpr int kExactDepth = 1000;  // deeper than any game: the search ends only on finished games
constexpr int kOpen = 30000;       // an open side of a bound
constexpr int kCrumbPlies = 14;    // threads mark the nodes they search this near the root

}  // namespace

// One move of a node. Left uninitialised on purpose: search() fills the fields it reads.
struct Solver::Kid {
  FastPos pos;
  FastMove mv;
  std::uint64_t key;
  int house;
  int order;
  int lo;  // bounds on the move's value for the parent's mover
  int hi;
  bool loProven;
  bool hiProven;
};

// Which nodes near the root some thread is searching (threads > 1 only): a slot per key hash holds
// the key of a node being searched, set by the thread that enters it first.
struct Solver::Crumbs {
  static constexpr std::size_t kSlots = 4096;
  struct alignas(64) Slot {  // one per cache line: threads write them all the time
    std::atomic<std::uint64_t> key{0};
  };
  Slot slot[kSlots];
  [[nodiscard]] bool busy(std::uint64_t key) const {
    return slot[key % kSlots].key.load(std::memory_order_relaxed) == key;
  }
  class Mark {  // marks `key` for the scope if its slot is free
   public:
    Mark(Crumbs* c, std::uint64_t key, bool wanted) {
      if (c == nullptr || !wanted) return;
      std::uint64_t expected = 0;
      std::atomic<std::uint64_t>& at = c->slot[key % kSlots].key;
      if (at.compare_exchange_strong(expected, key, std::memory_order_relaxed)) at_ = &at;
    }
    ~Mark() {
      if (at_ != nullptr) at_->store(0, std::memory_order_relaxed);
    }
    Mark(const Mark&) = delete;
    Mark& operator=(const Mark&) = delete;

   private:
    std::atomic<std::uint64_t>* at_ = nullptr;
  };
};

Solver::Solver(const Rules& rules, std::size_t tableMegabytes)
    : board_(rules), fast_(rules), ownTable_(std::make_unique<SolverTable>(tableMegabytes)), table_(ownTable_.get()) {}

Solver::Solver(HelperOf of)
    : board_(of.main.board_),
      fast_(of.main.fast_),
      table_(of.main.table_),
      egdb_(of.main.egdb_),
      egdbSeeds_(of.main.egdbSeeds_),
      crumbs_(of.main.crumbs_) {}

Solver::~Solver() = default;

void Solver::setEgdb(const Egdb* egdb) {
  egdb_ = egdb != nullptr && egdb->rules() == board_.rules() ? egdb : nullptr;
  egdbSeeds_ = egdb_ != nullptr ? egdb_->maxSeeds() : -1;
  for (auto& h : helpers_) h->setEgdb(egdb_);
}

void Solver::setThreads(int threads) {
  threads = std::clamp(threads, 1, 64);
  if (threads > 1 && !ownCrumbs_) ownCrumbs_ = std::make_unique<Crumbs>();
  crumbs_ = threads > 1 ? ownCrumbs_.get() : nullptr;
  table_->setShared(threads > 1);
  helpers_.resize(static_cast<std::size_t>(threads - 1));
  for (std::size_t i = 0; i < helpers_.size(); ++i) {
    if (!helpers_[i]) helpers_[i].reset(new Solver(HelperOf{*this}));
  }
}

int Solver::evaluate(const FastPos& p) const {
  // Seeds on a row tend to end in its owner's store; a quarter is a modest guess (as in Search).
  return (FastBoard::byteSum(p.mine) - FastBoard::byteSum(p.theirs)) / 4;
}

std::uint64_t Solver::egdbIndex(const FastPos& p, int left) const {
  std::uint8_t h[FastBoard::kHousesOut];
  fast_.moverFirst(p, h);
  return egdb_->index(h, left);
}

int Solver::search(const FastPos& p, int left, int alpha, int beta, int depth, int ply, bool& proven) {
  if (run_.countNode()) return 0;
  // The futility bound: the mover wins at most every seed left and loses at most all of them.
  if (-left >= beta) {
    proven = true;
    return -left;
  }
  if (left <= alpha) {
    proven = true;
    return left;
  }
  if (left <= egdbSeeds_) {
    const int v = egdb_->at(egdbIndex(p, left));
    if (v != Egdb::kUnknown) {
      proven = true;
      return v;
    }
  }
  const std::uint64_t key = fast_.key(p);
  int ttMove = 0;
  if (const auto e = table_->probe(key)) {
    ttMove = e->move;
    const bool entryProven = e->depth == kSolverProven;
    if (entryProven || e->depth >= depth) {
      if (e->lower >= beta || e->lower == e->upper) {
        if (ply == 0 && e->move != 0) run_.rootBest = e->move;
        proven = entryProven;
        return e->lower;
      }
      if (e->upper <= alpha) {
        proven = entryProven;
        return e->upper;
      }
    }
  }
  if (depth <= 0) {
    proven = false;
    return std::clamp(evaluate(p), -left, left);
  }

  Kid kids[kMaxHouses];
  int n = 0;
  for (std::uint32_t m = fast_.legalMask(p); m != 0; m &= m - 1) {
    Kid& k = kids[n++];
    k.house = std::countr_zero(m) + 1;
    k.pos = p;
    fast_.play(k.pos, k.house, k.mv);
    k.loProven = k.hiProven = true;
    if (k.mv.over) continue;
    // Start every child's memory access now; the loop below reads them.
    if (k.mv.left <= egdbSeeds_) {
      k.key = egdbIndex(k.pos, k.mv.left);
      egdb_->prefetch(k.key);
    } else {
      k.key = fast_.key(k.pos);
      table_->prefetch(k.key);
    }
  }
  // Bounds of every move from what is already known (finished games, tables, the futility bound):
  // one that reaches beta ends the node without a search (enhanced transposition cutoff).
  int bestHi = -kOpen;
  bool bestHiProven = true;
  const int theirsBefore = FastBoard::byteSum(p.theirs);
  for (int i = 0; i < n; ++i) {
    Kid& k = kids[i];
    const int gain = k.mv.gain;
    if (k.mv.over) {
      k.lo = k.hi = gain;
    } else {
      int clo = -k.mv.left;
      int chi = k.mv.left;
      bool cloProven = true;
      bool chiProven = true;
      if (k.mv.left <= egdbSeeds_) {
        const int v = egdb_->at(k.key);
        if (v != Egdb::kUnknown) clo = chi = v;
      } else if (const auto e = table_->probe(k.key)) {
        const int childDepth = k.mv.extra && ply < run_.rootDepth ? depth : depth - 1;
        if (e->depth == kSolverProven) {
          clo = std::max<int>(clo, e->lower);
          chi = std::min<int>(chi, e->upper);
        } else if (e->depth >= childDepth) {
          if (e->lower > clo) clo = e->lower, cloProven = false;
          if (e->upper < chi) chi = e->upper, chiProven = false;
        }
      }
      if (k.mv.extra) {
        k.lo = gain + clo, k.hi = gain + chi, k.loProven = cloProven, k.hiProven = chiProven;
      } else {
        k.lo = gain - chi, k.hi = gain - clo, k.loProven = chiProven, k.hiProven = cloProven;
      }
    }
    if (k.lo >= beta) {
      proven = k.loProven;
      if (ply == 0) run_.rootBest = k.house;
      table_->store(key, k.lo, kOpen, k.house, depth, proven, 1);
      return k.lo;
    }
    if (k.hi > bestHi) bestHi = k.hi;
    bestHiProven = bestHiProven && k.hiProven;
    // Best first: the table's move, extra turns (the house nearest the store first keeps the
    // others' extra turns), then what the move banks (captures, seeds sown into the store), then
    // the fewest seeds handed to the opponent's row, then the house nearer the store. The third
    // key halved the nodes of Kalah(6,4) with the 20-seed table (86 M to 47 M).
    const int handed = std::clamp(k.mv.theirs - theirsBefore, 0, 31);
    k.order = (k.house == ttMove ? 1 << 24 : 0) + (k.mv.extra && !k.mv.over ? (1 << 20) + k.house : 0) + gain * 1024 +
              (31 - handed) * 16 + k.house;
  }
  if (bestHi <= alpha) {
    proven = bestHiProven;
    table_->store(key, -kOpen, bestHi, 0, depth, proven, 1);
    return bestHi;
  }
  // Insertion sort of indices (at most seven moves). With other threads the order grows by the
  // moves put off: a move after the first that another thread is searching goes last, by when its
  // value is likely in the table; each is put off once.
  int order[2 * kMaxHouses];
  for (int i = 0; i < n; ++i) {
    int j = i;
    while (j > 0 && kids[order[j - 1]].order < kids[i].order) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = i;
  }
  int total = n;
  bool putOff[kMaxHouses] = {};

  const Crumbs::Mark mark(crumbs_, key, ply < kCrumbPlies);
  const std::uint64_t before = run_.nodes;
  int best = -kOpen;
  int bestMove = 0;
  int a = alpha;
  bool allProven = true;
  bool cutProven = false;
  for (int i = 0; i < total; ++i) {
    const int at = order[i];
    const Kid& k = kids[at];
    if (k.hi <= a) {  // cannot raise the best: its known upper bound stands in for its value
      best = std::max(best, k.hi);
      allProven = allProven && k.hiProven;
      continue;
    }
    if (crumbs_ != nullptr && i > 0 && !putOff[at] && !(k.lo == k.hi && k.loProven && k.hiProven) &&
        crumbs_->busy(k.key)) {
      putOff[at] = true;
      order[total++] = at;
      continue;
    }
    const int gain = k.mv.gain;
    bool childProven = true;
    int v;
    if (k.lo == k.hi && k.loProven && k.hiProven) {
      v = k.lo;  // known exactly: a finished game or an endgame-table entry
    } else if (k.mv.extra) {
      // An extra turn is half a turn: no depth while the path is shorter than the iteration's.
      const int childDepth = ply < run_.rootDepth ? depth : depth - 1;
      v = gain + search(k.pos, k.mv.left, a - gain, beta - gain, childDepth, ply + 1, childProven);
    } else {
      v = gain - search(k.pos, k.mv.left, gain - beta, gain - a, depth - 1, ply + 1, childProven);
    }
    if (run_.aborted) return 0;
    allProven = allProven && childProven;
    if (v > best) {
      best = v;
      bestMove = k.house;
      if (v > a) {
        a = v;
        if (ply == 0) run_.rootBest = k.house;
      }
      if (v >= beta) {
        cutProven = childProven;
        break;
      }
    }
  }
  proven = best >= beta ? cutProven : allProven;
  table_->store(key, best > alpha ? best : -kOpen, best < beta ? best : kOpen, best > alpha ? bestMove : 0, depth,
                proven, run_.nodes - before);
  return best;
}

int Solver::mtdf(const FastPos& p, int left, int guess, int depth, bool& proven) {
  return engine::mtdf(guess, proven, run_.aborted,
                      [&](int beta, bool& pr) { return search(p, left, beta - 1, beta, depth, 0, pr); });
}

std::vector<int> Solver::principalVariation(const FastPos& root) const {
  std::vector<int> pv;
  FastPos p = root;
  while (pv.size() < 64) {
    const auto e = table_->probe(fast_.key(p));
    if (!e || e->move == 0 || ((fast_.legalMask(p) >> (e->move - 1)) & 1U) == 0) break;
    pv.push_back(e->move);
    if (fast_.play(p, e->move).over) break;
  }
  return pv;
}

SearchResult Solver::run(const Position& pos, const Limits& limits, const Progress& progress) {
  if (helpers_.empty()) return runOne(pos, limits, progress);
  Limits helperLimits = limits;
  helperLimits.nodes = 0;  // the main thread's count decides; helpers stop with it
  std::vector<std::thread> pool;
  pool.reserve(helpers_.size());
  for (auto& h : helpers_) {
    Solver* helper = h.get();
    pool.emplace_back([helper, &pos, helperLimits] { helper->runOne(pos, helperLimits, {}); });
  }
  SearchResult result = runOne(pos, limits, progress);
  for (auto& h : helpers_) h->stop();
  for (std::thread& t : pool) t.join();
  for (auto& h : helpers_) {
    result.nodes += h->run_.nodes;
    h->clearStop();
  }
  return result;
}

SearchResult Solver::runOne(const Position& pos, const Limits& limits, const Progress& progress) {
  run_.begin(limits);
  const std::uint32_t mask = board_.legalMask(pos);
  const Side me = pos.toMove;
  if (mask == 0) {  // in this family a game with no move is over
    SearchResult result;
    const Outcome o = board_.outcome(pos);
    result.value = me == Side::South ? o.south - o.north : o.north - o.south;
    result.exact = pos.over;
    result.seconds = run_.elapsed();
    run_.stop.store(false);
    return result;
  }
  const int stores = pos.pits[static_cast<std::size_t>(board_.storePit(me))] -
                     pos.pits[static_cast<std::size_t>(board_.storePit(other(me)))];
  const FastPos root = fast_.fromPosition(pos);
  const int left = fast_.seedsLeft(root);
  return deepen(
      run_, evaluate(root), kExactDepth, kSolveWarmup, progress,
      [&](int depth, int guess, bool& proven) { return mtdf(root, left, guess, depth, proven); },
      [&](SearchResult& result, int v) {
        result.value = stores + v;
        int best = run_.rootBest;
        if (best == 0 || !board_.isLegal(pos, best)) {
          const auto e = table_->probe(fast_.key(root));
          best = e && e->move != 0 && board_.isLegal(pos, e->move) ? e->move : std::countr_zero(mask) + 1;
        }
        result.bestMove = best;
        result.pv = principalVariation(root);
      });
}

}  // namespace semis::engine
