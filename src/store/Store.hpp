#pragma once
// The store: every player, game, action, event and result, behind one domain interface. Two
// backends, chosen by `--db` (openStore): a path or `sqlite:PATH` (the embedded default, one SQLite
// file in WAL mode) and `postgresql://...` (shared by several servers). Each call is one atomic
// unit: a game action (its move row, its numbered events and the game row's new seats, status and
// result) is written whole or not at all, so the server acknowledges only what is stored.
// Tokens are never stored: only their hash (accounts/Tokens.hpp), so a copy of the database hands
// nobody a session.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/Rules.hpp"

namespace semis::store {

// What went wrong, for the caller to decide: `busy` (locked by another process, or the server is
// unreachable: retry later), `full` (no space), `readonly`, `conflict` (a key exists already, or
// the game changed meanwhile), `corrupt`, `other`.
enum class Fault { Busy, Full, ReadOnly, Conflict, Corrupt, Other };

struct StoreError {
  Fault fault = Fault::Other;
  std::string message;
};

template <class T>
using StoreResult = tl::expected<T, StoreError>;

struct PlayerRow {
  std::string id;    // public: 10 characters of [A-Za-z0-9]
  std::string name;  // 1..24 printable characters
  long long created = 0;  // unix ms
};

struct GameRow {
  std::string id;
  std::string rules;  // toString(Rules)
  std::string mode;   // ai | friend | local
  std::string level;
  int clockSeconds = 0;
  int clockIncrement = 0;
  std::string seatS;  // a player id, "ai", or "" (free)
  std::string seatN;
  std::string status;      // waiting | playing | over | abandoned
  std::string result;      // JSON, empty while playing
  long long created = 0;   // unix ms
  long long updated = 0;   // unix ms of the last action
  bool rated = false;      // moves ratings when it ends (docs/club.md)
};

// One action of a game, in order: a sowing, the pie swap, an agreed split, a resignation...
struct MoveRow {
  int seq = 0;       // 1, 2, ... within the game
  std::string kind;  // move | swap | split | resign | draw | timeout
  int side = 0;      // 0 South, 1 North
  int house = 0;
  std::string clientId;   // the client's move id (JSON text) or empty
  long long clockS = -1;  // remaining ms after the action, -1 without a clock
  long long clockN = -1;
  long long eventN = 0;  // the event that carries it
};

struct EventRow {
  long long n = 0;   // 1, 2, ... within the game
  std::string json;  // the whole `event` message
};

struct GameUpdate {
  std::string seatS;
  std::string seatN;
  std::string status;
  std::string result;
};

// One game action, written in one transaction. `move.seq` and each event's `n` must be the next
// ones for the game: a store refuses (Fault::Conflict) a number already taken, so two writers of
// the same game can never both succeed.
struct Action {
  std::string game;
  std::optional<MoveRow> move;
  std::vector<EventRow> events;
  std::optional<GameUpdate> update;  // the game row's new seats, status and result
  std::optional<GameRow> created;    // a game this action creates (a rematch), in the same transaction
  long long at = 0;                  // unix ms: the game row's `updated`
};

// A game whole: enough to rebuild it (moves) and to replay it to a watcher (events).
struct GameLog {
  GameRow game;
  std::vector<MoveRow> moves;
  std::vector<EventRow> events;
};

class ClubStore;
class StudyStore;
class SessionStore;
class BotStore;
class ContestStore;
class AccuracyStore;

class Store {
 public:
  virtual ~Store() = default;
  Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // "sqlite" or "postgresql".
  [[nodiscard]] virtual std::string_view backend() const = 0;

  // Players. `tokenHash` is hashToken(token); a second player with the same hash or id is a Conflict.
  virtual StoreResult<void> createPlayer(const PlayerRow& player, const std::string& tokenHash) = 0;
  virtual StoreResult<std::optional<PlayerRow>> playerByToken(const std::string& tokenHash) = 0;
  virtual StoreResult<std::optional<PlayerRow>> player(const std::string& id) = 0;
  virtual StoreResult<void> renamePlayer(const std::string& id, const std::string& name) = 0;

  // Games. A new game with its first events (may be none).
  virtual StoreResult<void> createGame(const GameRow& game, const std::vector<EventRow>& events) = 0;
  virtual StoreResult<void> apply(const Action& action) = 0;
  virtual StoreResult<std::optional<GameRow>> game(const std::string& id) = 0;
  virtual StoreResult<std::optional<GameLog>> loadGame(const std::string& id) = 0;
  // Games not over (waiting or playing) in which `playerId` holds a seat.
  virtual StoreResult<long long> openGamesOf(const std::string& playerId) = 0;
  // ... their ids, oldest first, at most `limit` (a bot's gateway finds the games it must play).
  virtual StoreResult<std::vector<std::string>> openGameIdsOf(const std::string& playerId, std::size_t limit) = 0;
  // Marks `abandoned` the games still waiting or playing whose last action is older than
  // `beforeMs` (unix ms); returns how many.
  virtual StoreResult<long long> abandonIdle(long long beforeMs) = 0;
  virtual StoreResult<long long> countGames() = 0;
  // The last event number of each game, in the order asked (0 for a game without events or not
  // stored): one cheap read that tells an instance which of its copies is behind the record.
  virtual StoreResult<std::vector<long long>> lastEvents(const std::vector<std::string>& ids) = 0;

  // The club's records (store/ClubStore.hpp), in the same database.
  virtual ClubStore& club() = 0;
  // The daily challenge's records (store/StudyStore.hpp), in the same database.
  virtual StudyStore& study() = 0;
  // The accounts' sessions (store/SessionStore.hpp), in the same database.
  virtual SessionStore& sessions() = 0;
  // Bot accounts (store/BotStore.hpp), in the same database.
  virtual BotStore& bots() = 0;
  // Bots' matches and tournaments (store/ContestStore.hpp), in the same database.
  virtual ContestStore& contests() = 0;
  // Bots' accuracy against the solver (store/AccuracyStore.hpp), in the same database.
  virtual AccuracyStore& accuracy() = 0;

  // Housekeeping off the request path, called by the server every 200 ms from its own thread
  // (SQLite: the WAL checkpoint on a second connection; PostgreSQL: nothing).
  virtual StoreResult<void> maintain() = 0;
};

struct OpenOptions {
  // How long a call waits for a lock held by another process before answering Fault::Busy. Short:
  // the server answers "busy, retry" instead of freezing while a backup holds the database.
  int busyTimeoutMs = 250;
  // Only to upgrade an SQLite file of schema version 1 (plain tokens, from before versions): its
  // tokens' hashes and new player ids, as the accounts module makes them (the server passes
  // accounts::hashToken and accounts::randomId(10); the store does not depend on accounts/). Without
  // them such a file is refused, unchanged.
  std::function<std::string(std::string_view token)> hashToken;
  std::function<std::string()> newId;
};

// `where`: a path or `sqlite:PATH` (SQLite), or `postgresql://...` / `postgres://...` (PostgreSQL).
// Creates the schema or migrates it to the newest version (a `schema_version` table). Fails when the
// database cannot be written (read-only file or directory, a full disk), never later on the first move.
[[nodiscard]] StoreResult<std::unique_ptr<Store>> openStore(const std::string& where, const OpenOptions& options = {});

[[nodiscard]] const char* faultName(Fault fault);

}  // namespace semis::store
