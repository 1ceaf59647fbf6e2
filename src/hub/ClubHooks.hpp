#pragma once
// What the hub asks of the club (server/Club.hpp) without knowing it: the club's messages, a
// connection gone (its seeks go with it), a rated game over (ratings move), and the club's fields
// of a game's state (ratings). Set with Hub::setClub; without one the club's messages are refused.

#include <memory>

#include "protocol/Messages.hpp"

namespace semis::server {

class Peer;

class ClubHooks {
 public:
  virtual ~ClubHooks() = default;
  virtual void onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) = 0;
  virtual void detached(Peer* peer) = 0;
  // A rated game is over (called by each instance that sees it end or loads it ended; the store
  // keeps one result). Called with the game's lock held: queue it, do not rate it here.
  virtual void ratedGameOver(const std::string& gameId) = 0;
  // Adds `key`, each human seat's `rating` and, once rated, `ratings` to a game's state.
  virtual void decorate(protocol::Json& state) = 0;
};

}  // namespace semis::server
