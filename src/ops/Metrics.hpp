#pragma once
// Counters for /metrics (Prometheus text format). Lock-free: any thread bumps them.

#include <atomic>
#include <string>
#include <string_view>

namespace semis::server {

struct Metrics {
  std::atomic<long long> connectionsOpen{0};  // WebSocket connections now
  std::atomic<long long> connectionsTotal{0};
  std::atomic<long long> httpRequests{0};
  std::atomic<long long> wsMessages{0};
  std::atomic<long long> gamesCreated{0};
  std::atomic<long long> gamesActive{0};
  std::atomic<long long> gamesInMemory{0};
  std::atomic<long long> moves{0};
  std::atomic<long long> aiMoves{0};
  std::atomic<long long> aiMicros{0};
  std::atomic<long long> errors{0};  // error messages sent to clients
  std::atomic<long long> rateLimited{0};
  std::atomic<long long> storeErrors{0};
  std::atomic<long long> conflicts{0};        // actions another instance stored first (then retried)
  std::atomic<long long> busFollowed{0};      // actions of other instances applied to games held here
  std::atomic<long long> busReloads{0};       // games reloaded from the store (a gap, a lost bus)
  std::atomic<long long> busRefused{0};       // malformed bus messages
  std::atomic<long long> busCaughtUp{0};      // quiet games found behind the record (a lost publish)
  std::atomic<long long> ratingsDeferred{0};  // rated ends the queue had no room for (left to the sweep)
  std::atomic<long long> ratingsSwept{0};     // rated ends the sweep found never rated
  std::atomic<long long> staleTokens{0};      // revoked session cookies met again (each a new guest)
  std::atomic<long long> noShows{0};          // games aborted because a player never made his first move
  std::atomic<long long> originsRefused{0};   // WebSocket upgrades from another site's page

  // A refusal sent to a client (a WebSocket `error`, `via` "ws", or an HTTP API error, "http"), by
  // its code: `semis_refusals_total{via,code}`. Process-wide (the API's error answers know no
  // Metrics); at most 256 distinct codes, the rest counted as "other".
  static void refused(std::string_view via, std::string_view code);
  [[nodiscard]] static long long refusals(std::string_view via, std::string_view code);

  [[nodiscard]] std::string render() const;
};

}  // namespace semis::server
