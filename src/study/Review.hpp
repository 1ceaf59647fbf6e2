#pragma once
// Game review: every move of a game valued by the search, exact where the budget proves it, beside
// the best move of its position; moves marked by the value they gave away; the move after which
// the loser never stood at a draw or better again.
//
// Values are final store differences for the player to move (engine/Search.hpp), so one scale
// runs through the whole game. Each set of a match is valued as its own game.

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/Search.hpp"
#include "rules/Game.hpp"

namespace semis::study {

enum class Mark : std::uint8_t {
  Forced,      // the only legal move
  Best,        // keeps the best value
  Good,        // gives away 1 seed
  Inaccuracy,  // 2-3 seeds
  Mistake,     // 4-7 seeds, or a draw thrown into a loss
  Blunder,     // 8 or more, or a win thrown into a loss
};

struct PlyReview {
  int set = 1;
  Side mover = Side::South;
  int move = 0;
  int best = 0;  // the best move (the lowest house among equals); == move when it was one
  int bestValue = 0;
  bool bestExact = false;
  int played = 0;  // the played move's value
  bool playedExact = false;
  int loss = 0;  // bestValue - played when both are known, never negative
  Mark mark = Mark::Best;
  std::vector<engine::MoveValue> moves;  // every legal move's value (empty when forced)
};

struct Review {
  std::vector<PlyReview> plies;  // one per Game::plies() entry
  int turning = -1;              // the index of the move that lost the game (see markTurning), -1: none
  std::uint64_t nodes = 0;
};

struct ReviewLimits {
  double secondsPerPosition = 0.08;  // split between the position's legal moves
  std::uint64_t nodesPerPosition = 0;
  const std::atomic<bool>* cancel = nullptr;
};

// Positions are searched from the last to the first, so what the search learned near the end (its
// table keeps proven values) is there when the earlier positions reach it.
[[nodiscard]] Result<Review> review(engine::Search& search, const Game& game, const ReviewLimits& limits);
[[nodiscard]] Mark markOf(int bestValue, int played, bool forced);
// The loser's move after which his value stayed below zero to the end of its set, when the set
// ended in a loss for him: the last of his moves that went from a draw or better to a loss.
void markTurning(Review& review, const Board& board, const Game& game);

}  // namespace semis::study
