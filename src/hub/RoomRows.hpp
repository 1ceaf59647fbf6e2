#pragma once
// The hub keeps its rooms in the store: a room's own values (room/Records.hpp) as the store's rows,
// and rows read back as a room's values. The only place the two meet, so neither the room nor the
// store knows the other.

#include "room/Room.hpp"
#include "store/Store.hpp"

namespace semis::server {

[[nodiscard]] store::GameRow gameRow(const room::GameHeader& header);
[[nodiscard]] store::MoveRow moveRow(const room::ActionRecord& action);
// What a change writes in one transaction: its action and events, the game row's new seats,
// status and result when they changed, and `created` (a rematch) with it; `at` (unix ms).
[[nodiscard]] store::Action storeAction(const room::Room& room, const room::Change& change,
                                        std::optional<store::GameRow> created, long long at);

// Rows read back: a stored rule set, mode or action kind this build does not know is an error
// (the game cannot be loaded), never a guess.
[[nodiscard]] Result<room::GameLog> roomLog(const store::GameLog& log);
[[nodiscard]] Result<room::RemoteAction> remoteAction(const store::Action& action);

}  // namespace semis::server
