#pragma once
// Hints that explain: the recommended move, its value (exact when the search proved it), and the
// reasons a player understands, each read off the actual position.

#include <string>
#include <vector>

#include "engine/Search.hpp"

namespace semis::engine {

struct Hint {
  int move = 0;
  int value = 0;
  bool exact = false;
  std::string verdict;               // "wins by 4 with best play", "about +2 (not proven)"
  std::vector<std::string> reasons;  // "ends in your store: you play again", "captures 5 seeds", ...
  std::vector<MoveValue> moves;      // every legal move's value
  std::uint64_t nodes = 0;
};

// `limits` apply to each legal move's search. Never recommends a move proven to lose (or to do
// worse than another proven move) when a proven win or draw is known. Error when the game is over.
[[nodiscard]] Result<Hint> hint(Search& search, const Position& pos, const Limits& limits);
// The reasons for one legal move (the rules' facts, no search).
[[nodiscard]] std::vector<std::string> moveReasons(const Board& board, const Position& pos, int move);
[[nodiscard]] std::string verdictText(int value, bool exact);

}  // namespace semis::engine
