#pragma once
// The search for the Kalah family (FastBoard::supports): the same contract as semis::engine::Search,
// which hands these rule sets to it, built for solving. Values inside are those of the seeds left
// in the houses (the stores are not part of a position), so one table entry serves every store
// split and the endgame table's values are used as they are. Each node:
//   1. the futility bound: the seeds left bound the value on both sides;
//   2. the endgame table, then the transposition table (proven bounds hold at any depth);
//   3. every child is played at once; their table buckets are prefetched, then read for
//      enhanced transposition cutoffs (a child whose proven bound already beats beta ends the
//      node; children that cannot beat alpha are skipped);
//   4. the rest are searched best-first: table move, extra turns, captures, then the rest.
// Iterative deepening with MTD(f) as in Search; without limits the last iteration has no depth
// limit and its value is exact.
//
// Fibers (setFibers, default kDefaultFibers): a node waits about one memory latency for its
// children's table buckets, longer than the work of a node. So each thread runs several searches
// of the same root window as fibers, explicit stacks that take turns a node at a time: a fiber
// stops once it has prefetched its children and the next one works meanwhile (SolverSearch.cpp).
// Threads (setThreads, default 1) run fibers of their own on the same table, on the main thread's
// current pass: the first searcher on any thread to finish it gives the pass its result. They join
// once the warm-up's iterations are done, which the main thread runs alone on its growing table,
// as one thread would, so that the exact search starts from the same table either way. Every
// searcher marks the nodes near the root it is searching; at a node that searches all its moves, a
// move that another one is searching is put off to the end, by when its value is likely in the
// table, so the searchers spread over the moves instead of proving the same ones. At a node
// expected to end on its first move they all take that move, and a helper thread's searchers take
// the main thread's first move at the pass's root.
//
// Not thread-safe (one per thread), except stop(), which any thread may call.

#include <memory>
#include <thread>
#include <vector>

#include "engine/Deepening.hpp"
#include "engine/FastBoard.hpp"
#include "engine/SearchTypes.hpp"
#include "engine/SolverKey.hpp"
#include "engine/SolverTable.hpp"

namespace semis::engine {

class Solver {
 public:
  Solver(const Rules& rules, std::size_t tableMegabytes);
  ~Solver();

  void setEgdb(const Egdb* egdb);
  // 1..64 threads for the next run() (all of them busy until it returns).
  void setThreads(int threads);
  // 1..16 searches taking turns on each thread (SolverSearch.cpp); one visits exactly the nodes of
  // a plain recursive search.
  static constexpr int kDefaultFibers = 2;
  void setFibers(int fibers);
  void clear() { table_->clear(); }
  void stop() { run_.stop.store(true, std::memory_order_relaxed); }
  void clearStop() { run_.stop.store(false); }

  SearchResult run(const Position& pos, const Limits& limits, const Progress& progress = {});

  // The transposition table's layout, chosen as a run starts: exact keys (twice the entries, where
  // its capacity sets the nodes) without an endgame table or with one of fewer seeds than this,
  // hashed keys with one of this many seeds or more (docs/engine.md, "The table's layouts").
  static constexpr int kHashedFromEgdbSeeds = 20;
  // Whether the last run (or the one under way) keeps exact keys.
  [[nodiscard]] bool exactKeys() const { return exactKeys_; }

 private:
  struct Kid;
  struct HelperOf {
    const Solver& main;
  };
  explicit Solver(HelperOf of);  // a helper thread's solver, on the main solver's table and marks
  void configure();
  void chooseLayout();  // the table's layout for the run about to start (a change empties it)
  SearchResult runOne(const Position& pos, const Limits& limits, const Progress& progress);
  struct Frame;
  struct Fiber;
  // One null-window pass from the root: what every searcher of the pass searches.
  struct Window {
    FastPos root;
    int left = 0;  // seeds left at the root
    int alpha = 0;
    int beta = 0;
    int depth = 0;
    int rootDepth = 0;  // the iteration's (RunState::rootDepth)
  };
  // One pass, every fiber on it (SolverSearch.cpp).
  int search(const FastPos& p, int left, int alpha, int beta, int depth, bool& proven);
  struct Pass;
  // Runs every fiber on `w` until one has its value (true) or the pass is given up: an abort,
  // another thread's result (taken as this thread's: `value`, `proven`), or, for a helper, a new
  // pass. `id` is the pass's number among the threads, 0 with one thread.
  bool runPass(const Window& w, std::uint64_t id, int& value, bool& proven);
  // The depth a move's child is searched at: an extra turn is half a turn, so it costs no depth
  // while the path is shorter than the iteration's.
  [[nodiscard]] int childDepth(const Frame& f, const Kid& k) const;
  void help(std::uint64_t after);  // a helper thread's run: the main thread's passes after `after`
  // The helper threads join a run once its iterations pass the warm-up's depth (the solve's exact
  // search), sharing the table from then on; a run that ends sooner stays on this thread.
  void startHelpers();
  std::uint64_t stopHelpers();  // after a run: joins them; their nodes
  bool advance(Fiber& fiber);
  bool enter(Fiber& fiber, Frame& f);
  bool expand(Fiber& fiber, Frame& f);
  bool next(Fiber& fiber, Frame& f);
  bool scored(Fiber& fiber, Frame& f, const Kid& k, int v, bool childProven);
  bool finish(Fiber& fiber, Frame& f);
  static bool done(Frame& f, int value, bool proven);
  static void release(Frame& f);
  static Frame& push(Fiber& fiber);
  static void reset(Fiber& fiber);
  int mtdf(const FastPos& p, int left, int guess, int depth, bool& proven);
  [[nodiscard]] int evaluate(const FastPos& p) const;
  // The table's key of a position: its exact SolverKey where the table takes those
  // (SolverTable::exact), else FastBoard's hash.
  [[nodiscard]] std::uint64_t tableKey(const FastPos& p) const {
    return exactKeys_ ? key_.of(p.mine, p.theirs) : FastBoard::key(p);
  }
  [[nodiscard]] std::vector<int> principalVariation(const FastPos& root) const;

  Board board_;
  FastBoard fast_;
  SolverKey key_;
  std::unique_ptr<SolverTable> ownTable_;  // the main solver's; helpers have none
  SolverTable* table_;
  bool exactKeys_ = false;  // table_->exact()
  const Egdb* egdb_ = nullptr;
  int egdbSeeds_ = -1;
  std::vector<std::unique_ptr<Solver>> helpers_;
  // Which nodes near the root some thread is searching (threads > 1 only; Solver.cpp).
  struct Crumbs;
  std::unique_ptr<Crumbs> ownCrumbs_;
  Crumbs* crumbs_ = nullptr;
  std::unique_ptr<Pass> ownPass_;  // threads > 1 only
  Pass* pass_ = nullptr;
  bool helper_ = false;
  std::vector<Fiber> fibers_;
  RunState run_;
  std::vector<std::thread> helperThreads_;  // running during a run's passes past the warm-up
  std::thread prefaulter_;                  // backs the table's pages during the warm-up (run())
};

}  // namespace semis::engine
