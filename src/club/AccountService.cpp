#include "club/AccountService.hpp"

#include "accounts/Passwords.hpp"
#include "accounts/Tokens.hpp"
#include "club/Ratings.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "rating/RatedKey.hpp"
#include "store/SessionStore.hpp"

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
  if (auto taken = club_.accountByUsername(accounts::usernameKey(*username)); !taken) {
    return refuse(503, "busy", "the store is unavailable: try again");
  } else if (*taken) {
    return refuse(409, "username_taken", "this username is taken");
  }
  if (auto stored = players_.ensureStored(me); !stored) return refuse(503, stored.error().code, stored.error().message);
  const auto hash = accounts::hashPassword(*password);
  if (!hash) return refuse(503, "busy", "the server is short of memory: try again");
  store::AccountRow row{me.id, *username, *hash, nowMs(), accounts::usernameKey(*username)};
  if (auto r = club_.createAccount(row); !r) {
    if (r.error().fault == store::Fault::Conflict) return refuse(409, "username_taken", "this username is taken");
    return refuse(503, "busy", "the store failed: nothing was changed");
  }
  logInfo("signed_up", {{"player", me.id}});
  describe(me);
  // Opponents and leaderboards know him by his username, unless he had chosen a name of his own.
  if (players_.nameOf(me.id) == guestName(me.id)) {
    Identity stored = me;
    stored.stored = true;
    if (auto r = hub_.rename(stored, *username); !r)
      logWarn("rename_failed", {{"player", me.id}, {"what", r.error().message}});
  }
  return {200, who(me.id, players_.nameOf(me.id), *username), std::nullopt};
}

void AccountService::describe(const Identity& me, const std::string& token) {
  const std::string& t = token.empty() ? me.token : token;
  if (auto r = store_.sessions().describe(accounts::hashToken(t), me.device, me.address, nowMs()); !r)
    logWarn("store_error", {{"what", r.error().message}});
}

AccountAnswer AccountService::newSession(const std::string& player, const Identity& me) {
  const std::string token = accounts::newToken();
  if (auto r = club_.addToken(player, accounts::hashToken(token)); !r) {
    return refuse(503, "busy", "the store failed: try again");
  }
  describe(me, token);
  // The guest this device was stays a guest (his games keep his id); this cookie is the account now.
  if (!me.token.empty()) hub_.forgetPlayer(accounts::hashToken(me.token), "");
  std::string username;
  if (auto a = club_.accountOf(player); a && *a) username = (*a)->username;
  AccountAnswer ok{200, who(player, players_.nameOf(player), username), token};
  return ok;
}

AccountAnswer AccountService::signIn(const Identity& me, const Json& body) {
  const auto username = field(body, "username");
  const auto password = field(body, "password");
  if (!username || !password || password->size() > 128)
    return refuse(400, "bad_message", "expected {\"username\":\"...\",\"password\":\"...\"}");
  auto account = club_.accountByUsername(accounts::usernameKey(*username));
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
  return newSession((*account)->player, me);
}

AccountAnswer AccountService::remove(const Identity& me, const Json& body) {
  const auto password = field(body, "password");
  if (!password) return refuse(400, "bad_message", "expected {\"password\":\"...\"}");
  auto account = club_.accountOf(me.id);
  if (!account) return refuse(503, "busy", "the store is unavailable: try again");
  if (!*account) return refuse(400, "not_signed_up", "this player has no account");
  if (!accounts::verifyPassword((*account)->passwordHash, *password))
    return refuse(401, "bad_credentials", "wrong password");
  // Every device's session ends with it: each instance must forget the ones it holds.
  auto sessions = store_.sessions().list(me.id);
  if (!sessions) return refuse(503, "busy", "the store is unavailable: nothing was deleted");
  if (auto r = club_.deleteAccount(me.id, kDeletedName); !r)
    return refuse(503, "busy", "the store failed: nothing was deleted");
  for (const store::SessionRow& s : *sessions) hub_.forgetPlayer(s.tokenHash, "");
  hub_.forgetPlayer(accounts::hashToken(me.token), me.id);
  logInfo("account_deleted", {{"player", me.id}});
  return {200, Json::object(), std::string()};
}

AccountAnswer AccountService::signOut(const Identity& me, const Json& body) {
  if (me.token.empty()) return {200, Json::object(), std::string()};
  if (body.is_object() && body.contains("all") && !body["all"].is_boolean())
    return refuse(400, "bad_message", "expected {} or {\"all\":true}");
  if (body.is_object() && body.value("all", false)) {
    const auto ended = endSessions(me, "");
    if (!ended) return refuse(503, "busy", "the store failed: try again");
    return {200, Json{{"ended", *ended}}, std::string()};
  }
  if (auto r = club_.dropToken(accounts::hashToken(me.token)); !r)
    return refuse(503, "busy", "the store failed: try again");
  hub_.forgetPlayer(accounts::hashToken(me.token), me.id);
  return {200, Json{{"ended", 1}}, std::string()};
}

std::optional<long long> AccountService::endSessions(const Identity& me, const std::string& id) {
  auto hashes = store_.sessions().revoke(me.id, id);
  if (!hashes) return std::nullopt;
  for (const std::string& h : *hashes) hub_.forgetPlayer(h, "");
  return static_cast<long long>(hashes->size());
}

AccountAnswer AccountService::sessions(const Identity& me) {
  if (!me.stored) return {200, Json{{"sessions", Json::array()}}, std::nullopt};
  auto rows = store_.sessions().list(me.id);
  if (!rows) return refuse(503, "busy", "the store is unavailable: try again");
  const std::string mine = accounts::hashToken(me.token);
  Json list = Json::array();
  for (const store::SessionRow& r : *rows) {
    list.push_back(Json{{"id", r.id},
                        {"device", r.device},
                        {"created", r.created == 0 ? Json(nullptr) : Json(r.created)},
                        {"seen", r.seen == 0 ? Json(nullptr) : Json(r.seen)},
                        {"address", r.address},
                        {"current", r.tokenHash == mine}});
  }
  return {200, Json{{"sessions", list}}, std::nullopt};
}

AccountAnswer AccountService::revoke(const Identity& me, const Json& body) {
  const auto id = field(body, "id");
  if (!id || id->size() != store::kSessionIdChars)
    return refuse(400, "bad_message", "expected {\"id\":\"<a session's id>\"}");
  const auto ended = endSessions(me, *id);
  if (!ended) return refuse(503, "busy", "the store failed: try again");
  if (*ended == 0) return refuse(404, "not_found", "no such session of yours");
  // Ending this device's own session signs it out: its cookie goes too.
  const bool mine = accounts::hashToken(me.token).substr(0, store::kSessionIdChars) == *id;
  AccountAnswer ok{200, Json{{"ended", *ended}}, std::nullopt};
  if (mine) ok.cookie = std::string();
  return ok;
}

AccountAnswer AccountService::claim(const Identity& me) {
  if (auto stored = players_.ensureStored(me); !stored) return refuse(503, stored.error().code, stored.error().message);
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
  return newSession(**player, me);
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
