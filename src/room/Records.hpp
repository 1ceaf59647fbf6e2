#pragma once
// What a room writes and reads back, in its own terms: its actions, its numbered events and its
// game's header. The hub keeps them in the store (server/RoomRows.cpp turns them into the store's
// rows and back): a room knows nothing of rows, tables or a database.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/Messages.hpp"

namespace semis::room {

// Every action a game keeps, in the order it was played. Its name is the one stored (`kind`).
enum class ActionKind { Move, Swap, Split, Resign, Draw, Timeout, Abort, NoShow, Claim, TakeBack, Forfeit };
// move, swap, split, resign, draw, timeout, abort, no_show, claim, takeback, forfeit
[[nodiscard]] std::string_view actionKindName(ActionKind kind);
[[nodiscard]] std::optional<ActionKind> parseActionKind(std::string_view name);

// One action of a game.
struct ActionRecord {
  int seq = 0;  // 1, 2, ... within the game
  ActionKind kind = ActionKind::Move;
  Side side = Side::South;  // who acted
  int house = 0;            // the house sown; for a take back, the plies it undid
  std::string clientId;     // the client's move id (JSON text) or empty
  long long clockS = -1;    // remaining ms after the action, -1 without a clock
  long long clockN = -1;
  long long eventN = 0;  // the event that carries it
};

// One `event` message of a game, whole, with its number (1, 2, ...).
struct EventRecord {
  long long n = 0;
  std::string json;
};

// What a finished game's result decides (ratings): who won, and why (`normal`, `split`, `resign`,
// `time`, `aborted`, `left`, ...). The rest of the result (points, sets) is shown as stored.
struct ResultSummary {
  enum class Winner { South, North, Draw };
  Winner winner = Winner::Draw;
  std::string reason;
  [[nodiscard]] bool aborted() const { return reason == "aborted"; }
};

// The game as its room describes it: what is played, who holds the seats, where it stands.
struct GameHeader {
  std::string id;
  protocol::GameSpec spec;
  std::array<std::string, 2> seats;  // South, North: a player id, kAiSeat, or "" (free)
  std::string status;                // waiting | playing | over
  std::string result;                // resultJson() as text, empty while playing
  long long created = 0;             // unix ms
  long long updated = 0;             // unix ms of the last action
};

// A game whole: enough to rebuild it (its actions) and to replay it to a watcher (its events).
struct GameLog {
  GameHeader game;
  std::vector<ActionRecord> moves;
  std::vector<EventRecord> events;
};

// An action another instance stored for a game: its action (if any), its events, and the seats it
// left when it changed them; `at` (unix ms) when it was stored.
struct RemoteAction {
  std::optional<ActionRecord> move;
  std::vector<EventRecord> events;
  std::optional<std::array<std::string, 2>> seats;
  long long at = 0;
};

}  // namespace semis::room
