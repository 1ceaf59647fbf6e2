#pragma once
// A game as players live it: a match of one or more sets, each a sequence of sowings from the start,
// with the rules that need history (repetition, turns without a capture, the pie swap, an agreed split).

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rules/Board.hpp"

namespace semis {

struct Ply {
  int set = 1;  // 1-based set of the match
  Side mover = Side::South;
  int move = 0;  // house 1..N
  MoveInfo info;
  Trace trace;
  Position after;          // the position after the move (the set's final one if it ended it)
  bool setEnded = false;   // this move (or the split it caused) ended its set
  bool autoSplit = false;  // repetition or the no-capture limit split the board after this move
};

struct SetResult {
  Outcome outcome;
  bool agreedSplit = false;
};

class Game {
 public:
  explicit Game(const Rules& rules);
  // A game from a given position: a single set, whatever the rules' match length.
  Game(const Rules& rules, const Position& start);

  [[nodiscard]] const Board& board() const { return board_; }
  [[nodiscard]] const Rules& rules() const { return board_.rules(); }
  [[nodiscard]] const Position& position() const { return pos_; }
  [[nodiscard]] const Position& setStart() const { return setStart_; }
  [[nodiscard]] const Position& initial() const { return initial_; }
  [[nodiscard]] const std::vector<Ply>& plies() const { return plies_; }
  [[nodiscard]] const std::vector<SetResult>& setResults() const { return sets_; }
  [[nodiscard]] int currentSet() const { return static_cast<int>(sets_.size()) + (over() ? 0 : 1); }
  [[nodiscard]] int setCount() const { return setCount_; }
  // The match is over: every set played, or (rounds=traditional) a player could not fill one house.
  [[nodiscard]] bool over() const { return lastRound_ || static_cast<int>(sets_.size()) == setCount_; }
  [[nodiscard]] bool swapped() const { return swapped_; }
  [[nodiscard]] int idleTurns() const { return idle_; }

  // Plays a move for the player to move; an illegal one is an error and changes nothing.
  Result<const Ply*> play(int house);
  // The pie rule: North takes South's side after South's first turn.
  [[nodiscard]] bool canSwap() const;
  Result<void> swap();
  // The players agree to share the seeds left (Al-manqala's cycles). Ends the current set.
  Result<void> agreeSplit();

  // Match points of each side, doubled so a drawn set counts 1 (0.5 point) in integers.
  [[nodiscard]] std::array<int, 2> doubledPoints() const;
  // The match's winner once over: more points, or (rounds=traditional) the last round's winner.
  [[nodiscard]] std::optional<Winner> matchWinner() const;

 private:
  void endSet(bool agreed);
  [[nodiscard]] std::string key(const Position& pos) const;

  Board board_;
  int setCount_;
  Position initial_;
  Position setStart_;
  Position pos_;
  std::vector<Ply> plies_;
  std::vector<SetResult> sets_;
  std::unordered_map<std::string, int> seen_;  // positions of the current set (exact keys), for repetition
  int idle_ = 0;                               // turns in a row without a capture
  bool swapped_ = false;
  bool lastRound_ = false;  // rounds=traditional: a player cannot fill a house, no round follows
  Side setFirst_;
};

}  // namespace semis
