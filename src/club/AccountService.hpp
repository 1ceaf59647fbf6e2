#pragma once
// Accounts over HTTP (docs/club.md, "Accounts"): sign-up turns the visiting guest into an account
// (same player, same games), sign-in gives this device a new session of the account's player, a
// claim code does the same without a password. Password work (Argon2id) runs on a WorkPool off the
// network threads; sign-ins and code redemptions are limited per address.

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "hub/Hub.hpp"
#include "limits/Buckets.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

class Ratings;

// What an account call answers: a status, a JSON body, and the session cookie to set ("" clears
// it) when it changes.
struct AccountAnswer {
  int status = 200;
  Json body;
  std::optional<std::string> cookie;
};

class AccountService {
 public:
  AccountService(store::Store& store, Hub& hub, Players& players, Ratings& ratings)
      : store_(store), club_(store.club()), hub_(hub), players_(players), ratings_(ratings) {}

  // Slow (a password hash): run them on the work pool.
  AccountAnswer signUp(const Identity& me, const Json& body);
  AccountAnswer signIn(const Identity& me, const Json& body);
  AccountAnswer remove(const Identity& me, const Json& body);
  // Quick.
  // {} ends this device's session; {"all":true} every session of the player.
  AccountAnswer signOut(const Identity& me, const Json& body);
  // The player's sessions (device, when begun and last seen, from where, which is this one), and
  // the end of one of them by its id.
  AccountAnswer sessions(const Identity& me);
  AccountAnswer revoke(const Identity& me, const Json& body);
  AccountAnswer claim(const Identity& me);
  AccountAnswer redeem(const Identity& me, const Json& body);
  [[nodiscard]] Json me(const Identity& me);
  // Per address: password and code attempts (10 a minute, also claim codes asked), and new
  // accounts (20, then 2 a minute); false when used up.
  bool allowAttempt(const std::string& address);
  bool allowSignUp(const std::string& address);

 private:
  AccountAnswer newSession(const std::string& player, const Identity& me);
  // Describes the session of `token` (default: me's) as me's device and address.
  void describe(const Identity& me, const std::string& token = "");
  // Ends the player's session `id` (every one: ""), forgotten on every instance; how many ended.
  // (Nothing: the store failed.)
  std::optional<long long> endSessions(const Identity& me, const std::string& id);
  static AccountAnswer refuse(int status, const std::string& code, const std::string& message);

  store::Store& store_;
  store::ClubStore& club_;
  Hub& hub_;
  Players& players_;
  Ratings& ratings_;
  std::mutex mu_;
  Buckets attempts_;
  Buckets signUps_;
};

}  // namespace semis::server
