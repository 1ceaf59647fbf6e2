#include "lobby/Pairing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
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
  // Within one pool, sorted by rating, the closest partner of any seeker is a neighbour. So the
  // candidates are neighbouring pairs only, taken closest first from a heap; pairing two joins their
  // outer neighbours into a new candidate. O(n log n) where trying every pair was O(n^2) (3000
  // seekers: 2.2 s a pass, bench/LobbyBench.cpp).
  struct Candidate {
    double gap;
    long long oldest;
    std::size_t i, j;
    bool operator>(const Candidate& o) const { return std::tie(gap, oldest, i, j) > std::tie(o.gap, o.oldest, o.i, o.j); }
  };
  std::vector<std::size_t> order(seekers.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Seeker& x = seekers[a];
    const Seeker& y = seekers[b];
    return std::tie(x.pool, x.rated, x.rating, x.since, x.seek) < std::tie(y.pool, y.rated, y.rating, y.since, y.seek);
  });
  // A doubly linked list over `order` (positions), cut between pools.
  const std::size_t none = order.size();
  std::vector<std::size_t> prev(order.size()), next(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const bool samePoolBefore = k > 0 && seekers[order[k - 1]].pool == seekers[order[k]].pool &&
                                seekers[order[k - 1]].rated == seekers[order[k]].rated;
    prev[k] = samePoolBefore ? k - 1 : none;
    if (samePoolBefore) next[k - 1] = k;
    next[k] = none;
  }
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
  const auto offer = [&](std::size_t a, std::size_t b) {
    if (a == none || b == none) return;
    const Seeker& x = seekers[order[a]];
    const Seeker& y = seekers[order[b]];
    const double gap = std::abs(x.rating - y.rating);
    const long long oldest = std::min(x.since, y.since);
    if (gap <= pairingWindow(nowMs - oldest)) heap.push({gap, oldest, a, b});
  };
  for (std::size_t k = 0; k < order.size(); ++k) offer(k, next[k]);
  std::vector<bool> gone(order.size(), false);
  // Each player at most once a call: one with seeks in two pools plays one game, not two at once.
  std::set<std::string> taken;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  while (!heap.empty()) {
    const Candidate c = heap.top();
    heap.pop();
    if (gone[c.i] || gone[c.j] || next[c.i] != c.j) continue;  // stale: one side left the list
    const std::string& a = seekers[order[c.i]].player;
    const std::string& b = seekers[order[c.j]].player;
    if (a == b || taken.count(a) != 0 || taken.count(b) != 0 || (blocked && blocked(a, b))) {
      // Not these two: the next one along may do for either.
      if (next[c.j] != none) offer(c.i, next[c.j]);
      if (prev[c.i] != none) offer(prev[c.i], c.j);
      continue;
    }
    taken.insert(a);
    taken.insert(b);
    pairs.emplace_back(std::min(order[c.i], order[c.j]), std::max(order[c.i], order[c.j]));
    gone[c.i] = gone[c.j] = true;
    const std::size_t before = prev[c.i], after = next[c.j];
    if (before != none) next[before] = after;
    if (after != none) prev[after] = before;
    offer(before, after);
  }
  return pairs;
}

bool acceptsLobby(double seekerRating, int range, double accepterRating) {
  return range <= 0 || std::abs(seekerRating - accepterRating) <= range;
}

}  // namespace semis::lobby
