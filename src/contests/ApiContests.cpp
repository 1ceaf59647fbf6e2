// Bots' matches, tournaments and leaderboards over HTTP (docs/bots.md, "Matches and tournaments"):
// POST /api/bots/match, GET /api/bots/matches[/{id}], POST/GET /api/bots/tournaments,
// GET /api/bots/tournaments/{id}, GET /api/bots/leaderboard/{key}.

#include <cmath>

#include "contests/ContestJson.hpp"
#include "contests/ContestService.hpp"
#include "http/Router.hpp"
#include "rating/Glicko2.hpp"
#include "rating/RatedKey.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

namespace {

constexpr std::size_t kRecent = 30;
constexpr std::size_t kBoardSize = 100;

ApiResponse json(const Json& j) { return {200, "application/json", protocol::dumpJson(j)}; }

// A start reads the bots named and writes: limited per address.
std::optional<ApiResponse> limited(ContestService& contests, const ApiRequest& r) {
  if (contests.allowStart(r.me.address)) return std::nullopt;
  return apiError(ErrorCode::RateLimited, "too many matches and tournaments asked from your address: wait a minute");
}

std::optional<std::string> text(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// A whole number field: nothing when absent, false in `ok` when mistyped.
std::optional<int> number(const Json& j, const char* key, bool& ok) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer() || it->get<long long>() < -1000 || it->get<long long>() > 1000) {
    ok = false;
    return std::nullopt;
  }
  return static_cast<int>(it->get<long long>());
}

std::optional<MatchRequest> matchRequest(std::string_view body) {
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  MatchRequest m;
  auto a = text(j, "a"), b = text(j, "b"), rules = text(j, "rules");
  bool ok = true;
  auto games = number(j, "games", ok);
  m.seconds = number(j, "seconds", ok);
  if (!a || !b || !rules || !games || !ok) return std::nullopt;
  m.a = *a;
  m.b = *b;
  m.rules = *rules;
  m.games = *games;
  return m;
}

std::optional<TournamentRequest> tournamentRequest(std::string_view body) {
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  TournamentRequest t;
  auto name = text(j, "name"), rules = text(j, "rules");
  bool ok = true;
  auto rounds = number(j, "rounds", ok);
  t.seconds = number(j, "seconds", ok);
  auto bots = j.find("bots");
  if (!name || !rules || !ok || bots == j.end() || !bots->is_array() || bots->size() > 64) return std::nullopt;
  for (const Json& b : *bots) {
    if (!b.is_string()) return std::nullopt;
    t.bots.push_back(b.get<std::string>());
  }
  t.name = *name;
  t.rules = *rules;
  t.rounds = rounds.value_or(1);
  return t;
}

ApiResponse answer(const Outcome<Contest>& c) {
  if (!c) return apiRefused(c.error());
  return json(contestJson(*c));
}

ApiResponse list(ContestService& contests, ContestKind kind) {
  auto found = contests.recent(kind, kRecent);
  if (!found) return apiRefused(found.error());
  Json lines = Json::array();
  for (const Contest& c : *found) lines.push_back(contestLineJson(c));
  return json(Json{{kind == ContestKind::Match ? "matches" : "tournaments", lines}});
}

ApiResponse leaderboard(ContestService& contests, const std::string& key) {
  if (!rating::isBotsKey(key)) return apiError(ErrorCode::NotFound, "no bots' leaderboard for this game");
  // Every bot rated in the pool (a bots' pool is small): the provisional ones marked.
  auto rows = contests.store().club().leaderboard(key, 1e9, kBoardSize);
  if (!rows) return apiRefused(storeRefusal(rows.error()));
  Json bots = Json::array();
  for (const auto& [r, card] : *rows) {
    const auto info = contests.bots().byId(card.player.id);
    if (!info) continue;  // a bots' key holds bots only; a person here would be a bug, never shown
    bots.push_back(Json{{"rank", bots.size() + 1},
                        {"id", info->id},
                        {"name", info->name},
                        {"owner", info->ownerName},
                        {"rating", std::round(r.rating)},
                        {"deviation", std::round(r.deviation)},
                        {"provisional", rating::provisional(rating::Glicko{r.rating, r.deviation, r.volatility})},
                        {"games", r.games},
                        {"wins", r.wins},
                        {"draws", r.draws},
                        {"losses", r.losses}});
  }
  return json(Json{{"key", key}, {"bots", bots}});
}

}  // namespace

void addContestRoutes(Router& routes, ContestService& contests) {
  routes.add("POST", "/api/bots/match", [&contests](const ApiRequest& r) {
    const auto m = matchRequest(r.body);
    if (!m) return apiError(ErrorCode::BadMessage, "expected {\"a\",\"b\",\"rules\",\"games\",\"seconds\"?}");
    if (auto no = limited(contests, r)) return *no;
    return answer(contests.startMatch(r.me, *m));
  });
  routes.add("GET", "/api/bots/matches", [&contests](const ApiRequest&) { return list(contests, ContestKind::Match); });
  routes.add("GET", "/api/bots/matches/{id}", [&contests](const ApiRequest& r) {
    return answer(contests.get(ContestKind::Match, std::string(r.params[0])));
  });
  routes.add("POST", "/api/bots/tournaments", [&contests](const ApiRequest& r) {
    const auto t = tournamentRequest(r.body);
    if (!t) return apiError(ErrorCode::BadMessage, "expected {\"name\",\"rules\",\"bots\":[names],\"rounds\"?,\"seconds\"?}");
    if (auto no = limited(contests, r)) return *no;
    return answer(contests.startTournament(r.me, *t));
  });
  routes.add("GET", "/api/bots/tournaments",
             [&contests](const ApiRequest&) { return list(contests, ContestKind::Tournament); });
  routes.add("GET", "/api/bots/tournaments/{id}", [&contests](const ApiRequest& r) {
    return answer(contests.get(ContestKind::Tournament, std::string(r.params[0])));
  });
  routes.add("GET", "/api/bots/leaderboard/{key}",
             [&contests](const ApiRequest& r) { return leaderboard(contests, std::string(r.params[0])); });
}

}  // namespace semis::server
