#pragma once
// Seeks and pairing (docs/club.md, "Matchmaking"). Seeks are rows in the store, so every instance
// sees them all: each instance's pass (twice a second) reads the open ones, pairs the quick seeks
// by rating closeness (src/lobby/), and creates each pair's game in the same transaction that
// marks both seeks paired: when two instances pair the same seek, one of them wins. Both players
// hear `paired` on every connection they have, wherever it is. A seek dies with the connection that
// made it, and after ten minutes anyway. The lobby's counts and open seeks go to the connections
// that asked for them, at most once a second and only when they change.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "hub/Hub.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

class Ratings;

class Matchmaker {
 public:
  Matchmaker(store::Store& store, Hub& hub, Players& players, Ratings& ratings)
      : club_(store.club()), hub_(hub), players_(players), ratings_(ratings) {}

  void seek(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg);
  void cancel(const std::shared_ptr<Peer>& peer, const std::string& seekId);
  void accept(const std::shared_ptr<Peer>& peer, const std::string& seekId);
  void watchLobby(const std::shared_ptr<Peer>& peer, bool on);
  void detached(Peer* peer);
  // The pairing pass and the lobby's news: called every 100 ms, works every 500 ms.
  void tick();
  [[nodiscard]] Json lobby();

 private:
  struct Mine {
    std::weak_ptr<Peer> peer;
    std::string player;
  };
  void pairPass(const std::vector<store::SeekRow>& open);
  bool pair(const store::SeekRow& a, const store::SeekRow& b);
  Json lobbyFrom(const std::vector<store::SeekRow>& open);
  void error(Peer& peer, ErrorCode code, const std::string& message);

  store::ClubStore& club_;
  Hub& hub_;
  Players& players_;
  Ratings& ratings_;
  std::mutex mu_;
  std::unordered_map<std::string, Mine> mine_;  // seeks made through this instance, by id
  std::unordered_map<Peer*, std::weak_ptr<Peer>> watchers_;
  std::string lastLobby_;
  long long ticks_ = 0;
};

}  // namespace semis::server
