#pragma once
// What the general Search and the Kalah-family Solver share around their own alpha-beta: the state
// of one run() (limits, clock, nodes, abort) and the iterative-deepening loop over MTD(f).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>

#include "engine/SearchTypes.hpp"

namespace semis::engine {

using Progress = std::function<void(const SearchResult&)>;

struct RunState {
  std::atomic<bool> stop{false};  // set from any thread; the search reads it every 1024 nodes
  Limits limits;
  std::chrono::steady_clock::time_point start;
  std::uint64_t nodes = 0;
  bool aborted = false;
  bool mayAbort = true;  // false during the first iteration, which always completes
  int rootBest = 0;      // the root's best move of the current pass
  int rootDepth = 1;     // the current iteration's depth

  void begin(const Limits& l) {
    limits = l;
    start = std::chrono::steady_clock::now();
    nodes = 0;
    aborted = false;
  }
  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  // Counts a node; true when the search must unwind (node limit, time limit or stop()).
  bool countNode() {
    ++nodes;
    if (!mayAbort) return false;
    if ((limits.nodes != 0 && nodes >= limits.nodes) || ((nodes & 1023U) == 0 && timeUp())) aborted = true;
    return aborted;
  }

 private:
  bool timeUp() const {
    return stop.load(std::memory_order_relaxed) ||
           (limits.cancel != nullptr && limits.cancel->load(std::memory_order_relaxed)) ||
           (limits.seconds > 0 && elapsed() >= limits.seconds);
  }
};

// Iterative deepening: iteration(depth, guess, proven) runs one MTD(f) at `depth` and returns its
// value; report(result, value) fills the value, best move and principal variation. Without limits
// the search is a solver: `warmup` iterations order the moves, then one at `unlimitedDepth`; so it is
// with Aim::Value, where a limit that ends that last iteration leaves the warm-up's result.
template <class Iteration, class Report>
SearchResult deepen(RunState& st, int guess, int unlimitedDepth, int warmup, const Progress& progress,
                    const Iteration& iteration, const Report& report) {
  const Limits& limits = st.limits;
  SearchResult result;
  const int maxDepth = limits.depth > 0 ? std::min(limits.depth, kMaxDepth) : unlimitedDepth;
  const bool solving = limits.aim == Aim::Value || (limits.depth == 0 && limits.nodes == 0 && limits.seconds == 0);
  for (int depth = 1; depth <= maxDepth;
       depth = solving && depth >= warmup ? unlimitedDepth + (depth == unlimitedDepth) : depth + 1) {
    st.mayAbort = depth > 1;
    st.rootDepth = depth;
    st.rootBest = 0;
    bool proven = false;
    const int v = iteration(depth, guess, proven);
    if (st.aborted) break;
    result.exact = proven;
    result.depth = std::min(depth, kMaxDepth);
    report(result, v);
    if (result.pv.empty() || result.pv.front() != result.bestMove) result.pv = {result.bestMove};
    result.nodes = st.nodes;
    result.seconds = st.elapsed();
    if (progress) progress(result);
    guess = v;
    if (proven) break;
    // An iteration costs a few times the one before: do not start one that cannot finish (a solve
    // tries its last one anyway: it is the only one whose result is worth the budget).
    if (limits.aim != Aim::Value && limits.seconds > 0 && result.seconds > limits.seconds * 0.5) break;
  }
  result.nodes = st.nodes;
  result.seconds = st.elapsed();
  st.stop.store(false);
  return result;
}

}  // namespace semis::engine
