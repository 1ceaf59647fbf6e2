// A member's bots over HTTP (docs/bots.md): POST/GET /api/bots, PATCH/DELETE /api/bots/{id},
// POST /api/bots/{id}/token. Only the owner sees or touches his bots; a token is in an answer once.

#include "bots/BotService.hpp"
#include "http/Router.hpp"

namespace semis::server {

namespace {

ApiResponse json(const Json& j) { return {200, "application/json", protocol::dumpJson(j)}; }

Json botJson(const BotInfo& b) {
  return Json{{"id", b.id}, {"name", b.name}, {"created", b.created}, {"revoked", b.revoked}};
}

Json tokenJson(const BotToken& t) { return Json{{"id", t.bot.id}, {"name", t.bot.name}, {"token", t.token}}; }

// {"name":"..."} or nothing.
std::optional<std::string> nameOf(std::string_view body) {
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) return std::nullopt;
  return j["name"].get<std::string>();
}

// The owner's writes are limited per address (each is a store write, a creation a player row).
std::optional<ApiResponse> limited(BotService& bots, const ApiRequest& r) {
  if (bots.allowWrite(r.me.address)) return std::nullopt;
  return apiError(ErrorCode::RateLimited, "too many changes to bots from your address: wait a minute");
}

template <class T, class Make>
ApiResponse answer(const Outcome<T>& outcome, Make&& make) {
  if (!outcome) return apiRefused(outcome.error());
  return json(make(*outcome));
}

}  // namespace

void addBotRoutes(Router& routes, BotService& bots) {
  routes.add("GET", "/api/bots", [&bots](const ApiRequest& r) {
    return answer(bots.list(r.me), [](const std::vector<BotInfo>& list) {
      Json out = Json::array();
      for (const BotInfo& b : list) out.push_back(botJson(b));
      return Json{{"bots", out}};
    });
  });
  routes.add("POST", "/api/bots", [&bots](const ApiRequest& r) {
    const auto name = nameOf(r.body);
    if (!name) return apiError(ErrorCode::BadMessage, "expected {\"name\":\"...\"}");
    if (auto no = limited(bots, r)) return *no;
    return answer(bots.create(r.me, *name), tokenJson);
  });
  routes.add("PATCH", "/api/bots/{id}", [&bots](const ApiRequest& r) {
    const auto name = nameOf(r.body);
    if (!name) return apiError(ErrorCode::BadMessage, "expected {\"name\":\"...\"}");
    if (auto no = limited(bots, r)) return *no;
    return answer(bots.rename(r.me, std::string(r.params[0]), *name), botJson);
  });
  routes.add("DELETE", "/api/bots/{id}", [&bots](const ApiRequest& r) {
    if (auto no = limited(bots, r)) return *no;
    return answer(bots.revoke(r.me, std::string(r.params[0])).map([] { return 0; }),
                  [](int) { return Json::object(); });
  });
  routes.add("POST", "/api/bots/{id}/token", [&bots](const ApiRequest& r) {
    if (auto no = limited(bots, r)) return *no;
    return answer(bots.newToken(r.me, std::string(r.params[0])), tokenJson);
  });
}

}  // namespace semis::server
