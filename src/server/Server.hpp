#pragma once
// `semis serve`: HTTP (static files, JSON API, /healthz, /metrics) and the /ws WebSocket endpoint.

#include <memory>

#include "ai/MoveSource.hpp"
#include "net/ServerOptions.hpp"

namespace semis::server {

// Runs until SIGTERM or SIGINT; returns the process exit status. `ai` defaults to the greedy source.
int runServer(const ServerOptions& options, std::unique_ptr<MoveSource> ai = nullptr);

}  // namespace semis::server
