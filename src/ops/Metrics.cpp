#include "ops/Metrics.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace semis::server {

namespace {

struct Refusals {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, long long> counts;
};

Refusals& refusalCounts() {
  static Refusals r;
  return r;
}

// A code as a label value: the server's own codes are [a-z_]; anything else is not one.
bool plainCode(std::string_view code) {
  if (code.empty() || code.size() > 40) return false;
  for (char c : code)
    if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
  return true;
}

void metric(std::string& out, const char* name, const char* type, const char* help, const std::string& value) {
  out +=
      std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" + name + " " + value + "\n";
}
}  // namespace

void Metrics::refused(std::string_view via, std::string_view code) {
  Refusals& r = refusalCounts();
  std::lock_guard lock(r.mu);
  std::pair<std::string, std::string> key{std::string(via), plainCode(code) ? std::string(code) : "other"};
  if (r.counts.size() >= 256 && r.counts.count(key) == 0) key.second = "other";
  ++r.counts[key];
}

long long Metrics::refusals(std::string_view via, std::string_view code) {
  Refusals& r = refusalCounts();
  std::lock_guard lock(r.mu);
  auto it = r.counts.find({std::string(via), std::string(code)});
  return it == r.counts.end() ? 0 : it->second;
}

std::string Metrics::render() const {
  std::string out;
  metric(out, "semis_connections", "gauge", "Open WebSocket connections.", std::to_string(connectionsOpen.load()));
  metric(out, "semis_connections_total", "counter", "WebSocket connections accepted.",
         std::to_string(connectionsTotal.load()));
  metric(out, "semis_http_requests_total", "counter", "HTTP requests served.", std::to_string(httpRequests.load()));
  metric(out, "semis_ws_messages_total", "counter", "WebSocket messages received.", std::to_string(wsMessages.load()));
  metric(out, "semis_games_created_total", "counter", "Games created.", std::to_string(gamesCreated.load()));
  metric(out, "semis_games_active", "gauge", "Games waiting or being played, of those in memory.",
         std::to_string(gamesActive.load()));
  metric(out, "semis_games_in_memory", "gauge", "Games held in memory (the rest load on demand).",
         std::to_string(gamesInMemory.load()));
  metric(out, "semis_moves_total", "counter", "Moves played (AI moves included).", std::to_string(moves.load()));
  metric(out, "semis_ai_moves_total", "counter", "Moves chosen by AI seats.", std::to_string(aiMoves.load()));
  metric(out, "semis_ai_seconds_total", "counter", "Time spent choosing AI moves.",
         std::to_string(static_cast<double>(aiMicros.load()) / 1e6));
  metric(out, "semis_errors_total", "counter", "Error messages sent to clients.", std::to_string(errors.load()));
  metric(out, "semis_rate_limited_total", "counter", "Messages refused by the rate limit.",
         std::to_string(rateLimited.load()));
  metric(out, "semis_store_errors_total", "counter", "Failed database writes.", std::to_string(storeErrors.load()));
  metric(out, "semis_conflicts_total", "counter", "Actions another instance stored first.",
         std::to_string(conflicts.load()));
  metric(out, "semis_bus_followed_total", "counter", "Other instances' actions followed.",
         std::to_string(busFollowed.load()));
  metric(out, "semis_bus_reloads_total", "counter", "Games reloaded from the store to catch up.",
         std::to_string(busReloads.load()));
  metric(out, "semis_bus_caught_up_total", "counter", "Quiet games found behind the record and reloaded.",
         std::to_string(busCaughtUp.load()));
  metric(out, "semis_bus_refused_total", "counter", "Malformed bus messages.", std::to_string(busRefused.load()));
  metric(out, "semis_ratings_deferred_total", "counter", "Rated ends left to the sweep (the queue was full).",
         std::to_string(ratingsDeferred.load()));
  metric(out, "semis_ratings_swept_total", "counter", "Rated ends the sweep found never rated.",
         std::to_string(ratingsSwept.load()));
  out +=
      "# HELP semis_refusals_total Refusals sent to clients, by channel (ws, http) and code.\n"
      "# TYPE semis_refusals_total counter\n";
  Refusals& r = refusalCounts();
  std::lock_guard lock(r.mu);
  for (const auto& [key, n] : r.counts)
    out += "semis_refusals_total{via=\"" + key.first + "\",code=\"" + key.second + "\"} " + std::to_string(n) + "\n";
  metric(out, "semis_stale_tokens_total", "counter", "Revoked session cookies met again (each became a new guest).",
         std::to_string(staleTokens.load()));
  metric(out, "semis_no_shows_total", "counter", "Games aborted: a player never made his first move.",
         std::to_string(noShows.load()));
  metric(out, "semis_origins_refused_total", "counter", "WebSocket upgrades refused for their Origin.",
         std::to_string(originsRefused.load()));
  return out;
}

}  // namespace semis::server
