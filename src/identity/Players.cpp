#include "identity/Players.hpp"

#include "accounts/Tokens.hpp"
#include "identity/Names.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "store/SessionStore.hpp"

namespace semis::server {

std::string guestName(const std::string& id) { return "Guest-" + id.substr(0, 4); }

Refusal storeRefusal(const store::StoreError& e) {
  if (e.fault == store::Fault::Busy)
    return {"busy", "the game store is busy: try again in a moment (" + e.message + ")", std::nullopt};
  return {"internal", "the game store failed: " + e.message, std::nullopt};
}

namespace {

constexpr std::size_t kCacheLimit = 50000;  // cached players; past it the cache starts over
// A cached session is read from the store again after this (revocations the bus did not bring),
// and its `seen` written at most this often.
constexpr std::chrono::seconds kSessionCheck{60};
constexpr std::chrono::minutes kSessionTouch{5};

}  // namespace

void Players::cache(const std::string& hash, CachedPlayer entry) {
  std::lock_guard lock(mu_);
  if (byToken_.size() >= kCacheLimit) byToken_.clear();
  byToken_[hash] = std::move(entry);
}

Identity Players::identify(const std::string& token, const std::string& address) {
  if (!accounts::validToken(token)) {
    Identity fresh{accounts::newToken(), "", "", true, false, address, ""};
    fresh.id = accounts::guestId(fresh.token);
    fresh.name = guestName(fresh.id);
    return fresh;
  }
  const std::string hash = accounts::hashToken(token);
  const auto now = Clock::now();
  std::optional<Clock::time_point> touched;  // when this instance last wrote the session's `seen`
  {
    std::lock_guard lock(mu_);
    if (auto it = byToken_.find(hash); it != byToken_.end()) {
      // Kept a short while only: a session revoked where the bus did not reach ends here soon too.
      if (now - it->second.at < kSessionCheck)
        return {token, it->second.row.id, it->second.row.name, false, true, address, ""};
      touched = it->second.touched;
    }
  }
  Identity me{token, accounts::guestId(token), "", false, false, address, ""};
  me.name = guestName(me.id);
  auto row = store_.playerByToken(hash);
  if (!row) {
    logWarn("store_error", {{"what", row.error().message}});
  } else if (!*row) {
    // A token the store does not know is a guest who has not acted yet, unless the id it names is
    // someone's already: then the token was revoked (signed out, the account deleted) and must not
    // speak for that player again. Its holder is a new guest, with a new token and id.
    // (When the store cannot say, the same: such a guest has nothing stored to lose.)
    auto holder = store_.player(me.id);
    if (!holder || *holder) {
      if (holder) metrics_.staleTokens++;
      return identify("", address);
    }
  } else {
    me.id = (*row)->id;
    me.name = (*row)->name;
    me.stored = true;
    // Its owner's list of sessions says when and where each was last used (not on every request).
    if (!touched || now - *touched >= kSessionTouch) {
      touched = now;
      if (auto r = store_.sessions().seen(hash, address, nowMs()); !r)
        logWarn("store_error", {{"what", r.error().message}});
    }
    cache(hash, CachedPlayer{**row, now, *touched});
  }
  return me;
}

Outcome<void> Players::ensureStored(const Identity& me) {
  if (me.stored || me.token.empty()) return {};
  const std::string hash = accounts::hashToken(me.token);
  {
    std::lock_guard lock(mu_);
    if (byToken_.count(hash) != 0) return {};
  }
  store::PlayerRow row{me.id, me.name, nowMs()};
  if (auto r = store_.createPlayer(row, hash); !r) {
    // Another connection of the same guest may have written it first.
    auto existing = store_.playerByToken(hash);
    if (!existing || !*existing) {
      metrics_.storeErrors++;
      return tl::unexpected(storeRefusal(r.error()));
    }
    row = **existing;
  }
  cache(hash, CachedPlayer{row, Clock::now(), Clock::now()});
  return {};
}

Outcome<Identity> Players::rename(const Identity& me, const std::string& name) {
  if (const std::string problem = nameProblem(name); !problem.empty())
    return tl::unexpected(Refusal{"bad_message", problem, {}});
  Identity renamed = me;
  renamed.name = name;
  if (!me.stored) {
    // Written with its name at once: one row, no second write.
    if (auto r = ensureStored(renamed); !r) return tl::unexpected(r.error());
  }
  if (auto r = store_.renamePlayer(me.id, name); !r) {
    metrics_.storeErrors++;
    return tl::unexpected(storeRefusal(r.error()));
  }
  renamed.stored = true;
  cache(accounts::hashToken(me.token), CachedPlayer{store::PlayerRow{me.id, name, 0}, Clock::now(), Clock::now()});
  {
    std::lock_guard lock(mu_);
    names_[me.id] = name;
  }
  return renamed;
}

std::string Players::nameOf(const std::string& playerId) {
  {
    std::lock_guard lock(mu_);
    if (auto it = names_.find(playerId); it != names_.end()) return it->second;
  }
  std::string name = guestName(playerId);
  if (auto row = store_.player(playerId); row && *row) name = (*row)->name;
  std::lock_guard lock(mu_);
  if (names_.size() >= kCacheLimit) names_.clear();
  names_[playerId] = name;
  return name;
}

void Players::forget(const std::string& tokenHash, const std::string& playerId) {
  std::lock_guard lock(mu_);
  if (!tokenHash.empty()) byToken_.erase(tokenHash);
  if (!playerId.empty()) names_.erase(playerId);
}

}  // namespace semis::server
