#pragma once
// The values a search takes and gives, shared by the general Search and the Kalah-family Solver.

#include <atomic>
#include <cstdint>
#include <vector>

namespace semis::engine {

class Egdb;

inline constexpr int kInfinity = 30000;
inline constexpr int kMaxDepth = 240;

// What a limited search aims at (a search with no limits always solves).
enum class Aim : std::uint8_t {
  Move,        // deepen ply by ply: a good move whenever the budget ends (Hard)
  Value,       // the exact solve, bounded by the limits (`semis solve --seconds`)
  ValueFirst,  // the exact solve on 3/5 of the budget, else Move with the rest (Perfect, hints)
};

struct Limits {
  int depth = 0;            // plies (each sowing is one); 0: no limit
  std::uint64_t nodes = 0;  // 0: no limit
  double seconds = 0;       // 0: no limit
  // Value: to the end of the game within the limits (the few warm-up iterations, then one without
  // a depth limit, as a search with no limits does). Move deepens ply by ply, which is right for
  // choosing a move in time but takes far longer to reach an exact value.
  Aim aim = Aim::Move;
  // Read with the clock: once it turns true the search ends as stop() ends it (the server's AI
  // pool cancels a game's search this way; a flag, unlike stop(), is never cleared by a run).
  const std::atomic<bool>* cancel = nullptr;
};

struct SearchResult {
  int bestMove = 0;     // house 1..N; 0 when the game is over
  int value = 0;        // for the player to move
  bool exact = false;   // the value is the game-theoretic one
  int depth = 0;        // the last completed iteration
  std::vector<int> pv;  // the principal variation, from the table (houses of each mover)
  std::uint64_t nodes = 0;
  double seconds = 0;
};

struct MoveValue {
  int move = 0;
  int value = 0;
  bool exact = false;
};

// MTD(f): null-window searches around `guess` until the bounds meet. probe(beta, proven) runs one
// search with window (beta - 1, beta) and returns its fail-soft value; once `aborted` is set the
// result means nothing. `proven` says whether both final bounds are game-theoretic.
template <class Probe>
int mtdf(int guess, bool& proven, const bool& aborted, const Probe& probe) {
  int lo = -kInfinity;
  int hi = kInfinity;
  bool loProven = false;
  bool hiProven = false;
  int g = guess;
  while (lo < hi) {
    const int beta = g == lo ? g + 1 : g;
    bool p = false;
    g = probe(beta, p);
    if (aborted) return 0;
    if (g < beta) {
      hi = g;
      hiProven = p;
    } else {
      lo = g;
      loProven = p;
    }
  }
  proven = loProven && hiProven;
  return g;
}

}  // namespace semis::engine
