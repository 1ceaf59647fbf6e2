#pragma once
// Token buckets: a rate with bursts. One bucket (a connection's messages), or buckets by key (an
// address's new games, sign-in attempts, solver jobs), used under the caller's lock. Keyed buckets
// are bounded: past 100000 keys, a flood of addresses forgets the old ones.

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>

namespace semis::server {

struct TokenBucket {
  double tokens = 0;
  std::chrono::steady_clock::time_point last{};

  // A full bucket of `burst` tokens.
  static TokenBucket full(double burst) { return {burst, std::chrono::steady_clock::now()}; }
  // Refills at `perSecond` up to `burst`, then takes one token if there is one.
  bool take(double burst, double perSecond) {
    const auto now = std::chrono::steady_clock::now();
    tokens = std::min(burst, tokens + perSecond * std::chrono::duration<double>(now - last).count());
    last = now;
    if (tokens < 1.0) return false;
    tokens -= 1.0;
    return true;
  }
};

using Buckets = std::unordered_map<std::string, TokenBucket>;

inline bool takeToken(Buckets& buckets, const std::string& key, double burst, double perSecond) {
  if (buckets.size() >= 100000) buckets.clear();
  auto [it, fresh] = buckets.try_emplace(key, TokenBucket::full(burst));
  return it->second.take(burst, perSecond);
}

}  // namespace semis::server
