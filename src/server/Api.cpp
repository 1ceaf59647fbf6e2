#include "server/Api.hpp"

#include "protocol/GameJson.hpp"

namespace semis::server {

ApiResponse apiError(int status, std::string_view code, std::string_view message) {
  Metrics::refused("http", code);
  // Messages quote client text: dumpJson never throws on it.
  return {status, "application/json", protocol::dumpJson(Json{{"error", {{"code", code}, {"message", message}}}})};
}

ApiResponse apiRefused(const Refusal& r) {
  int status = 400;
  if (r.code == "rate_limited" || r.code == "too_many_games") status = 429;
  if (r.code == "busy" || r.code == "unavailable") status = 503;
  if (r.code == "internal") status = 500;
  if (r.code == "not_found") status = 404;
  if (r.code == "blocked") status = 403;
  return apiError(status, r.code, r.message);
}

namespace {

ApiResponse error(int status, std::string_view code, std::string_view message) { return apiError(status, code, message); }

ApiResponse ok(const Json& j) { return {200, "application/json", protocol::dumpJson(j)}; }

ApiResponse refused(const Refusal& r) { return apiRefused(r); }

}  // namespace

ApiResponse handleApi(Hub& hub, Metrics& metrics, const Health& health, std::string_view method,
                      std::string_view target, std::string_view body, const Identity& me, bool& handled,
                      Club* club, Study* study) {
  handled = true;
  std::string_view path = target.substr(0, target.find('?'));
  const std::string_view query = target.size() > path.size() ? target.substr(path.size() + 1) : std::string_view();
  const bool get = method == "GET" || method == "HEAD";
  if (path == "/healthz") {
    if (health.ok()) return ok(Json{{"ok", true}});
    return {503, "application/json", protocol::dumpJson(Json{{"ok", false}})};
  }
  if (path == "/metrics") return {200, "text/plain; version=0.0.4", metrics.render()};
  if (path.substr(0, 5) != "/api/") {
    handled = false;
    return {};
  }
  if (study) {
    bool studies = false;
    ApiResponse r = handleStudyApi(*study, method, path, query, body, me, studies);
    if (studies) return r;
  }
  if (club) {
    bool clubs = false;
    ApiResponse r = handleClubApi(*club, method, path, query, body, me, clubs);
    if (clubs) return r;
  }
  if (path == "/api/me") {
    if (get) return ok(Json{{"id", me.id}, {"name", me.name}});
    if (method != "POST") return error(405, "bad_method", "GET or POST");
    Json j = Json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string()) {
      return error(400, "bad_message", "expected {\"name\":\"...\"}");
    }
    auto renamed = hub.rename(me, j["name"].get<std::string>());
    if (!renamed) return refused(renamed.error());
    return ok(Json{{"id", renamed->id}, {"name", renamed->name}});
  }
  if (path == "/api/rules") return ok(protocol::rulesCatalogJson());
  if (path == "/api/games") {
    if (get) {
      (void)query;  // live=1 is the only listing there is
      return ok(hub.liveGames());
    }
    if (method != "POST") return error(405, "bad_method", "GET or POST");
    Json j = Json::parse(body, nullptr, false);
    if (j.is_discarded()) return error(400, "bad_message", "malformed JSON");
    auto spec = protocol::parseGameSpec(j);
    if (!spec) return error(400, "bad_message", spec.error().message);
    auto created = hub.createGame(me, *spec);
    if (!created) return refused(created.error());
    return ok(*created);
  }
  constexpr std::string_view kGames = "/api/games/";
  if (path.substr(0, kGames.size()) == kGames && get) {
    std::string_view rest = path.substr(kGames.size());
    const bool wantRecord = rest.size() > 7 && rest.substr(rest.size() - 7) == "/record";
    if (wantRecord) rest = rest.substr(0, rest.size() - 7);
    const std::string id(rest);
    if (!protocol::validGameId(id)) return error(404, "not_found", "no such game");
    if (wantRecord) {
      auto rec = hub.record(id);
      if (!rec) return error(404, "not_found", "no such game");
      return {200, "text/plain; charset=utf-8", *rec};
    }
    auto state = hub.state(id, me.id);
    if (!state) return error(404, "not_found", "no such game");
    return ok(*state);
  }
  return error(404, "not_found", "no such endpoint");
}

}  // namespace semis::server
