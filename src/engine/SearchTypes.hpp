#pragma once
// The values a search takes and gives, shared by the general Search and the Kalah-family Solver.

#include <cstdint>
#include <vector>

namespace semis::engine {

class Egdb;

inline constexpr int kInfinity = 30000;
inline constexpr int kMaxDepth = 240;

struct Limits {
  int depth = 0;            // plies (each sowing is one); 0: no limit
  std::uint64_t nodes = 0;  // 0: no limit
  double seconds = 0;       // 0: no limit
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

}  // namespace semis::engine
