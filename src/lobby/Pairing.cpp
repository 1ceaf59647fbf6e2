#include "lobby/Pairing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

namespace semis::lobby {

double pairingWindow(long long waitedMs) {
  if (waitedMs >= 60'000) return std::numeric_limits<double>::infinity();
  return 100.0 + 20.0 * static_cast<double>(std::max(0LL, waitedMs)) / 1000.0;
}

std::vector<std::pair<std::size_t, std::size_t>> pairQuick(
    std::span<const Seeker> seekers, long long nowMs,
    const std::function<bool(const std::string&, const std::string&)>& blocked) {
  struct Candidate {
    double gap;
    long long oldest;
    std::size_t i, j;
  };
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < seekers.size(); ++i) {
    for (std::size_t j = i + 1; j < seekers.size(); ++j) {
      const Seeker& a = seekers[i];
      const Seeker& b = seekers[j];
      if (a.pool != b.pool || a.rated != b.rated || a.player == b.player) continue;
      const double gap = std::abs(a.rating - b.rating);
      const long long oldest = std::min(a.since, b.since);
      if (gap > pairingWindow(nowMs - oldest)) continue;
      candidates.push_back({gap, oldest, i, j});
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    return std::tie(x.gap, x.oldest, x.i, x.j) < std::tie(y.gap, y.oldest, y.i, y.j);
  });
  // Each player at most once a call: one with seeks in two pools plays one game, not two at once.
  std::set<std::string> taken;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (const Candidate& c : candidates) {
    const std::string& a = seekers[c.i].player;
    const std::string& b = seekers[c.j].player;
    if (taken.count(a) != 0 || taken.count(b) != 0) continue;
    if (blocked && blocked(a, b)) continue;
    taken.insert(a);
    taken.insert(b);
    pairs.emplace_back(c.i, c.j);
  }
  return pairs;
}

bool acceptsLobby(double seekerRating, int range, double accepterRating) {
  return range <= 0 || std::abs(seekerRating - accepterRating) <= range;
}

}  // namespace semis::lobby
