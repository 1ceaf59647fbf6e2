#pragma once
// The search: iterative deepening over MTD(f) null-window passes, a transposition table whose keys
// fold in rulesKey(rules), move ordering (table move, extra turns, captures), and proven results.
//
// Values are always from the perspective of the player to move: his final store minus the
// opponent's (Al-manqala: the captured counts). An extra turn (or a pass that keeps the mover) does
// not flip sides, so the child's value is not negated. Every node knows the seeds left on the board,
// which bounds its value (the futility bound): it can gain at most all of them or lose them all.
// A result is "exact" when it rests on finished games, table hits and such bounds only; the search
// stops as soon as the root is proven. Depth counts turns: an extra turn costs no depth. History rules of semis::Game
// (repetition, no-capture splits, sets) are ignored: the search plays one set of the bare Board.
//
// Rule sets of the Kalah family go to engine::Solver (Solver.hpp), a kernel built for them.
//
// A Search is not thread-safe; use one per thread (semis::engine::Engine wraps one on its own
// thread). stop() is the exception: any thread may call it.

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/Deepening.hpp"
#include "engine/SearchTypes.hpp"
#include "engine/Table.hpp"
#include "rules/Board.hpp"

namespace semis::engine {

class Egdb;
class Solver;

class Search {
 public:
  // Which search plays a rule set: Auto hands the Kalah family to the Solver; General keeps it
  // here (tests compare the two).
  enum class Kernel : std::uint8_t { Auto, General };
  explicit Search(const Rules& rules, std::size_t tableMegabytes = 16, Kernel kernel = Kernel::Auto);
  ~Search();

  // Probes `egdb` from now on; a table for other rules (or nullptr) switches probing off.
  void setEgdb(const Egdb* egdb);
  // Search threads for the Kalah family's solver (lazy SMP on one shared table, see Solver.hpp);
  // other rule sets search on one thread. Default 1.
  void setThreads(int threads);
  // The Kalah-family solver's searches per thread, which take turns while memory answers.
  void setFibers(int fibers);
  // Forget the table (e.g. between benchmark positions).
  void clear();
  // Any thread: ends the running search at its next check; run() then returns its best so far.
  void stop();

  using Progress = engine::Progress;
  // Searches pos (not over) within limits; `progress` is called after each completed iteration.
  SearchResult run(const Position& pos, const Limits& limits, const Progress& progress = {});
  // The value of every legal move (from the mover's view), each searched within `limits`.
  std::vector<MoveValue> moveValues(const Position& pos, const Limits& limits, std::uint64_t* nodes = nullptr);
  // The value of one legal move (from the mover's view), searched within `limits`; `nodes` gets the
  // nodes searched (0 for a move that ends the game).
  MoveValue moveValue(const Position& pos, int move, const Limits& limits, std::uint64_t* nodes = nullptr);
  // Clears a pending stop() (the Engine calls it before starting a search).
  void clearStop();

  [[nodiscard]] const Board& board() const { return board_; }
  [[nodiscard]] std::uint64_t hash(const Position& pos) const;
  // The static evaluation: store difference plus a small share of the seeds on each side.
  [[nodiscard]] int evaluate(const Position& pos) const;
  // The value of a finished game for pos.toMove.
  [[nodiscard]] int terminalValue(const Position& pos) const;

 private:
  int search(const Position& pos, int alpha, int beta, int depth, int ply, bool& proven);
  int mtdf(const Position& pos, int guess, int depth, bool& proven);
  std::vector<int> principalVariation(const Position& pos) const;
  // Aim::ValueFirst: the exact solve on 3/5 of the budget, then, when it proved nothing, a
  // ply-by-ply search on the table it left with the rest. A stop() during the solve ends both.
  SearchResult valueFirst(const Position& pos, const Limits& limits, const Progress& progress);

  Board board_;
  // The Kalah family (FastBoard::supports) is searched by the Solver: same contract, its own kernel.
  std::unique_ptr<Solver> solver_;
  std::uint64_t rulesKey_;
  Table table_;
  const Egdb* egdb_ = nullptr;
  bool relative_;  // values in the table are relative to the stores (Egdb::housesOnly)
  RunState run_;
  std::atomic<std::uint32_t> stops_{0};  // stop() calls: valueFirst tells a stopped solve by them
};

}  // namespace semis::engine
