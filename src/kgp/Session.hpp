#pragma once
// One bot's KGP connection as a state machine, pure: every call is given the time (nowMs) and
// returns what to send and what happened; the caller does the I/O, the clocks and the games.
//
// What the real clients accept (KWARC/kalah-game, read client by client), and so what Semis sends:
// - pykgp (client/pykgp/kgp.py) quotes every argument it sends (`mode "freeplay"`,
//   `set "info:name" "x"`), ids odd from 1. It ignores any command it does not know (set, ok,
//   error, pong). `kgp` must carry exactly three integers or it never sends `mode`; a `state` needs
//   an id (it answers `@id move`, and an id of 0 or none loses the reference) and a board of at
//   least 5 numbers; `stop` needs the state's id as reference. Over WebSocket it takes each frame as
//   one line: send one line per frame. After `goodbye` its process does not exit (a sender thread
//   blocks): a test must kill it.
// - jkgp (client/jkgp, Java) is the strict one: a line it cannot match, or a command other than
//   kgp, state, stop, set, ok, error, ping, goodbye, ends its session. `set` must have exactly two
//   arguments (it reads info:name and time:mode only when their values are quoted, time:clock only
//   as a bare integer, and ignores other options); `error` exactly one; `state` one board whose
//   bot row is not empty. Worse, it handles `error` by printing to a debug stream that is null
//   unless the agent was built with printNetwork=true (ExampleAgent sets it): so an `error` may
//   crash a jkgp bot (seen: a NullPointerException ends its run()). Semis sends `error` only for
//   the bot's own faults, which jkgp's checks (legal moves only, well-formed lines) never make. It
//   sends `mode freeplay` bare, values quoted, each line in one WebSocket frame ending in "\n".
//   A race in jkgp (it queues the search before it records the state) drops the moves of a search
//   that returns at once: it then yields without a move and Semis plays for it.
// - kgpc (client/kgpc, Go) reads lines from a byte stream on either transport and ignores unknown
//   commands; `error` must have one argument (or it logs). It writes each token of a line with its
//   own write, so over WebSocket each token arrives in its own frame (LineReader joins them), and
//   its writes are not serialised across goroutines: a `pong` written while a `move` is being
//   written can interleave with it. So Semis pings a bot only between turns, and at a turn's end
//   (when the bot said nothing during it) pings before `stop`, as go-kgp does. It sends
//   `set "auth:token" ...` first, then `info:name`, `info:author` (singular), `mode "freeplay"`.
// Hence Semis sends: `kgp 1 0 1`; `N@M ok` to the mode; `set game:id|game:opponent|game:uri "..."`
// (values always quoted) when a new game starts; `N state <...>`; `N@S stop`; `N ping`; `N@M pong`
// to a bot's ping; `N[@M] error "code: message"` (always one quoted argument); `goodbye`. Its own
// ids are even from 2, as go-kgp's. The transport adds "\r\n" and sends one line per frame.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kgp/Command.hpp"
#include "rules/Board.hpp"

namespace semis::kgp {

// Why the session sent `error` (the message starts with the wire name).
enum class SessionError : std::uint8_t {
  BadLine,          // parseLine or the LineReader refused the line (its own code follows)
  BadArguments,     // a known command with the wrong arguments
  UnknownCommand,   // after `mode`: what go-kgp answers too
  UnsupportedMode,  // closes
  DuplicateMode,    // closes
  NoMode,           // no `mode` in time: closes
  BadToken,         // the caller refused the token: closes
  NoState,          // a move or yield naming no state the session sent
  IllegalMove,      // out of range or not legal: not recorded
  NoPong,           // closes
  Flood,            // too many bad lines in a row: closes
};
[[nodiscard]] std::string_view wireName(SessionError code);

struct Turn {
  std::string gameId;    // `set game:id`: the session repeats game:* only when it changes
  std::string opponent;  // `set game:opponent`
  std::string uri;       // `set game:uri`
  Rules rules;
  Position position;     // the bot's side is position.toMove
  std::int64_t moveTimeMs = 5000;
};

// Actions for the caller.
struct Authenticate {  // check the token, then call authenticated()
  std::string token;
};
struct Ready {  // mode freeplay chosen and no token check pending: the bot may be offered turns
  bool authenticated = false;
};
struct Decided {  // a turn ended: play `house` (of the bot's side) in game `gameId`
  std::string gameId;
  int house = 0;
  bool byBot = true;   // false: the bot sent no legal move and the session chose (lowest legal house)
  std::string comment; // the bot's `set info:comment` since the turn's state, if any
};
struct Unresponsive {};  // no pong in time (the session closes too)
using Action = std::variant<Authenticate, Ready, Decided, Unresponsive>;

struct Output {
  std::vector<std::string> lines;  // to send in order, each without terminator
  std::vector<Action> actions;
  bool close = false;  // close the connection after sending the lines
  std::string closeReason;
};

class Session {
 public:
  struct Config {
    std::int64_t pingIntervalMs = 15000;  // between turns; 0: no periodic ping
    std::int64_t pongTimeoutMs = 10000;
    std::int64_t modeTimeoutMs = 30000;   // from the greeting to `mode`
    int maxBadLines = 100;                // in a row
  };

  explicit Session(Config config) : config_(config) {}

  // The greeting. Call once, first.
  Output start(std::int64_t nowMs);
  // A complete line (LineReader's output), or a line LineReader refused.
  Output onLine(std::string_view line, std::int64_t nowMs);
  Output onLineError(const KgpError& error, std::int64_t nowMs);
  // The caller's answer to Authenticate.
  Output authenticated(bool ok, std::int64_t nowMs);
  // Offers a turn: an error (nothing sent) when not ready, in a turn already, or the position is not
  // the bot's to play.
  Result<Output> offerTurn(const Turn& turn, std::int64_t nowMs);
  // Ends the turn without a decision (the game ended elsewhere): sends `stop`.
  Output cancelTurn(std::int64_t nowMs);
  // Deadlines: the turn's, pings, the mode's. Call at nextDeadline() (calling early is harmless).
  Output tick(std::int64_t nowMs);
  [[nodiscard]] std::optional<std::int64_t> nextDeadline() const;
  // The server ends the session (shutdown): `goodbye`.
  Output close(std::string reason);

  [[nodiscard]] bool closed() const { return closed_; }
  [[nodiscard]] bool ready() const { return freeplay_ && !authPending_ && !closed_; }
  [[nodiscard]] bool inTurn() const { return turn_.has_value(); }
  [[nodiscard]] bool isAuthenticated() const { return authOk_; }
  [[nodiscard]] const std::string& token() const { return token_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& authors() const { return authors_; }
  [[nodiscard]] const std::string& description() const { return description_; }
  [[nodiscard]] int errorsSent() const { return errorsSent_; }

 private:
  struct ActiveTurn {
    std::string gameId;
    Board board;
    Position position;
    std::uint64_t stateId = 0;
    std::int64_t deadlineMs = 0;
    std::optional<int> move;
    std::string comment;
    bool heard = false;  // the bot sent a line since the state
  };

  std::uint64_t nextId();
  std::uint64_t send(Output& out, Command cmd);
  void sendError(Output& out, std::optional<std::uint64_t> ref, SessionError code, std::string_view message);
  void fault(Output& out, std::optional<std::uint64_t> ref, SessionError code, std::string_view message);
  void shut(Output& out, std::optional<std::uint64_t> ref, SessionError code, std::string_view message);
  void endTurn(Output& out, bool decide, std::int64_t nowMs);
  void maybeReady(Output& out);
  void onSet(Output& out, const Command& cmd);
  void onMode(Output& out, const Command& cmd);
  void onMoveOrYield(Output& out, const Command& cmd, std::int64_t nowMs);

  Config config_;
  std::uint64_t lastId_ = 0;
  bool started_ = false;
  bool closed_ = false;
  bool freeplay_ = false;
  bool authPending_ = false;
  bool authOk_ = false;
  std::string token_, name_, authors_, description_, comment_;
  std::optional<ActiveTurn> turn_;
  std::string lastGameId_;
  bool sentGame_ = false;
  std::int64_t modeDeadlineMs_ = 0;
  std::int64_t nextPingMs_ = 0;
  std::optional<std::int64_t> pongDeadlineMs_;
  int badInARow_ = 0;
  int errorsSent_ = 0;
};

}  // namespace semis::kgp
