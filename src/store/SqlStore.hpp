#pragma once
// What the store's shared SQL implementation (SqlStore.cpp) lends its club (SqlClub.cpp): a games
// row read back, and a game written with its first events inside a caller's transaction (a pairing
// creates its game in the transaction that marks the seeks).

#include <memory>
#include <string>
#include <vector>

#include "store/ClubStore.hpp"
#include "store/SqlRunner.hpp"

namespace semis::store {

// The games columns gameRow reads, in its order (prefix them with a table alias where needed).
inline constexpr const char* kGameColumns =
    "id,rules,mode,level,clock_seconds,clock_increment,seat_s,seat_n,status,result,created,updated,rated";

// A games row read from column `c` on, in kGameColumns' order.
[[nodiscard]] GameRow gameRow(const SqlRow& row, std::size_t c = 0);

// Inserts a game row and its first events in the caller's Write transaction.
StoreResult<void> insertGame(SqlTx& tx, const GameRow& game, const std::vector<EventRow>& events);

[[nodiscard]] std::unique_ptr<ClubStore> makeSqlClub(SqlRunner& runner);

}  // namespace semis::store
