#pragma once
// Friends, blocks and invitations (docs/club.md). A friendship is one way (I follow you); a block
// either way stops invitations and pairing. An invitation is a game made at once with both players
// seated (so no one else can take the friend's seat), announced to the friend on every connection
// he has; declining it aborts it (a game neither side has moved in may always be aborted).

#include <string>

#include "hub/Hub.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

class Friends {
 public:
  Friends(store::Store& store, Hub& hub, Players& players)
      : store_(store), club_(store.club()), hub_(hub), players_(players) {}

  // HTTP: {friends, blocked}; add/remove/block/unblock answer the refusal's code or "".
  [[nodiscard]] std::optional<Json> list(const std::string& player);
  Outcome<Json> add(const Identity& me, const std::string& username);
  Outcome<void> remove(const std::string& player, const std::string& other);
  Outcome<void> block(const Identity& me, const std::string& username);
  Outcome<void> unblock(const std::string& player, const std::string& other);

  // WebSocket.
  void invite(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg);
  void decline(const std::shared_ptr<Peer>& peer, const std::string& game);

 private:
  Json cardJson(const store::PlayerCard& card);
  Refusal noAccount(const std::string& username);

  store::Store& store_;
  store::ClubStore& club_;
  Hub& hub_;
  Players& players_;
};

}  // namespace semis::server
