#pragma once
// The Kalah-family solver's private records, shared by Solver.cpp (setup, threads, iterative
// deepening) and SolverSearch.cpp (the node machine the fibers run). Not part of the engine's API.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "engine/Solver.hpp"

namespace semis::engine::solver {

inline constexpr int kOpen = kSolverOpen;  // an open side of a bound (SolverTable.hpp)
inline constexpr int kCrumbPlies = 14;  // searchers mark the nodes they search this near the root
// The solve's last iteration: deeper than any game, so its passes end only on finished games and
// the endgame table, and every value they store is proven.
inline constexpr int kExactDepth = 1000;

}  // namespace semis::engine::solver

namespace semis::engine {

// One move of a node. Left uninitialised on purpose: the stages fill the fields they read.
struct Solver::Kid {
  FastPos pos;
  FastMove mv;
  std::uint64_t key;
  int house;
  std::int64_t order;  // higher first (expand())
  int work;            // the bit width of its subtree's last search, from its table entry
  int lo;  // bounds on the move's value for the parent's mover
  int hi;
  bool loProven;
  bool hiProven;
};

// One node of a fiber's search. Left uninitialised on purpose: the stages fill what they read.
struct Solver::Frame {
  enum class Stage : std::uint8_t {
    Enter,   // bounds, tables, then play the moves and prefetch their entries; the fiber yields
    Expand,  // read those entries: cutoffs from known bounds, the move order
    Next,    // push the next move to search, or finish
    Resume,  // take in the value of the move just searched
  };
  FastPos p;
  int left;
  int alpha;
  int beta;
  int depth;
  int ply;
  Stage stage;
  bool proven;  // the result's flag, once the node is done
  int value;    // the result, once the node is done
  std::uint64_t key;  // its table key (tableKey()), set by whoever pushes the frame
  int ttMove;    // leads the order
  int hintMove;  // a depth-limited iteration's move in an exact pass: breaks ties (enter())
  int n;
  int total;
  int i;     // the next index into order
  int best;  // the best value so far, and its move
  int bestMove;
  int a;  // alpha raised by the moves searched
  bool cut;  // expected to end on its first move (until one does not): none is put off (next())
  bool allProven;
  bool cutProven;
  std::uint64_t before;
  std::atomic<std::uint64_t>* mark;  // the crumb this node holds, or null
  // Sized for the boards the kernel plays (7 houses), not the rules' 12: a frame is 1,088 bytes
  // for 12 and 680 for 7, and each fiber's stack of them is walked at every node.
  Kid kids[FastBoard::kHouses];
  int order[2 * FastBoard::kHouses];
  bool putOff[FastBoard::kHouses];
};

// A search of one root window, run a node at a time so that several can take turns on one thread.
struct Solver::Fiber {
  std::vector<Frame> stack = std::vector<Frame>(64);  // grows as needed (push)
  int top = -1;
  int rootBest = 0;
  std::uint64_t nodes = 0;  // this fiber's, for the subtree sizes the table keeps
};

// Which nodes near the root some searcher is searching (more than one thread or fiber): a slot per
// key hash holds the key of a node being searched, set by the searcher that enters it first.
struct Solver::Crumbs {
  static constexpr std::size_t kSlots = 4096;
  struct alignas(64) Slot {  // one per cache line: threads write them all the time
    std::atomic<std::uint64_t> key{0};
  };
  Slot slot[kSlots];
  [[nodiscard]] bool busy(std::uint64_t key) const {
    return slot[key % kSlots].key.load(std::memory_order_relaxed) == key;
  }
  // Marks `key` as searched by the caller if its slot is free: the slot to clear afterwards, or null.
  std::atomic<std::uint64_t>* take(std::uint64_t key) {
    std::uint64_t expected = 0;
    std::atomic<std::uint64_t>& at = slot[key % kSlots].key;
    return at.compare_exchange_strong(expected, key, std::memory_order_relaxed) ? &at : nullptr;
  }
};

// The pass the main thread is searching, which its helper threads search too (threads > 1 only):
// every thread's fibers work on the one root window, and the first searcher to finish it, on any
// thread, gives its result. Changes are rare (one per MTD(f) pass), so a mutex guards the fields;
// the two counters are read at every fiber's turn.
struct Solver::Pass {
  std::mutex mutex;
  std::atomic<std::uint64_t> id{0};      // the pass being searched; bumped by the main thread
  std::atomic<std::uint64_t> solved{0};  // the last pass a helper finished
  std::atomic<bool> quit{false};         // the run is over: helpers return
  // Under the mutex: the window of pass `id`...
  Window window;
  // ...and a helper's result for pass `solved`.
  int value = 0;
  bool proven = false;
  int rootBest = 0;
};

}  // namespace semis::engine
