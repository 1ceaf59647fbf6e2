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
// Threads (setThreads, default 1): helper threads run the same iterations on the same table
// (lazy SMP). Each thread marks the nodes near the root it is searching; at a node, a move after
// the first that another thread is searching is put off to the end, by when its value is likely in
// the table, so the threads spread over an all-node's moves instead of proving the same ones. The
// main thread's result is the one returned; helpers stop when it is done.
//
// Not thread-safe (one per thread), except stop(), which any thread may call.

#include <memory>
#include <vector>

#include "engine/Deepening.hpp"
#include "engine/FastBoard.hpp"
#include "engine/SearchTypes.hpp"
#include "engine/SolverTable.hpp"

namespace semis::engine {

class Solver {
 public:
  Solver(const Rules& rules, std::size_t tableMegabytes);
  ~Solver();

  void setEgdb(const Egdb* egdb);
  // 1..64 threads for the next run() (all of them busy until it returns).
  void setThreads(int threads);
  void clear() { table_->clear(); }
  void stop() { run_.stop.store(true, std::memory_order_relaxed); }
  void clearStop() { run_.stop.store(false); }

  SearchResult run(const Position& pos, const Limits& limits, const Progress& progress = {});

 private:
  struct Kid;
  struct HelperOf {
    const Solver& main;
  };
  explicit Solver(HelperOf of);  // a helper thread's solver, on the main solver's table and marks
  SearchResult runOne(const Position& pos, const Limits& limits, const Progress& progress);
  int search(const FastPos& p, int left, int alpha, int beta, int depth, int ply, bool& proven);
  int mtdf(const FastPos& p, int left, int guess, int depth, bool& proven);
  [[nodiscard]] int evaluate(const FastPos& p) const;
  [[nodiscard]] std::uint64_t egdbIndex(const FastPos& p, int left) const;
  [[nodiscard]] std::vector<int> principalVariation(const FastPos& root) const;

  Board board_;
  FastBoard fast_;
  std::unique_ptr<SolverTable> ownTable_;  // the main solver's; helpers have none
  SolverTable* table_;
  const Egdb* egdb_ = nullptr;
  int egdbSeeds_ = -1;
  std::vector<std::unique_ptr<Solver>> helpers_;
  // Which nodes near the root some thread is searching (threads > 1 only; Solver.cpp).
  struct Crumbs;
  std::unique_ptr<Crumbs> ownCrumbs_;
  Crumbs* crumbs_ = nullptr;
  RunState run_;
};

}  // namespace semis::engine
