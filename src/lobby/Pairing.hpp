#pragma once
// Quick pairing, pure (docs/club.md, "Matchmaking"): seekers of the same pool (game, clock, rated)
// pair when their ratings are close enough, the window widening with the longer wait; closest
// pairs first. The server feeds it the open seeks twice a second.

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace semis::lobby {

struct Seeker {
  std::string seek;
  std::string player;
  std::string pool;  // seekers pair only within one pool
  double rating = 1500;
  long long since = 0;  // unix ms
  bool rated = false;
};

// The widest rating difference a seek that waited `waitedMs` accepts: 100, plus 20 a second, any
// difference from 60 s on.
[[nodiscard]] double pairingWindow(long long waitedMs);
// Pairs (indices into `seekers`), each player at most once; never a player with himself, never a
// pair `blocked` says no to. Deterministic: closest difference first, then the longest wait.
[[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> pairQuick(
    std::span<const Seeker> seekers, long long nowMs,
    const std::function<bool(const std::string&, const std::string&)>& blocked);
// A lobby seek's range (0: any) admits an accepter of this rating.
[[nodiscard]] bool acceptsLobby(double seekerRating, int range, double accepterRating);

}  // namespace semis::lobby
