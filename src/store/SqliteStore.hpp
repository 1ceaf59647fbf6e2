#pragma once
// The embedded backend: one SQLite file in WAL mode, used by one server process from many threads.
// Writes go through one connection under a mutex (a transaction never interleaves with another
// thread's statements); reads take a second connection, so a reader never waits for a writer (WAL
// readers see the last commit); the checkpoint runs on a third, off the request path.
// synchronous=NORMAL: in WAL mode a commit is in the OS once the call returns, so killing the
// process (kill -9) at any moment loses no committed action; only a power cut could lose the last
// commits, and FULL's fsync per action would cost far more than the actions themselves.

#include <sqlite3.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "store/ClubStore.hpp"
#include "store/SessionStore.hpp"
#include "store/StudyStore.hpp"
#include "store/Store.hpp"

namespace semis::store {

// One SQLite connection, its cached statements and its busy deadline; used only under `mutex`.
struct SqliteConn {
  sqlite3* db = nullptr;
  std::mutex mutex;
  std::unordered_map<const char*, sqlite3_stmt*> statements;  // keyed by the SQL literal's address
  int busyTimeoutMs = 250;
  std::chrono::steady_clock::time_point busySince;

  ~SqliteConn();
  StoreResult<sqlite3_stmt*> prepare(const char* sql);
  // A script of statements without parameters (the schema).
  StoreResult<void> exec(const char* sql);
  // One cached statement without parameters and without rows (BEGIN, COMMIT...).
  StoreResult<void> run(const char* sql);
  // Ends the open transaction, if any, keeping nothing.
  void rollback();
  [[nodiscard]] StoreError error(int rc, const std::string& what) const;
};

// Maps an SQLite result code to the store's fault.
[[nodiscard]] Fault sqliteFault(int rc);

// Inserts a game row and its first events inside the writer's open transaction.
using SqliteGameWriter = std::function<StoreResult<void>(const GameRow&, const std::vector<EventRow>&)>;
// The club's records on the same connections (SqliteClub.cpp).
std::unique_ptr<ClubStore> makeSqliteClub(SqliteConn& writer, SqliteConn& reader, SqliteGameWriter insertGame);
// One statement of the shared study store (store/StudyStore.hpp) on the writer (in a transaction)
// or the reader (SqliteClub.cpp).
StoreResult<SqlRows> sqliteCall(SqliteConn& writer, SqliteConn& reader, bool write, const char* sql,
                                const std::vector<std::string>& params);

class SqliteStore final : public Store {
 public:
  static StoreResult<std::unique_ptr<Store>> open(const std::string& path, const OpenOptions& options);
  ~SqliteStore() override;

  [[nodiscard]] std::string_view backend() const override { return "sqlite"; }
  StoreResult<void> createPlayer(const PlayerRow& player, const std::string& tokenHash) override;
  StoreResult<std::optional<PlayerRow>> playerByToken(const std::string& tokenHash) override;
  StoreResult<std::optional<PlayerRow>> player(const std::string& id) override;
  StoreResult<void> renamePlayer(const std::string& id, const std::string& name) override;
  StoreResult<void> createGame(const GameRow& game, const std::vector<EventRow>& events) override;
  StoreResult<void> apply(const Action& action) override;
  StoreResult<std::optional<GameRow>> game(const std::string& id) override;
  StoreResult<std::optional<GameLog>> loadGame(const std::string& id) override;
  StoreResult<long long> openGamesOf(const std::string& playerId) override;
  StoreResult<long long> abandonIdle(long long beforeMs) override;
  StoreResult<long long> countGames() override;
  StoreResult<std::vector<long long>> lastEvents(const std::vector<std::string>& ids) override;
  StoreResult<void> maintain() override;
  ClubStore& club() override { return *club_; }
  StudyStore& study() override { return *study_; }
  SessionStore& sessions() override { return *sessions_; }

 private:
  SqliteStore() = default;
  StoreResult<void> insertGame(const GameRow& game);
  StoreResult<void> insertEvent(const std::string& game, const EventRow& event);
  StoreResult<std::optional<GameRow>> readGame(const std::string& id);
  StoreResult<std::optional<PlayerRow>> readPlayer(const char* sql, const std::string& key);
  StoreResult<long long> readCount(const char* sql, const std::string& key);

  SqliteConn writer_;
  SqliteConn reader_;
  SqliteConn checkpointer_;
  std::unique_ptr<ClubStore> club_;
  std::unique_ptr<StudyStore> study_;
  std::unique_ptr<SessionStore> sessions_;
};

// Brings the schema to the newest version, one step a transaction (SqliteSchema.cpp).
StoreResult<void> migrateSqlite(SqliteConn& conn);
// The schema version the file holds: 0 for an empty file, 1 for the unversioned schema.
StoreResult<int> sqliteSchemaVersion(SqliteConn& conn);
// Registers semis_hash_token(token) and semis_new_id() (accounts/Tokens.hpp) for step 2.
int registerSqliteFunctions(sqlite3* db);
// The newest schema version.
inline constexpr int kSchemaVersion = 5;

}  // namespace semis::store
