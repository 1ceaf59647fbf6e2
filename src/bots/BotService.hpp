#pragma once
// Bot accounts (docs/bots.md): a member's programs that play. A bot is a player (a row in
// `players`: it sits in games, has ratings and a profile) with an owner, a signed-in member, and a
// token of its own (random, shown once, kept hashed: accounts/Tokens.hpp) with which it connects to
// the KGP gateway. It never holds a cookie session: it cannot sign in, seek, befriend or be invited
// through the club's calls.
//
// The gateway asks authenticate/byName/byId; the owner's calls (create, list, rename, newToken,
// revoke) answer the HTTP routes (addBotRoutes, ApiBots.cpp).

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hub/Hub.hpp"
#include "identity/Players.hpp"
#include "limits/Buckets.hpp"
#include "store/BotStore.hpp"
#include "store/Store.hpp"

namespace semis::server {

// Who a bot's token opens.
struct BotIdentity {
  std::string id;       // the bot's player id
  std::string name;     // its player name
  std::string ownerId;  // the member who owns it
};

struct BotInfo {
  std::string id;
  std::string name;
  std::string ownerId;
  std::string ownerName;
  long long created = 0;  // unix ms
  bool revoked = false;   // its token opens nothing; its games, ratings and name stay
};

// A bot just made, or a bot's new token: the token is shown this once.
struct BotToken {
  BotInfo bot;
  std::string token;
};

struct BotOptions {
  int maxPerOwner = 5;  // bots not revoked per member (`semis serve --bots-per-owner`)
};

class BotService {
 public:
  BotService(store::Store& store, Hub& hub, Players& players, BotOptions options = {})
      : store_(store), hub_(hub), players_(players), options_(options) {}

  // The gateway's calls. A token that is malformed, unknown or revoked: BadToken (no store read for
  // a malformed one); the store failing: Busy or Internal.
  Outcome<BotIdentity> authenticate(std::string_view token);
  // By name (whatever the case) or by player id, revoked bots too (see `revoked`); nothing for a
  // person, an unknown name, or when the store fails.
  std::optional<BotInfo> byName(std::string_view name);
  std::optional<BotInfo> byId(const std::string& id);
  // Called (on the calling thread, after the store changed) with a bot's id when its token stops
  // working: revoked, or replaced by a new one. The gateway closes that bot's connection here.
  void onTokenEnded(std::function<void(const std::string& botId)> hook);

  // The owner's calls. `owner` must be a signed-in member (a guest: SignInNeeded). Another member's
  // bot, or a person, is NotFound. A name is checked as players' names are (identity/Names):
  // BadName; a bot's or member's already: NameTaken. Past the limit: BotLimit. Renaming or a new
  // token for a revoked bot: NotAllowed. Revoking twice is fine.
  Outcome<BotToken> create(const Identity& owner, const std::string& name);
  Outcome<std::vector<BotInfo>> list(const Identity& owner);
  Outcome<BotInfo> rename(const Identity& owner, const std::string& id, const std::string& name);
  Outcome<BotToken> newToken(const Identity& owner, const std::string& id);
  Outcome<void> revoke(const Identity& owner, const std::string& id);

  // The owner's writes per address (create, rename, new token, revoke): 20, then 10 a minute.
  bool allowWrite(const std::string& address);
  [[nodiscard]] int maxPerOwner() const { return options_.maxPerOwner; }

 private:
  Outcome<void> member(const Identity& owner);
  Outcome<BotInfo> ownBot(const Identity& owner, const std::string& id);
  BotInfo info(const store::BotRow& row);
  void tokenEnded(const std::string& botId);

  store::Store& store_;
  Hub& hub_;
  Players& players_;
  BotOptions options_;
  std::mutex mu_;  // the buckets and the hook
  Buckets writes_;
  std::function<void(const std::string&)> tokenEnded_;
};

class Router;
// POST/GET /api/bots, PATCH/DELETE /api/bots/{id}, POST /api/bots/{id}/token (docs/bots.md).
void addBotRoutes(Router& routes, BotService& bots);

}  // namespace semis::server
