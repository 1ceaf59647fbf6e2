// A game forfeited by its organiser (a bots' match or tournament, docs/bots.md): the room's own
// adjudication under the game's lock, stored, then published as any transition is.

#include "hub/Hub.hpp"
#include "hub/Live.hpp"
#include "ops/Log.hpp"

namespace semis::server {

Outcome<void> Hub::forfeit(const std::string& gameId, Side loser, std::string_view why) {
  for (int attempt = 0;; ++attempt) {
    auto found = findCurrent(gameId);
    if (!found) return tl::unexpected(found.error());
    Live& live = **found;
    std::lock_guard lock(live.mu);
    auto saved = live.room->save();
    auto change = live.room->forfeit(loser, why, Clock::now());
    if (!change) return tl::unexpected(change.error());
    auto stored = commit(live, *saved, *change);
    // Another instance's action first: once more on the game as it now is.
    if (!stored && stored.error().code == ErrorCode::Conflict && attempt == 0) continue;
    if (!stored) return stored;
    pool_.cancel(gameId);
    logInfo("game_forfeited", {{"game", gameId}, {"side", protocol::sideName(loser)}, {"why", why}});
    return {};
  }
}

}  // namespace semis::server
