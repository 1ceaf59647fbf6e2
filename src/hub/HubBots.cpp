// What the bots' gateway reads of a game (docs/bots.md): a typed copy, under the game's lock.

#include "hub/ClusterLink.hpp"
#include "hub/Hub.hpp"
#include "hub/Live.hpp"

namespace semis::server {

Outcome<GameTurn> Hub::turnOf(const std::string& gameId) {
  // The copy held here: on a cluster it follows the bus (the bot's connection watches the game)
  // and the tick's catch-up compares it with the record when the bus is silent.
  auto found = find(gameId);
  if (!found) return tl::unexpected(found.error());
  Live& live = **found;
  std::lock_guard lock(live.mu);
  const room::Room& room = *live.room;
  GameTurn turn;
  turn.id = room.id();
  turn.rules = room.spec().rules;
  turn.position = room.game().position();
  turn.plies = room.game().plies().size();
  turn.over = room.over();
  turn.rated = room.spec().rated;
  for (std::size_t s = 0; s < 2; ++s) {
    const room::Seat& seat = room.seats()[s];
    turn.players[s] = seat.player;
    // The computer's seat has no player name: a bot is told which level it meets.
    turn.names[s] = seat.player == room::kAiSeat ? "Semis " + room.spec().level : seat.name;
    turn.present[s] = seat.connected > 0 || seat.player == room::kAiSeat;
    turn.claimAt[s] = room.claimAt(s);
  }
  return turn;
}

void Hub::announcePresent(const std::string& player, long long ttlMs, bool wait) {
  if (link_) link_->markPresent(player, ttlMs, wait);
}

void Hub::announceAbsent(const std::string& player) {
  if (link_) link_->markAbsent(player);
}

bool Hub::presentElsewhere(const std::string& player) { return link_ && link_->presentElsewhere(player); }

std::vector<std::string> Hub::presentEverywhere(std::size_t limit) {
  return link_ ? link_->presentPlayers(limit) : std::vector<std::string>{};
}

}  // namespace semis::server
