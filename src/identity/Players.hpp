#pragma once
// Players, their sessions and names as one instance knows them: a cookie's token becomes an
// Identity, a guest's row is written when he first acts, names are read once and cached. The
// hub (seats) and the club (accounts, friends, pairing) both ask here. Caches are bounded and
// short-lived: a session revoked on another instance ends here within kSessionCheck even if the
// bus never says so.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

#include "identity/Identity.hpp"
#include "ops/Metrics.hpp"
#include "room/Room.hpp"
#include "store/Store.hpp"

namespace semis::server {

using Refusal = room::Refusal;
template <class T>
using Outcome = room::Outcome<T>;

// The answer to a failed store call, for every module above the store: `busy` (try again) or `internal`.
[[nodiscard]] Refusal storeRefusal(const store::StoreError& e);

class Players {
 public:
  Players(store::Store& store, Metrics& metrics) : store_(store), metrics_(metrics) {}

  // The identity of a cookie's token; none, a malformed one or a revoked one gets a fresh
  // (unstored) guest with a new token.
  Identity identify(const std::string& token, const std::string& address = "");
  // Writes the guest's row if it is not stored yet (he acts: a game, a name, a sign-up, a friend).
  Outcome<void> ensureStored(const Identity& me);
  // Checks and stores a chosen name (writing the guest's row with it if need be). Only this
  // instance's caches know it: Hub::rename shows it in the games and tells the other instances.
  Outcome<Identity> rename(const Identity& me, const std::string& name);
  // The stored name, or a guest's default.
  [[nodiscard]] std::string nameOf(const std::string& playerId);
  // Forgets what is cached of a session (by token hash) and of a player's name, here only.
  void forget(const std::string& tokenHash, const std::string& playerId);

 private:
  using Clock = std::chrono::steady_clock;
  struct CachedPlayer {
    store::PlayerRow row;
    Clock::time_point at;       // read from the store
    Clock::time_point touched;  // its session's `seen` written
  };
  void cache(const std::string& hash, CachedPlayer entry);

  store::Store& store_;
  Metrics& metrics_;
  std::mutex mu_;                                          // the caches only: never held across a store call
  std::unordered_map<std::string, CachedPlayer> byToken_;  // token hash -> stored player
  std::unordered_map<std::string, std::string> names_;     // id -> name
};

}  // namespace semis::server
