#pragma once
// The club (docs/club.md) on one server: accounts, ratings, matchmaking and friends, each its own
// part, plugged into the hub (ClubHooks) and answering the club's HTTP paths (ApiClub.cpp).

#include <memory>

#include "ai/WorkPool.hpp"
#include "club/AccountService.hpp"
#include "club/Friends.hpp"
#include "club/Matchmaker.hpp"
#include "club/Ratings.hpp"
#include "hub/ClubHooks.hpp"

namespace semis::server {

class Club final : public ClubHooks {
 public:
  Club(store::Store& store, Hub& hub, Players& players)
      : store_(store),
        ratings_(store),
        accounts_(store, hub, players, ratings_),
        matchmaker_(store, hub, players, ratings_),
        friends_(store, hub, players),
        hub_(hub),
        players_(players) {
    hub.setClub(this);
    ratings_.onRated([&hub](const std::string& player, const Json& message) { hub.notify(player, message); },
                     &hub.metrics());
  }
  ~Club() override { hub_.setClub(nullptr); }

  void onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) override;
  void detached(Peer* peer) override { matchmaker_.detached(peer); }
  void ratedGameOver(const std::string& gameId) override { ratings_.queue(gameId); }
  void decorate(Json& state) override { ratings_.decorate(state); }
  // Every 100 ms from the server's timer: pairing, lobby news, queued ratings.
  void tick() {
    matchmaker_.tick();
    ratings_.drain();
  }

  store::Store& store() { return store_; }
  Hub& hub() { return hub_; }
  Players& players() { return players_; }
  Ratings& ratings() { return ratings_; }
  AccountService& accounts() { return accounts_; }
  Matchmaker& matchmaker() { return matchmaker_; }
  Friends& friends() { return friends_; }
  // Password work: two threads (each hash is 64 MiB), 32 waiting at most.
  WorkPool& slowWork() { return slow_; }

 private:
  store::Store& store_;
  Ratings ratings_;
  AccountService accounts_;
  Matchmaker matchmaker_;
  Friends friends_;
  Hub& hub_;
  Players& players_;
  WorkPool slow_{2, 32};
};

class Router;
// The club's HTTP paths (ApiClub.cpp, docs/club.md "HTTP API"), into the server's route table.
void addClubRoutes(Router& routes, Club& club);

}  // namespace semis::server
