#pragma once
// The JSON HTTP API (docs/protocol.md), free of any network type so it stays cheap to compile.

#include <string>
#include <string_view>

#include "server/Health.hpp"
#include "server/Hub.hpp"

namespace semis::server {

struct ApiResponse {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
};

// Answers /healthz, /metrics and /api/...; `handled` is false for any other path. /healthz is
// 503 {"ok":false} while `health` says no (shutting down, or the store not answering).
ApiResponse handleApi(Hub& hub, Metrics& metrics, const Health& health, std::string_view method,
                      std::string_view target, std::string_view body, const Identity& me, bool& handled);

}  // namespace semis::server
