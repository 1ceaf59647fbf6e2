#pragma once
// The club's records on PostgreSQL (PgClub.cpp), built by PgStore over its own pooled calls.

#include <functional>
#include <memory>

#include "store/ClubStore.hpp"
#include "store/PgPool.hpp"

namespace semis::store {

// Runs `body` on a leased connection: in a transaction (write) or a read-only snapshot.
using PgRun = std::function<StoreResult<void>(bool write, const std::function<StoreResult<void>(PGconn*)>& body)>;
// Inserts a game row and its first events on the connection of an open transaction.
using PgGameWriter = std::function<StoreResult<void>(PGconn*, const GameRow&, const std::vector<EventRow>&)>;

[[nodiscard]] std::unique_ptr<ClubStore> makePgClub(PgRun run, PgGameWriter insertGame);
// A games row read from column `c` on: id, rules, mode, level, clock_seconds, clock_increment, seat_s,
// seat_n, status, result, created, updated, rated.
[[nodiscard]] GameRow pgGameRow(const PgResult& r, int row, int c = 0);

}  // namespace semis::store
