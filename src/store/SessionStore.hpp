#pragma once
// A player's sessions (docs/club.md, "Sessions"): each device signed in to an account is a token
// the store knows by its hash, with when it began, when and from where it was last used, and the
// device's own description (its User-Agent). Its owner names a session by the first 16 hex digits
// of that hash: the hash is of a 256-bit secret, so a prefix tells nothing that opens a session.
// Reached through Store::sessions().
//
// The statements are the same text on both backends: one implementation (SessionStore.cpp) runs
// them through a backend's SqlRunner (store/SqlRunner.hpp).

#include <memory>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

struct SessionRow {
  std::string id;         // the first 16 hex digits of the token's hash
  std::string tokenHash;  // never sent to anyone
  long long created = 0;  // unix ms (0: opened before sessions were described)
  long long seen = 0;
  std::string device;   // the User-Agent it signed in with, cut to kDeviceChars
  std::string address;  // where it was last seen from
};

inline constexpr std::size_t kSessionIdChars = 16;
inline constexpr std::size_t kDeviceChars = 200;

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  SessionStore() = default;
  SessionStore(const SessionStore&) = delete;
  SessionStore& operator=(const SessionStore&) = delete;

  // A session just opened (sign-up, sign-in, a redeemed code) says what device it is.
  virtual StoreResult<void> describe(const std::string& tokenHash, const std::string& device,
                                     const std::string& address, long long now) = 0;
  // The session was used at `now` from `address`.
  virtual StoreResult<void> seen(const std::string& tokenHash, const std::string& address, long long now) = 0;
  // The player's sessions, the most recently seen first.
  virtual StoreResult<std::vector<SessionRow>> list(const std::string& player) = 0;
  // Ends the player's session `id`, or every one of them when `id` is empty; answers the hashes of
  // the tokens it ended (nothing when there was no such session of his).
  virtual StoreResult<std::vector<std::string>> revoke(const std::string& player, const std::string& id) = 0;
};

class SqlRunner;
[[nodiscard]] std::unique_ptr<SessionStore> makeSessionStore(SqlRunner& runner);

}  // namespace semis::store
