#include "engine/Solver.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <thread>

#include "engine/Egdb.hpp"
#include "engine/SolverFrames.hpp"

namespace semis::engine {

using solver::kExactDepth;

namespace {

// Depth-limited iterations before the exact search: they find the value's neighbourhood for MTD(f)
// and leave moves that break ties in the exact passes' order (SolverSearch.cpp, enter()).
// Kalah(6,4) with the 20-seed tables, nodes of both capture rules together: 8: 34.9 M, 10: 34.3 M,
// 12: 30.9 M, 14: 32.6 M, 16: 35.7 M (docs/engine.md, "The Kalah-family solver").
constexpr int kSolveWarmup = 12;

}  // namespace

Solver::Solver(const Rules& rules, std::size_t tableMegabytes)
    : board_(rules),
      fast_(rules),
      key_(rules.houses),
      ownTable_(std::make_unique<SolverTable>(tableMegabytes)),
      table_(ownTable_.get()) {
  setFibers(kDefaultFibers);
}

Solver::Solver(HelperOf of)
    : board_(of.main.board_),
      fast_(of.main.fast_),
      key_(of.main.key_),
      table_(of.main.table_),
      exactKeys_(of.main.exactKeys_),
      egdb_(of.main.egdb_),
      egdbSeeds_(of.main.egdbSeeds_),
      crumbs_(of.main.crumbs_),
      pass_(of.main.pass_),
      helper_(true),
      fibers_(of.main.fibers_.size()) {}

Solver::~Solver() { stopHelpers(); }  // only if a run was left by an exception

void Solver::setEgdb(const Egdb* egdb) {
  egdb_ = egdb != nullptr && egdb->serves(board_.rules()) ? egdb : nullptr;
  egdbSeeds_ = egdb_ != nullptr ? egdb_->maxSeeds() : -1;
  for (auto& h : helpers_) h->setEgdb(egdb_);
}

void Solver::chooseLayout() {
  // Exact keys where they pay (docs/engine.md, "The table's layouts"): without an endgame table,
  // or with a small one, the table's capacity sets the nodes (Kalah(6,4): 81 M to 60 M with
  // `capture=empty` and no table; standard with the 18-seed table 88.6 M to 72.8 M, 0.90 of the
  // cpu); with the 20-seed table it hardly does (41.7 M to 40.4 M), and the 8-slot buckets' longer
  // scans cost more than that. Chosen when a run starts, not when the endgame table is given: a new
  // solver given one at once (every AI request) would otherwise allocate a table of each layout.
  table_->setKeys(egdbSeeds_ < kHashedFromEgdbSeeds ? key_.bits() : 0);
  exactKeys_ = table_->exact();
  for (auto& h : helpers_) h->exactKeys_ = exactKeys_;
}

void Solver::setThreads(int threads) {
  threads = std::clamp(threads, 1, 64);
  if (threads > 1 && !ownPass_) ownPass_ = std::make_unique<Pass>();
  pass_ = threads > 1 ? ownPass_.get() : nullptr;
  helpers_.resize(static_cast<std::size_t>(threads - 1));
  for (std::size_t i = 0; i < helpers_.size(); ++i) {
    if (!helpers_[i]) helpers_[i].reset(new Solver(HelperOf{*this}));
  }
  configure();
}

void Solver::setFibers(int fibers) {
  fibers_.resize(static_cast<std::size_t>(std::clamp(fibers, 1, 16)));
  configure();
}

void Solver::configure() {
  // Searchers that share a table mark their nodes near the root, so they spread over the moves.
  const bool marks = !helpers_.empty() || fibers_.size() > 1;
  if (marks && !ownCrumbs_) ownCrumbs_ = std::make_unique<Crumbs>();
  crumbs_ = marks ? ownCrumbs_.get() : nullptr;
  for (auto& h : helpers_) {
    h->crumbs_ = crumbs_;
    h->pass_ = pass_;
    h->fibers_.resize(fibers_.size());
  }
}

int Solver::evaluate(const FastPos& p) const {
  // Seeds on a row tend to end in its owner's store; a quarter is a modest guess (as in Search).
  return (FastBoard::byteSum(p.mine) - FastBoard::byteSum(p.theirs)) / 4;
}

std::vector<int> Solver::principalVariation(const FastPos& root) const {
  std::vector<int> pv;
  FastPos p = root;
  while (pv.size() < 64) {
    const auto e = table_->probe(tableKey(p));
    if (!e || e->move == 0 || ((fast_.legalMask(p) >> (e->move - 1)) & 1U) == 0) break;
    pv.push_back(e->move);
    if (fast_.play(p, e->move).over) break;
  }
  return pv;
}

SearchResult Solver::run(const Position& pos, const Limits& limits, const Progress& progress) {
  chooseLayout();
  // Sharing takes the table to its whole size at once, and the kernel's clearing of those pages
  // took 0.04-0.29 s of a two-thread solve of 1.0-1.4 s when it fell there (Kalah(6,4) with the
  // 20-seed table): an idle core backs them during the warm-up instead.
  if (!helpers_.empty()) prefaulter_ = std::thread([span = table_->reservation()] { HugeBuffer::populate(span); });
  SearchResult result = runOne(pos, limits, progress);  // starts the helpers past the warm-up
  result.nodes += stopHelpers();
  return result;
}

void Solver::startHelpers() {
  if (helpers_.empty() || !helperThreads_.empty()) return;
  if (prefaulter_.joinable()) prefaulter_.join();
  // The main thread has run the warm-up alone on its growing table, leaving it as a run on one
  // thread would; the helpers then share it at its whole size (until clear()).
  table_->share();
  // Helpers search the main thread's passes from the next one on (help()).
  const std::uint64_t after = pass_->id.load(std::memory_order_acquire);
  pass_->quit.store(false);
  helperThreads_.reserve(helpers_.size());
  for (auto& h : helpers_) {
    Solver* helper = h.get();
    helperThreads_.emplace_back([helper, after] { helper->help(after); });
  }
}

std::uint64_t Solver::stopHelpers() {
  if (prefaulter_.joinable()) prefaulter_.join();  // a run that ended within the warm-up
  if (helperThreads_.empty()) return 0;
  pass_->quit.store(true, std::memory_order_release);
  for (auto& h : helpers_) h->stop();
  for (std::thread& t : helperThreads_) t.join();
  helperThreads_.clear();
  std::uint64_t nodes = 0;
  for (auto& h : helpers_) {
    nodes += h->run_.nodes;
    h->clearStop();
  }
  return nodes;
}

void Solver::help(std::uint64_t after) {
  run_.begin(Limits{});
  std::uint64_t seen = after;
  while (!pass_->quit.load(std::memory_order_acquire) && !run_.aborted) {
    if (pass_->id.load(std::memory_order_acquire) == seen) {
      std::this_thread::yield();  // the main thread is between passes
      continue;
    }
    Window w;
    {
      const std::lock_guard lock(pass_->mutex);
      seen = pass_->id.load(std::memory_order_relaxed);
      w = pass_->window;
    }
    run_.rootDepth = w.rootDepth;
    run_.rootBest = 0;
    int value = 0;
    bool proven = false;
    if (!runPass(w, seen, value, proven)) continue;
    const std::lock_guard lock(pass_->mutex);
    if (pass_->id.load(std::memory_order_relaxed) == seen && pass_->solved.load(std::memory_order_relaxed) != seen) {
      pass_->value = value;
      pass_->proven = proven;
      pass_->rootBest = run_.rootBest;
      pass_->solved.store(seen, std::memory_order_release);
    }
  }
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
      [&](int depth, int guess, bool& proven) {
        // The warm-up's iterations run on this thread alone (docs/engine.md, "Threads"): from the
        // table they leave, two threads searched Kalah(6,4) with the 20-seed table in 13.5-13.9 M
        // nodes, where with the helpers from the first iteration on, each run's table different,
        // they took 13.6-18.6 M (one thread: 14.6 M).
        if (depth > kSolveWarmup) startHelpers();
        return mtdf(root, left, guess, depth, proven);
      },
      [&](SearchResult& result, int v) {
        result.value = stores + v;
        int best = run_.rootBest;
        if (best == 0 || !board_.isLegal(pos, best)) {
          const auto e = table_->probe(tableKey(root));
          best = e && e->move != 0 && board_.isLegal(pos, e->move) ? e->move : std::countr_zero(mask) + 1;
        }
        result.bestMove = best;
        result.pv = principalVariation(root);
      });
}

}  // namespace semis::engine
