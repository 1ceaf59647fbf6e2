// The club's HTTP paths (docs/club.md, "HTTP API"): /api/account/..., /api/players/...,
// /api/leaderboard/..., /api/lobby, /api/friends, /api/blocks. Password work is handed back as a
// `slow` job for the work pool, so no network thread ever hashes.

#include <charconv>
#include <cmath>

#include "club/Club.hpp"
#include "http/Router.hpp"
#include "ops/WallClock.hpp"
#include "rating/RatedKey.hpp"
#include "store/AccuracyStore.hpp"
#include "store/BotStore.hpp"

namespace semis::server {

namespace {

ApiResponse json(int status, const Json& j) { return {status, "application/json", protocol::dumpJson(j)}; }

ApiResponse error(ErrorCode code, std::string_view message) {
  return apiError(code, message);
}

ApiResponse refused(const Refusal& r) { return apiRefused(r); }

ApiResponse answer(const AccountAnswer& a) {
  ApiResponse r = json(a.status, a.body);
  r.cookie = a.cookie;
  return r;
}

Json bodyJson(std::string_view body) { return Json::parse(body, nullptr, false); }

std::optional<std::string> stringField(const Json& j, const char* name) {
  if (!j.is_object() || !j.contains(name) || !j[name].is_string()) return std::nullopt;
  return j[name].get<std::string>();
}

// The value of `name` in a query string (no decoding: the values asked here are ids and numbers).
std::string queryValue(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == name) return std::string(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return "";
}

bool knownKey(const std::string& key) {
  for (const std::string& k : rating::ratedKeys())
    if (k == key) return true;
  return false;
}

ApiResponse accountPath(Club& club, std::string_view action, std::string_view body, const Identity& me) {
  AccountService& acc = club.accounts();
  const Json j = bodyJson(body);
  if (action == "signout") return answer(acc.signOut(me, j));
  if (action == "sessions") return answer(acc.sessions(me));
  if (action == "revoke") return answer(acc.revoke(me, j));
  if (action != "signup" && action != "signin" && action != "delete" && action != "redeem" && action != "claim")
    return error(ErrorCode::NotFound, "no such endpoint");
  // What guesses a secret (a password, a code) or makes one is limited per address, and so are new
  // accounts (each a hash and rows).
  if (!(action == "signup" ? acc.allowSignUp(me.address) : acc.allowAttempt(me.address)))
    return error(ErrorCode::RateLimited, "too many attempts from your address: wait a minute");
  if (action == "claim") return answer(acc.claim(me));
  if (action == "redeem") return answer(acc.redeem(me, j));
  ApiResponse slow;
  slow.slow = [&acc, action = std::string(action), j, me] {
    if (action == "signup") return answer(acc.signUp(me, j));
    if (action == "signin") return answer(acc.signIn(me, j));
    return answer(acc.remove(me, j));
  };
  return slow;
}

ApiResponse playerPath(Club& club, std::string_view rest, std::string_view query) {
  const auto slash = rest.find('/');
  const std::string id(rest.substr(0, slash));
  const std::string_view what = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  if (!protocol::validPublicId(id)) return error(ErrorCode::NotFound, "no such player");
  store::ClubStore& cs = club.store().club();
  auto card = cs.card(id);
  if (!card) return error(ErrorCode::Busy, "the store is unavailable: try again");
  if (!*card) return error(ErrorCode::NotFound, "no such player");
  if (what.empty()) {
    Json ratings = Json::array();
    if (auto rows = cs.ratings(id); rows) {
      for (const auto& r : *rows) {
        Json j = Ratings::ratingJson(club.ratings().current(id, r.key));
        j["wins"] = r.wins;
        j["draws"] = r.draws;
        j["losses"] = r.losses;
        ratings.push_back(std::move(j));
      }
    }
    Json profile{{"id", id},
                 {"name", (*card)->player.name},
                 {"username", (*card)->username.empty() ? Json(nullptr) : Json((*card)->username)},
                 {"created", (*card)->player.created},
                 {"online", club.hub().connectedHere(id)},
                 {"ratings", ratings}};
    // A bot says so, and names its owner (docs/bots.md); a person has no `bot` field.
    auto bot = club.store().bots().bot(id);
    if (!bot) return error(ErrorCode::Busy, "the store is unavailable: try again");
    if (*bot) {
      profile["bot"] = true;
      profile["owner"] = Json{{"id", (*bot)->owner}, {"name", club.players().nameOf((*bot)->owner)}};
      profile["revoked"] = (*bot)->revoked != 0;
      // Its play against the solver over its reviewed games (bots/BotAccuracy.hpp).
      auto accuracy = club.store().accuracy().accuracyOf(id);
      if (!accuracy) return error(ErrorCode::Busy, "the store is unavailable: try again");
      profile["accuracy"] =
          Json{{"perfect", accuracy->perfect}, {"proven", accuracy->proven}, {"games", accuracy->games}};
    }
    return json(200, profile);
  }
  if (what == "history") {
    const std::string key = queryValue(query, "key");
    if (!knownKey(key)) return error(ErrorCode::BadMessage, "key must be a rated game: kalah, mangala, ...");
    auto points = cs.ratingHistory(id, key, 200);
    if (!points) return error(ErrorCode::Busy, "the store is unavailable: try again");
    Json list = Json::array();
    for (const auto& p : *points)
      list.push_back(Json{{"at", p.at}, {"rating", p.rating}, {"deviation", p.deviation}, {"game", p.game}});
    return json(200, Json{{"key", key}, {"points", list}});
  }
  if (what == "games") {
    long long before = std::numeric_limits<long long>::max();
    if (const std::string b = queryValue(query, "before"); !b.empty()) {
      auto [p, ec] = std::from_chars(b.data(), b.data() + b.size(), before);
      if (ec != std::errc() || p != b.data() + b.size())
        return error(ErrorCode::BadMessage, "before must be a number (unix ms)");
    }
    constexpr std::size_t kPage = 20;
    auto games = cs.gamesOf(id, before, kPage + 1);
    if (!games) return error(ErrorCode::Busy, "the store is unavailable: try again");
    Json list = Json::array();
    for (std::size_t i = 0; i < games->size() && i < kPage; ++i) {
      const store::PlayedGame& pg = (*games)[i];
      const store::GameRow& g = pg.game;
      const bool south = g.seatS == id;
      const std::string& opp = south ? g.seatN : g.seatS;
      const auto rules = parseRules(g.rules);
      const auto key = rules ? rating::ratedKey(*rules) : std::nullopt;
      Json opponent =
          opp == room::kAiSeat ? Json{{"ai", g.level}} : Json{{"id", opp}, {"name", club.players().nameOf(opp)}};
      Json result = Json::parse(g.result, nullptr, false);  // the store's text column, read once
      if (result.is_discarded()) result = nullptr;
      list.push_back(
          Json{{"id", g.id},
               {"rules", g.rules},
               {"key", key ? Json(*key) : Json(nullptr)},
               {"rated", g.rated},
               {"mode", g.mode},
               {"side", south ? "S" : "N"},
               {"opponent", opponent},
               {"result", std::move(result)},
               {"change", pg.change ? Json(std::round((*pg.change)[south ? 0 : 1])) : Json(nullptr)},
               {"ended", g.updated}});
    }
    return json(200, Json{{"games", list}, {"more", games->size() > kPage}});
  }
  return error(ErrorCode::NotFound, "no such endpoint");
}

ApiResponse friendsPath(Club& club, std::string_view method, std::string_view rest, std::string_view body,
                        const Identity& me, bool blocks) {
  Friends& f = club.friends();
  if (rest.empty()) {
    if (method == "GET" && !blocks) {
      auto list = f.list(me.id);
      return list ? json(200, *list) : error(ErrorCode::Busy, "the store is unavailable: try again");
    }
    if (method != "POST") return error(ErrorCode::BadMethod, "GET or POST");
    const auto username = stringField(bodyJson(body), "username");
    if (!username) return error(ErrorCode::BadMessage, "expected {\"username\":\"...\"}");
    if (blocks) {
      auto r = f.block(me, *username);
      return r ? json(200, Json::object()) : refused(r.error());
    }
    auto r = f.add(me, *username);
    return r ? json(200, *r) : refused(r.error());
  }
  if (method != "DELETE") return error(ErrorCode::BadMethod, "DELETE");
  const std::string other(rest);
  if (!protocol::validPublicId(other)) return error(ErrorCode::NotFound, "no such player");
  auto r = blocks ? f.unblock(me.id, other) : f.remove(me.id, other);
  return r ? json(200, Json::object()) : refused(r.error());
}

}  // namespace

void addClubRoutes(Router& routes, Club& club) {
  // Password work runs on the club's own pool, so no network thread ever hashes.
  auto account = [&club](const ApiRequest& r) {
    ApiResponse res = accountPath(club, r.params.empty() ? std::string_view("sessions") : r.params[0], r.body, r.me);
    if (res.slow && res.slowOn == nullptr) res.slowOn = &club.slowWork();
    return res;
  };
  routes.add("GET", "/api/account/sessions", account);
  routes.add("POST", "/api/account/{action}", account);
  routes.add("GET", "/api/me", [&club](const ApiRequest& r) { return json(200, club.accounts().me(r.me)); });
  routes.add("GET", "/api/players/{rest...}",
             [&club](const ApiRequest& r) { return playerPath(club, r.params[0], r.query); });
  routes.add("GET", "/api/leaderboard/{key}", [&club](const ApiRequest& r) {
    const std::string key(r.params[0]);
    if (!knownKey(key)) return error(ErrorCode::NotFound, "no leaderboard for this game");
    auto board = club.ratings().leaderboard(key);
    return board ? json(200, *board) : error(ErrorCode::Busy, "the store is unavailable: try again");
  });
  routes.add("GET", "/api/lobby", [&club](const ApiRequest&) { return json(200, club.matchmaker().lobby()); });
  // Friends and blocks: GET lists, POST adds, DELETE .../ID removes (friendsPath checks the method).
  for (const bool blocks : {false, true}) {
    const std::string base = blocks ? "/api/blocks" : "/api/friends";
    routes.add("*", base,
               [&club, blocks](const ApiRequest& r) { return friendsPath(club, r.method, "", r.body, r.me, blocks); });
    routes.add("*", base + "/{id}", [&club, blocks](const ApiRequest& r) {
      return friendsPath(club, r.method, r.params[0], r.body, r.me, blocks);
    });
  }
}

}  // namespace semis::server
