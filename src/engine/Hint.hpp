#pragma once
// Hints that explain: the recommended move, its value (exact when the search proved it), a verdict
// and the reasons a player understands, each read off the actual position. Verdicts and reasons
// are values (codes with their numbers), not words: the command line words them in English, the
// web client in the player's language (views/Hints.hpp is their wire form).

#include <cstdint>
#include <vector>

#include "engine/Search.hpp"

namespace semis::engine {

enum class Reason : std::uint8_t {
  ExtraTurn,               // ends in the mover's store: he plays again
  Captures,                // n: the seeds it captures
  Protects,                // n: the seeds of the mover's house `house`, which the move sows out of reach
  StopsCapture,            // n: the seeds of the mover's house `house` the opponent could take, and no longer can
  NoExtraTurnForOpponent,  // gives the opponent no extra turn where another move would
  Feeds,                   // feeds the opponent, as the rules require
  // Chain captures (chain_capture): taken from `houses` houses in a row, n seeds in all; along the
  // opponent's row in Oware (awale), across both rows in Al-manqala.
  ChainCaptures,           // n: the seeds, houses >= 2: the houses taken in the chain
  // grand_slam=nothing: a move whose capture would take every seed of the opponent takes none.
  GrandSlamTakesNothing,   // n: the seeds the opponent keeps, the move is that grand slam
  GrandSlamAvoided,        // n: the seeds another move's grand slam would leave untaken, house: that move
};

struct MoveReason {
  Reason code = Reason::ExtraTurn;
  int n = 0;      // Captures, Protects, StopsCapture; 0 otherwise
  int house = 0;  // Protects, StopsCapture: the mover's house (1..N) at stake; GrandSlamAvoided: the
                  // move (1..N) that would be the grand slam; 0 otherwise
  int houses = 0; // ChainCaptures: how many houses the chain takes; 0 otherwise
  bool operator==(const MoveReason&) const = default;
};

enum class VerdictCode : std::uint8_t {
  WinsBy,         // proven: n > 0 seeds ahead with best play
  Draws,          // proven draw
  LosesByAtMost,  // proven: the best defence loses by n > 0
  Estimate,       // not proven: n is the search's value (may be negative)
};

struct Verdict {
  VerdictCode code = VerdictCode::Estimate;
  int n = 0;  // 0 for Draws
  bool operator==(const Verdict&) const = default;
};

struct Hint {
  int move = 0;
  int value = 0;
  bool exact = false;  // the position's value is proven (not only the move's)
  Verdict verdict;
  std::vector<MoveReason> reasons;  // may be empty: the search alone rates the move best
  std::vector<MoveValue> moves;     // every legal move's value
  std::uint64_t nodes = 0;
};

// `limits` apply to each legal move's search (limits.cancel ends them all); what the moves proven
// early did not use of that budget then goes to the moves still unproven. Never recommends a move
// proven to lose (or to do worse than another proven move) when a proven win or draw is known.
// `exact` (and a proven verdict) only when the position's value is proven: the move is the opening
// book's, or every move's value is proven. Error when the game is over.
[[nodiscard]] Result<Hint> hint(Search& search, const Position& pos, const Limits& limits);
// Every legal move's value as the hint sees them: the search's (ValueFirst, exact where `limits`
// and the search's endgame table prove it) with the built-in opening book's proven move on top.
// The analysis board and the daily judge in the page use it too, so they never disagree with a hint.
[[nodiscard]] std::vector<MoveValue> valuedMoves(Search& search, const Position& pos, const Limits& limits,
                                                 std::uint64_t* nodes = nullptr);
// The reasons for one legal move (the rules' facts, no search): Feeds first, then what the move
// does (ExtraTurn, Captures or ChainCaptures, GrandSlamTakesNothing), then what it prevents
// (Protects or StopsCapture, NoExtraTurnForOpponent, GrandSlamAvoided).
[[nodiscard]] std::vector<MoveReason> moveReasons(const Board& board, const Position& pos, int move);
// exact: WinsBy, Draws or LosesByAtMost by the value's sign; otherwise Estimate.
[[nodiscard]] Verdict verdictOf(int value, bool exact);

}  // namespace semis::engine
