#pragma once
// The game store: every player, game, move, event and result in one SQLite file in WAL mode.
// The server writes a move (with its events) in one transaction before it acknowledges it.
// synchronous=NORMAL: in WAL mode a commit is in the OS once the call returns, so killing the
// process (kill -9) at any moment loses no committed move; only a power cut could lose the last
// commits, and FULL's fsync per move would cost far more than the moves themselves.

#include <memory>
#include <string>
#include <vector>

#include "rules/Rules.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace semis::store {

struct PlayerRow {
  std::string token;
  std::string id;
  std::string name;
};

struct GameRow {
  std::string id;
  std::string rules;       // toString(Rules)
  std::string mode;        // ai | friend | local
  std::string level;
  int clockSeconds = 0;
  int clockIncrement = 0;
  std::string seatS;       // player token, "ai", or "" (free)
  std::string seatN;
  std::string status;      // waiting | playing | over
  std::string result;      // JSON, empty while playing
  long long created = 0;   // unix ms
};

// One action of a game, in order: a sowing, the pie swap, an agreed split, a resignation...
struct MoveRow {
  std::string game;
  int seq = 0;
  std::string kind;        // move | swap | split | resign | draw | timeout
  int side = 0;            // 0 South, 1 North
  int house = 0;
  std::string clientId;    // the client's move id (JSON text) or empty
  long long clockS = -1;   // remaining ms after the action, -1 without a clock
  long long clockN = -1;
  long long eventN = 0;    // the event that carries it
};

struct EventRow {
  long long n = 0;
  std::string json;        // the whole `event` message
};

class Store {
 public:
  static Result<std::unique_ptr<Store>> open(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  Result<void> begin();
  Result<void> commit();
  void rollback();

  Result<void> putPlayer(const PlayerRow& p);
  Result<std::vector<PlayerRow>> players();
  Result<void> insertGame(const GameRow& g);
  Result<void> updateGame(const std::string& id, const std::string& seatS, const std::string& seatN,
                          const std::string& status, const std::string& result);
  Result<void> insertMove(const MoveRow& m);
  Result<void> insertEvent(const std::string& game, const EventRow& e);

  Result<std::vector<GameRow>> unfinishedGames();
  Result<std::vector<MoveRow>> moves(const std::string& game);
  Result<std::vector<EventRow>> events(const std::string& game);
  Result<long long> countGames();

  // Copies the write-ahead log into the database file. Commits never do it themselves
  // (wal_autocheckpoint=0): its fsync would stall the move that happened to trigger it. The server
  // calls this from its own thread, on a second connection, so it never holds up a move.
  Result<void> checkpoint();

 private:
  explicit Store(sqlite3* db) : db_(db) {}
  Result<void> exec(const char* sql);
  Result<sqlite3_stmt*> prepare(const char* sql);
  Error lastError(const char* what) const;

  sqlite3* db_;
  sqlite3* checkpointer_ = nullptr;
  std::vector<std::pair<const char*, sqlite3_stmt*>> stmts_;
};

}  // namespace semis::store
