// The game's own paths: who you are (/api/me), the rule sets, games created, listed and read,
// and the operator's /healthz and /metrics.

#include "http/Router.hpp"
#include "protocol/GameJson.hpp"

namespace semis::server {

namespace {

ApiResponse ok(const Json& j) { return {200, "application/json", protocol::dumpJson(j)}; }

}  // namespace

void addGameRoutes(Router& routes, Hub& hub, Metrics& metrics, const Health& health) {
  // /healthz is 503 {"ok":false} while `health` says no (shutting down, or the store not answering).
  routes.add("*", "/healthz", [&health](const ApiRequest&) -> ApiResponse {
    if (health.ok()) return ok(Json{{"ok", true}});
    return {503, "application/json", protocol::dumpJson(Json{{"ok", false}})};
  });
  routes.add("*", "/metrics", [&metrics](const ApiRequest&) -> ApiResponse {
    return {200, "text/plain; version=0.0.4", metrics.render()};
  });
  routes.add("GET", "/api/me", [](const ApiRequest& r) { return ok(Json{{"id", r.me.id}, {"name", r.me.name}}); });
  routes.add("POST", "/api/me", [&hub](const ApiRequest& r) {
    Json j = Json::parse(r.body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string()) {
      return apiError(400, "bad_message", "expected {\"name\":\"...\"}");
    }
    auto renamed = hub.rename(r.me, j["name"].get<std::string>());
    if (!renamed) return apiRefused(renamed.error());
    return ok(Json{{"id", renamed->id}, {"name", renamed->name}});
  });
  routes.add("GET", "/api/rules", [](const ApiRequest&) { return ok(protocol::rulesCatalogJson()); });
  // live=1 is the only listing there is: the query says nothing more.
  routes.add("GET", "/api/games", [&hub](const ApiRequest&) { return ok(liveListJson(hub.liveGames())); });
  routes.add("POST", "/api/games", [&hub](const ApiRequest& r) {
    Json j = Json::parse(r.body, nullptr, false);
    if (j.is_discarded()) return apiError(400, "bad_message", "malformed JSON");
    auto spec = protocol::parseGameSpec(j);
    if (!spec) return apiError(400, "bad_message", spec.error().message);
    auto created = hub.createGame(r.me, *spec);
    if (!created) return apiRefused(created.error());
    return ok(*created);
  });
  routes.add("GET", "/api/games/{id}", [&hub](const ApiRequest& r) {
    const std::string id(r.params[0]);
    if (!protocol::validGameId(id)) return apiError(404, "not_found", "no such game");
    auto state = hub.state(id, r.me.id);
    if (!state) return apiError(404, "not_found", "no such game");
    return ok(*state);
  });
  routes.add("GET", "/api/games/{id}/record", [&hub](const ApiRequest& r) -> ApiResponse {
    const std::string id(r.params[0]);
    if (!protocol::validGameId(id)) return apiError(404, "not_found", "no such game");
    auto rec = hub.record(id);
    if (!rec) return apiError(404, "not_found", "no such game");
    return {200, "text/plain; charset=utf-8", *rec};
  });
}

}  // namespace semis::server
