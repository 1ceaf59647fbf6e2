#pragma once
// Structured logs: one JSON object per line on stderr ({"ts":..., "level":..., "event":..., ...}).

#include <string_view>

#include "protocol/Json.hpp"

namespace semis::server {

void logLine(std::string_view level, std::string_view event, protocol::Json fields = protocol::Json::object());
inline void logInfo(std::string_view event, protocol::Json fields = protocol::Json::object()) {
  logLine("info", event, std::move(fields));
}
inline void logWarn(std::string_view event, protocol::Json fields = protocol::Json::object()) {
  logLine("warn", event, std::move(fields));
}

}  // namespace semis::server
