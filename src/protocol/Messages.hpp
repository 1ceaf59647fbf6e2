#pragma once
// The WebSocket protocol's client messages (docs/protocol.md): parsed and validated before the server
// acts on them, so a malformed message is answered with a clear `error` and changes nothing.

#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

#include "protocol/Errors.hpp"
#include "protocol/Json.hpp"
#include "rules/Rules.hpp"

namespace semis::protocol {

// Frames larger than this are answered with `too_large` and ignored.
inline constexpr std::size_t kMaxMessageBytes = 4096;

enum class MsgType {
  Join,
  Leave,
  Move,
  Resign,
  OfferDraw,
  AcceptDraw,
  DeclineDraw,
  Swap,
  Rematch,
  Ping,
  Create,
  Hello,
  Hint,  // {"type":"hint","game":ID}: the engine's recommendation for the side to move
  // The club (docs/club.md; ClubMessages.cpp).
  Seek,
  CancelSeek,
  AcceptSeek,
  Lobby,
  Invite,
  Decline,
  Abort,
  Claim,
  TakeBack  // {"type":"takeback","game":ID}: undo the player's last turn and the computer's reply
};

struct ProtocolError {
  ErrorCode code = ErrorCode::BadMessage;  // BadMessage, UnknownType or TooLarge
  std::string message;
  Json id;  // the move id it answers, or null
};

enum class Mode { Ai, Friend, Local };

struct ClockSpec {
  int seconds = 0;    // each player's time; 0: no clock
  int increment = 0;  // seconds added after each turn
  [[nodiscard]] bool enabled() const { return seconds > 0; }
};

// What `POST /api/games` and the `create` message ask for.
struct GameSpec {
  Rules rules;
  Mode mode = Mode::Ai;
  std::string level = "medium";
  std::string side = "S";  // S, N or random
  ClockSpec clock;
  bool rated = false;  // set by the club (pairing, rated invitations), never by a `create`
  std::string bot;     // mode "bot": the bot's name (a Friend game whose other seat it takes)
};

// The club's fields: a seek's options, its id, the lobby switch, the invited friend.
struct ClubRequest {
  std::string seek;      // cancel_seek, accept_seek
  std::string friendId;  // invite
  bool on = false;       // lobby
  bool rated = false;    // seek, invite
  bool quick = true;     // seek
  int range = 0;         // seek: the widest rating difference accepted, 0 any
};

struct ClientMessage {
  MsgType type = MsgType::Ping;
  std::string game;  // game id, when the type names one
  std::optional<long long> lastEvent;
  Json id;  // client's move id (string or integer), echoed in ack/error
  int house = 0;
  std::optional<long long> after;
  Json t;                        // ping payload, echoed
  std::optional<GameSpec> spec;  // create, seek, invite
  ClubRequest club;
};

// Reads the club's messages' fields into `m` (its type set); an error message, or "" when valid.
[[nodiscard]] std::string parseClubFields(const Json& j, ClientMessage& m);
// Public ids (players, seeks): 1..32 of [A-Za-z0-9].
[[nodiscard]] bool validPublicId(std::string_view id);

[[nodiscard]] tl::expected<ClientMessage, ProtocolError> parseClientMessage(std::string_view text);
[[nodiscard]] Result<GameSpec> parseGameSpec(const Json& j);
[[nodiscard]] const char* modeName(Mode m);
// The WebSocket `error` message, and an HTTP API error's body {"error":{"code","message"}}.
[[nodiscard]] Json errorMessage(ErrorCode code, std::string_view message, const Json& id = nullptr);
[[nodiscard]] Json httpErrorBody(ErrorCode code, std::string_view message);
// Game ids are short random strings of [A-Za-z0-9]: anything else is rejected before any lookup.
[[nodiscard]] bool validGameId(std::string_view id);

}  // namespace semis::protocol
