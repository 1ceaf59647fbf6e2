#pragma once
// Board plays one Rules value: it precomputes the ring's geometry and applies moves to Positions.
// apply() is a template over a trace sink so the search (NoTrace) and the browser's animation
// (TraceRecorder) run the very same code. Moves are house numbers 1..N of the player to move.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rules/Position.hpp"
#include "rules/Rules.hpp"
#include "rules/Trace.hpp"

namespace semis {

// What a move did, for the game record and the no-capture counter.
struct MoveInfo {
  int captured = 0;  // seeds captured by the mover (castle stones included)
  bool extraTurn = false;
  bool relayCut = false;
  bool castleMade = false;
  bool pass = false;  // the opponent had no seeds and passed: the mover moves again
  bool grandSlam = false;  // the chain capture would have emptied a row (grand_slam says what it took)
};

class Board {
 public:
  explicit Board(const Rules& rules);

  [[nodiscard]] const Rules& rules() const { return rules_; }
  [[nodiscard]] int houses() const { return n_; }
  [[nodiscard]] int storePit(Side s) const { return s == Side::South ? n_ : 2 * n_ + 1; }
  [[nodiscard]] int housePit(Side s, int house) const { return s == Side::South ? house - 1 : n_ + house; }
  [[nodiscard]] Side ownerOf(int pit) const { return pit <= n_ ? Side::South : Side::North; }
  [[nodiscard]] bool isStore(int pit) const { return pit == n_ || pit == 2 * n_ + 1; }
  [[nodiscard]] int opposite(int pit) const { return 2 * n_ - pit; }
  // The house number 1..N of a house pit for its owner.
  [[nodiscard]] int houseNumber(int pit) const { return pit < n_ ? pit + 1 : pit - n_; }

  // The start of a game (or set) with `first` to move.
  [[nodiscard]] Position start(Side first) const;
  [[nodiscard]] Position start() const { return start(firstPlayer()); }
  // rounds=traditional: the start of the round after the finished round `end`, `first` to move:
  // each player refills his houses from his seeds, rules().seeds a house from house 1 on; the houses
  // he cannot fill are burnt; the rest stays in his store. nullopt when a player cannot fill one house.
  [[nodiscard]] std::optional<Position> nextRound(const Position& end, Side first) const;
  [[nodiscard]] static bool isBurnt(const Position& pos, int pit) { return ((pos.burnt >> pit) & 1U) != 0; }
  [[nodiscard]] Side firstPlayer() const { return rules_.first == FirstPlayer::South ? Side::South : Side::North; }

  // Bit h-1 set for each legal house h of the player to move (0 when the game is over).
  [[nodiscard]] std::uint32_t legalMask(const Position& pos) const;
  [[nodiscard]] bool isLegal(const Position& pos, int house) const {
    return house >= 1 && house <= n_ && ((legalMask(pos) >> (house - 1)) & 1U) != 0;
  }
  // Seeds in the houses of a side (castles are never counted: they are always empty-able only by rule).
  [[nodiscard]] int rowSeeds(const Position& pos, Side s) const {
    const int first = s == Side::South ? 0 : n_ + 1;
    int sum = 0;
    for (int pit = first; pit < first + n_; ++pit) {
      if (castleOwnerOf(pos, pit) < 0) sum += pos.pits[static_cast<std::size_t>(pit)];
    }
    return sum;
  }
  // Seeds in every pit, stores included: always rules().totalSeeds() in a legal position.
  [[nodiscard]] int seedCount(const Position& pos) const;
  [[nodiscard]] bool mustFeed(const Position& pos) const {
    return rules_.feeding && !pos.over && rowSeeds(pos, other(pos.toMove)) == 0;
  }

  // Plays a legal move (the caller checks legality). `sink` receives the trace.
  template <class Sink>
  MoveInfo apply(Position& pos, int house, const Sink& sink) const;
  MoveInfo apply(Position& pos, int house) const { return apply(pos, house, NoTrace{}); }
  // Checks the move first: an illegal one is an error naming the legal moves, and changes nothing.
  Result<MoveInfo> play(Position& pos, int house, Trace* trace = nullptr) const;

  // Shares the seeds left in the houses equally (the odd seed, if any, to the player to move) and
  // ends the game: Al-manqala's agreed split, repetition and no-capture rules.
  void split(Position& pos, Trace* trace = nullptr) const;

  // Final scores; meaningful once pos.over.
  [[nodiscard]] Outcome outcome(const Position& pos) const;

  // "kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S" (+ "/castle=n3,-" with the castle rule); '-' once over.
  [[nodiscard]] std::string toString(const Position& pos) const;
  [[nodiscard]] std::string legalList(const Position& pos) const;

 private:
  template <class Sink>
  int sow(Position& pos, int origin, Side mover, const Sink& sink, bool& relayCut) const;
  template <class Sink>
  int dropAt(Position& pos, int pit, const Sink& sink) const;
  // Sowing and the captures where the last seed fell: a move without the end-of-turn decisions.
  template <class Sink>
  void sowAndCapture(Position& pos, int house, MoveInfo& info, unsigned& emptyAfterSowing, const Sink& sink) const;
  template <class Sink>
  int captureChain(Position& pos, int last, Side mover, unsigned rowsBefore, MoveInfo& info, const Sink& sink) const;
  // grand_slam=illegal: the move's capture would empty a row.
  [[nodiscard]] bool isGrandSlam(const Position& pos, int house) const;

  template <class Sink>
  void take(Position& pos, int pit, Side to, EventKind kind, const Sink& sink) const;
  template <class Sink>
  void finishTurn(Position& pos, Side mover, MoveInfo& info, unsigned emptyAfterSowing, const Sink& sink) const;
  template <class Sink>
  void sweep(Position& pos, Side to, Side row, const Sink& sink) const;
  [[nodiscard]] bool feeds(const Position& pos, int house) const;
  // Inline: it runs for every seed sown. Without the castle rule no position holds a castle.
  [[nodiscard]] int castleOwnerOf(const Position& pos, int pit) const {
    if (!rules_.castle) return -1;
    return pos.castle[0] == pit ? 0 : pos.castle[1] == pit ? 1 : -1;
  }

  Rules rules_;
  int n_;
  // next_[side][pit]: the pit a seed sown by `side` falls in after `pit` (stores skipped as the rules say).
  std::array<std::array<std::uint8_t, kMaxPits>, 2> next_{};
  std::array<std::uint8_t, kMaxPits> prev_{};  // the house before, for chain captures (stores skipped)
};

// Parses a position string; the rules are its first field. Errors say what is wrong.
[[nodiscard]] Result<Position> parsePosition(std::string_view text, Rules* rulesOut = nullptr);
// Parses only the board fields of a position string against known rules ("4,4,.../0,0/S").
[[nodiscard]] Result<Position> parsePositionFor(const Board& board, std::string_view fields);

}  // namespace semis

#include "rules/BoardApply.hpp"
