#pragma once
// One game's logic, pure: seats, moves, sets, clocks, draws and splits, the pie swap, rematches and
// AI turns, with no store, no network and no clock of its own (every call is given `now`). The hub
// serializes the calls on one game, writes each Change to the store, and only then publishes it;
// if the write fails it restores the room to what it was (save() / restore()), so memory always
// equals the database.

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/Messages.hpp"
#include "room/Records.hpp"
#include "rules/Game.hpp"

namespace semis::room {

using protocol::ErrorCode;
using protocol::Json;
using TimePoint = std::chrono::steady_clock::time_point;
using Message = std::shared_ptr<const std::string>;

inline const std::string kAiSeat = "ai";

// A refusal: nothing changed. `code` is the protocol's error code; `n` the event a `stale` names.
struct Refusal {
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::optional<long long> n;
};

template <class T>
using Outcome = tl::expected<T, Refusal>;

// What a transition wrote: the action (if any), the numbered events (whole `event` messages), and
// whether the game's header (seats, status, result) changed. The hub stores it, then publishes.
struct Change {
  std::optional<ActionRecord> move;
  std::vector<EventRecord> events;
  bool gameRow = false;
  std::optional<long long> ack;  // the event a move's `ack` names
  std::string rematch;           // the rematch game this change creates, if any
};

// A seat's holder: a player id, kAiSeat, or empty while free; his name as the room shows it.
struct Seat {
  std::string player;
  std::string name;
  int connected = 0;         // connections of this player watching the game
  long long awaySinceMs = 0;  // unix ms his last connection closed (or the game was loaded)
};

class Room {
 public:
  Room(std::string id, protocol::GameSpec spec, long long createdMs);

  // A game rebuilt from its stored log (moves replayed, events reloaded, move ids and clocks
  // restored). `names` are the seats' display names. `sinceLastMs`: the time since the last stored
  // action (the header's `updated`), charged to the side to move, so that a game another instance
  // played, or one reloaded after a crash, keeps its true clock.
  static Result<std::unique_ptr<Room>> fromLog(const GameLog& log, std::array<std::string, 2> names,
                                               TimePoint now, long long sinceLastMs = 0);
  // The game as stored: its header (as of now), every action and event. `log()` plus an action another
  // instance stored, given to fromLog(), is this game after that action.
  [[nodiscard]] GameLog log() const;
  // Applies an action another instance stored for this game (its events must be the next ones),
  // as fromLog() of log() plus the action would, without replaying the game. `names`: the seats'
  // names where the action seats someone new. On a refusal the room must be reloaded.
  Outcome<void> follow(const RemoteAction& action, const std::array<std::string, 2>& names, TimePoint now,
                       long long sinceLastMs);

  // Seats the players of a new game (a free seat has an empty player); starts the clock when full.
  void seatPlayers(std::array<Seat, 2> seats, TimePoint now);
  // The game's header as of now (as created, for a new game).
  [[nodiscard]] GameHeader header() const;

  // Transitions: each changes the room and returns what to store, or refuses and changes nothing.
  Outcome<Change> take(const std::string& player, const std::string& name, TimePoint now);  // a friend's free seat
  Outcome<Change> move(const std::string& player, int house, const Json& clientId, std::optional<long long> after,
                       TimePoint now);
  Outcome<Change> aiMove(std::size_t plies, int house, TimePoint now);
  Outcome<Change> resign(const std::string& player, TimePoint now);
  Outcome<Change> offerDraw(const std::string& player, TimePoint now);
  Outcome<Change> answerDraw(const std::string& player, bool accept, TimePoint now);
  Outcome<Change> swap(const std::string& player, TimePoint now);
  // Both players asked: `rematchId` is the new game's id, whose spec and seats rematchSpec() gives.
  Outcome<Change> rematch(const std::string& player, const std::string& newId);
  // A flag that fell by `now`, if any.
  std::optional<Change> flag(TimePoint now);
  // Fair play (RoomClub.cpp, docs/club.md). abort: a game between two people ends unrated while a
  // side has not made its first move. claim: in a rated game whose opponent has had no connection
  // for the claim delay, the claimer wins (reason `left`).
  // Only a player who has played (so was there) and left may be claimed against: one who never made
  // his first move is a no-show, and the game is aborted, unrated, once his first move is overdue.
  Outcome<Change> abort(const std::string& player, TimePoint now);
  Outcome<Change> claim(const std::string& player, long long nowMs, TimePoint now);
  // The organiser's adjudication (a bots' match or tournament, contests/): `loser` forfeits the
  // game (reason `forfeit`, the other side wins), as if he had resigned. `why` is a code for the
  // event (e.g. "stalled"). Refused when the game is over or not full.
  Outcome<Change> forfeit(Side loser, std::string_view why, TimePoint now);
  // Take back against the computer (RoomTakeBack.cpp): in a casual game against the AI, on the
  // player's turn, his own last turn and the computer's reply are undone (the current set only).
  // Stored as a `takeback` action whose `house` is the number of plies undone; a reload replays it.
  Outcome<Change> takeBack(const std::string& player, TimePoint now);
  // How many plies a take back by `side` would undo now, 0 when none may be.
  [[nodiscard]] int takeBackPlies(Side side) const;
  // `alsoMoved`: as if that side had moved too (a move's event is made before its row is kept).
  [[nodiscard]] bool canAbort(std::optional<Side> alsoMoved = std::nullopt) const;
  // From when (unix ms) the player of seat 0 (South) or 1 may be claimed against, or nothing.
  [[nodiscard]] std::optional<long long> claimAt(std::size_t seat) const;
  void setClaimDelay(long long ms) { claimDelayMs_ = ms; }
  // When the side to move's first move is overdue, in a game between two people; or nothing.
  [[nodiscard]] std::optional<TimePoint> noShowAt() const;
  void setNoShowDelay(long long ms) { noShowDelayMs_ = ms; }
  // The next time the game ends by itself (a flag, a no-show), and that end once `now` is past it.
  [[nodiscard]] std::optional<TimePoint> deadline() const;
  std::optional<Change> expire(TimePoint now);

  // The undo of a transition whose Change could not be stored.
  struct Saved;
  [[nodiscard]] std::shared_ptr<Saved> save() const;
  void restore(const Saved& saved);

  // The side `player` plays now (the side to move in a local game), or nothing.
  [[nodiscard]] std::optional<Side> seatOf(const std::string& player) const;
  [[nodiscard]] bool holdsSeat(const std::string& player) const;
  [[nodiscard]] bool over() const { return adjudication_.has_value() || game_->over(); }
  [[nodiscard]] bool full() const { return !seats_[0].player.empty() && !seats_[1].player.empty(); }
  [[nodiscard]] std::string status() const;
  // The AI must move now.
  [[nodiscard]] bool aiToMove() const;
  // The side to move's time left (ms), or -1 without a clock: what the AI's budget must fit.
  [[nodiscard]] long long clockLeftToMove(TimePoint now) const;
  // Who the AI's work is for (the human seat), for the pool's fairness.
  [[nodiscard]] std::string aiOwner() const;
  // When the side to move's flag falls, if a clock runs.
  [[nodiscard]] std::optional<TimePoint> flagAt() const;
  // The rematch's spec and seats (sides swapped) once rematch() has given its id.
  [[nodiscard]] protocol::GameSpec rematchSpec() const;
  [[nodiscard]] std::array<Seat, 2> rematchSeats() const;

  // The seats `player` holds show `name` from now on (renamed, deleted); true when one changed.
  bool renameSeat(const std::string& player, const std::string& name);
  // Presence: a player's connection count as the hub tracks it; true when a seat's state changed.
  // `nowMs` (unix ms) is when, for the claim countdown of a player who left.
  bool connect(const std::string& player, int delta, long long nowMs = 0);

  // Views (RoomJson.cpp).
  [[nodiscard]] Json stateJson(const std::string& player, std::size_t spectators, TimePoint now) const;
  [[nodiscard]] Json seatsJson() const;
  [[nodiscard]] Json resultJson() const;
  [[nodiscard]] Json clockJson(TimePoint now) const;
  [[nodiscard]] Json summaryJson(std::size_t spectators) const;  // the live list's line
  [[nodiscard]] std::string record() const;

  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] const protocol::GameSpec& spec() const { return spec_; }
  [[nodiscard]] const Game& game() const { return *game_; }
  [[nodiscard]] const std::array<Seat, 2>& seats() const { return seats_; }
  [[nodiscard]] long long created() const { return created_; }
  [[nodiscard]] const std::vector<Message>& events() const { return events_; }
  [[nodiscard]] long long lastEvent() const { return static_cast<long long>(events_.size()); }

 private:
  Change stage(std::optional<ActionRecord> move, std::vector<Json> events, bool gameRow);
  ActionRecord action(ActionKind kind, Side side, int house, const std::string& clientId) const;
  Outcome<Change> adjudicate(std::optional<Side> winner, std::string_view reason, ActionKind kind, Side actor,
                             Json extraEvent, TimePoint now);
  Outcome<Change> play(Side side, int house, const Json& clientId, const std::string& player, TimePoint now);
  Outcome<Change> split(Side answerer, TimePoint now);
  bool rebuild();  // false when a stored action no longer replays
  bool replay(const ActionRecord& m);      // one stored action on game_ (RoomLog.cpp)
  bool replayOne(const ActionRecord& m);   // the same, for an action that is not a take back
  // The actions that still count: every action, less the moves later take backs undid.
  // `whole` turns false when a take back names more moves than stand before it.
  [[nodiscard]] std::vector<const ActionRecord*> standing(bool* whole = nullptr) const;
  void noteAction(const ActionRecord& m);  // its move id, position event and clocks
  void absorb(const std::string& eventJson); // an event appended, and what it says of offers
  void startClock(TimePoint now);
  [[nodiscard]] long long clockLeft(Side s, TimePoint now) const;
  [[nodiscard]] Outcome<Side> player(const std::string& player, const char* what) const;
  [[nodiscard]] bool hasPlayed(std::size_t seat) const;  // a move or a swap of his in this game

  std::string id_;
  protocol::GameSpec spec_;
  std::string rulesText_;
  long long created_ = 0;
  std::unique_ptr<Game> game_;
  std::array<Seat, 2> seats_;
  std::vector<ActionRecord> actions_;  // everything played, in order (to rebuild game_)
  std::optional<Json> adjudication_;     // {"winner","reason"} for resign, time, agreement
  std::vector<Message> events_;          // event n is events_[n-1]
  std::optional<Side> drawOffer_;
  std::array<bool, 2> rematchAsked_{false, false};
  std::string rematchId_;
  std::unordered_map<std::string, long long> moveIds_;  // player id + client id -> its event
  long long lastPositionEvent_ = 0;                     // the last event that changed the position
  // Clock: milliseconds left at turnStart_; the side to move's runs from turnStart_.
  std::array<long long, 2> remaining_{0, 0};
  TimePoint turnStart_{};
  bool clockRunning_ = false;
  long long claimDelayMs_ = 30000;
  long long noShowDelayMs_ = 60000;
};

}  // namespace semis::room
