#include "server/AccountService.hpp"

#include "accounts/Passwords.hpp"
#include "accounts/Tokens.hpp"
#include "rating/RatedKey.hpp"
#include "server/Live.hpp"
#include "server/Log.hpp"
#include "server/Ratings.hpp"

namespace semis::server {

namespace {

constexpr long long kClaimMs = 10 * 60 * 1000;
constexpr double kAttemptsBurst = 10;
constexpr double kAttemptsPerSecond = 10.0 / 60;
constexpr double kSignUpsBurst = 20;  // new accounts per address: a school's room at once, then 2 a minute
constexpr double kSignUpsPerSecond = 2.0 / 60;
constexpr const char* kDeletedName = "Deleted player";

std::optional<std::string> field(const Json& body, const char* name) {
  if (!body.is_object()) return std::nullopt;
  auto it = body.find(name);
  if (it == body.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

Json who(const std::string& id, const std::string& name, const std::string& username) {
  return Json{{"id", id}, {"name", name}, {"username", username.empty() ? Json(nullptr) : Json(username)}};
}

}  // namespace

AccountAnswer AccountService::refuse(int status, const std::string& code, const std::string& message) {
  return {status, Json{{"error", {{"code", code}, {"message", message}}}}, std::nullopt};
}

bool AccountService::allowAttempt(const std::string& address) {
  std::lock_guard lock(mu_);
  return takeToken(attempts_, address, kAttemptsBurst, kAttemptsPerSecond);
}

bool AccountService::allowSignUp(const std::string& address) {
  std::lock_guard lock(mu_);
  return takeToken(signUps_, address, kSignUpsBurst, kSignUpsPerSecond);
}

AccountAnswer AccountService::signUp(const Identity& me, const Json& body) {
  const auto username = field(body, "username");
  const auto password = field(body, "password");
  if (!username || !accounts::validUsername(*username))
    return refuse(400, "bad_username", "a username is 3 to 20 letters, digits, '_' or '-'");
  if (!password || !accounts::validPassword(*password))
    return refuse(400, "bad_password", "a password is 8 to 128 bytes");
  if (auto mine = club_.accountOf(me.id); !mine) {
    return refuse(503, "busy", "the store is unavailable: try again");
  } else if (*mine) {
    return refuse(409, "already_signed_up", "you are signed up already, as " + (*mine)->username);
  }
  if (auto taken = club_.accountByUsername(*username); !taken) {
    return refuse(503, "busy", "the store is unavailable: try again");
  } else if (*taken) {
    return refuse(409, "username_taken", "this username is taken");
  }
  if (auto stored = hub_.storePlayer(me); !stored) return refuse(503, stored.error().code, stored.error().message);
  const auto hash = accounts::hashPassword(*password);
  if (!hash) return refuse(503, "busy", "the server is short of memory: try again");
  store::AccountRow row{me.id, *username, *hash, nowMs()};
  if (auto r = club_.createAccount(row); !r) {
    if (r.error().fault == store::Fault::Conflict) return refuse(409, "username_taken", "this username is taken");
    return refuse(503, "busy", "the store failed: nothing was changed");
  }
  logInfo("signed_up", {{"player", me.id}});
  return {200, who(me.id, hub_.nameOf(me.id), *username), std::nullopt};
}

AccountAnswer AccountService::newSession(const std::string& player, const std::string& oldToken) {
  const std::string token = accounts::newToken();
  if (auto r = club_.addToken(player, accounts::hashToken(token)); !r) {
    return refuse(503, "busy", "the store failed: try again");
  }
  // The guest this device was stays a guest (his games keep his id); this cookie is the account now.
  if (!oldToken.empty()) hub_.forgetPlayer(accounts::hashToken(oldToken), "");
  std::string username;
  if (auto a = club_.accountOf(player); a && *a) username = (*a)->username;
  AccountAnswer ok{200, who(player, hub_.nameOf(player), username), token};
  return ok;
}

AccountAnswer AccountService::signIn(const Identity& me, const Json& body) {
  const auto username = field(body, "username");
  const auto password = field(body, "password");
  if (!username || !password || password->size() > 128)
    return refuse(400, "bad_message", "expected {\"username\":\"...\",\"password\":\"...\"}");
  auto account = club_.accountByUsername(*username);
  if (!account) return refuse(503, "busy", "the store is unavailable: try again");
  // Unknown or wrong: the same answer after the same work, so that usernames cannot be probed.
  static const std::string kDecoy = accounts::hashPassword("decoy password").value_or("");
  bool good = false;
  if (*account) {
    good = accounts::verifyPassword((*account)->passwordHash, *password);
  } else {
    (void)accounts::verifyPassword(kDecoy, *password);
  }
  if (!good) return refuse(401, "bad_credentials", "wrong username or password");
  return newSession((*account)->player, me.token);
}

AccountAnswer AccountService::remove(const Identity& me, const Json& body) {
  const auto password = field(body, "password");
  if (!password) return refuse(400, "bad_message", "expected {\"password\":\"...\"}");
  auto account = club_.accountOf(me.id);
  if (!account) return refuse(503, "busy", "the store is unavailable: try again");
  if (!*account) return refuse(400, "not_signed_up", "this player has no account");
  if (!accounts::verifyPassword((*account)->passwordHash, *password))
    return refuse(401, "bad_credentials", "wrong password");
  if (auto r = club_.deleteAccount(me.id, kDeletedName); !r) return refuse(503, "busy", "the store failed: nothing was deleted");
  hub_.forgetPlayer(accounts::hashToken(me.token), me.id);
  logInfo("account_deleted", {{"player", me.id}});
  return {200, Json::object(), std::string()};
}

AccountAnswer AccountService::signOut(const Identity& me) {
  if (!me.token.empty()) {
    if (auto r = club_.dropToken(accounts::hashToken(me.token)); !r) return refuse(503, "busy", "the store failed: try again");
    hub_.forgetPlayer(accounts::hashToken(me.token), me.id);
  }
  return {200, Json::object(), std::string()};
}

AccountAnswer AccountService::claim(const Identity& me) {
  if (auto stored = hub_.storePlayer(me); !stored) return refuse(503, stored.error().code, stored.error().message);
  const std::string code = accounts::newClaimCode();
  const long long expires = nowMs() + kClaimMs;
  if (auto r = club_.createClaim(accounts::hashToken(code), me.id, expires); !r)
    return refuse(503, "busy", "the store failed: try again");
  return {200, Json{{"code", code}, {"expires", expires}}, std::nullopt};
}

AccountAnswer AccountService::redeem(const Identity& me, const Json& body) {
  const auto typed = field(body, "code");
  const auto code = typed ? accounts::normalClaimCode(*typed) : std::nullopt;
  if (!code) return refuse(404, "not_found", "no such code (8 letters and digits)");
  auto player = club_.takeClaim(accounts::hashToken(*code), nowMs());
  if (!player) return refuse(503, "busy", "the store is unavailable: try again");
  if (!*player) return refuse(404, "not_found", "no such code, or it has expired");
  return newSession(**player, me.token);
}

Json AccountService::me(const Identity& me) {
  std::string username;
  if (auto a = club_.accountOf(me.id); a && *a) username = (*a)->username;
  Json j = who(me.id, me.name, username);
  Json ratings = Json::object();
  if (auto rows = club_.ratings(me.id); rows) {
    for (const auto& r : *rows) ratings[r.key] = Ratings::ratingJson(ratings_.current(me.id, r.key));
  }
  j["ratings"] = ratings;
  return j;
}

}  // namespace semis::server
