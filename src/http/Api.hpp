#pragma once
// The JSON HTTP API's answers (docs/protocol.md), free of any network type so it stays cheap to compile.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hub/Hub.hpp"
#include "ops/Health.hpp"

namespace semis::server {

struct ApiResponse {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
  std::optional<std::string> cookie{};  // a session token to set ("" clears the cookie)
  // Set instead of an answer: slow work (a password hash) to run off the network threads; its
  // result is the answer. Refused when the work queue is full (503 busy).
  std::function<ApiResponse()> slow{};
  class WorkPool* slowOn = nullptr;  // the pool `slow` runs on (nullptr: the server's default, the club's)
  // API answers are never stored by a browser or a proxy; static files say otherwise (StaticFiles).
  std::string cacheControl = "no-store";
  std::vector<std::pair<std::string, std::string>> headers{};  // more header fields (ETag, Vary, ...)
};

// {"error":{"code","message"}} with `status`; a refusal with the status its code means (404
// not_found, 403 blocked, 429 rate_limited, 503 busy, 500 internal, else 400).
ApiResponse apiError(int status, std::string_view code, std::string_view message);
ApiResponse apiRefused(const Refusal& r);
class Router;
// The game's own routes (GameRoutes.cpp): /healthz, /metrics, /api/me, /api/rules, /api/games...
void addGameRoutes(Router& routes, Hub& hub, Metrics& metrics, const Health& health);

}  // namespace semis::server
