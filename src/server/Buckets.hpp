#pragma once
// Token buckets by key (an address): bursts of `burst`, then `perSecond`. Used under the caller's
// lock. Bounded: past 100000 keys, a flood of addresses forgets the old ones.

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>
#include <utility>

namespace semis::server {

using Buckets = std::unordered_map<std::string, std::pair<double, std::chrono::steady_clock::time_point>>;

inline bool takeToken(Buckets& buckets, const std::string& key, double burst, double perSecond) {
  const auto now = std::chrono::steady_clock::now();
  if (buckets.size() >= 100000) buckets.clear();
  auto [it, fresh] = buckets.try_emplace(key, burst, now);
  auto& [tokens, last] = it->second;
  if (!fresh) {
    tokens = std::min(burst, tokens + perSecond * std::chrono::duration<double>(now - last).count());
    last = now;
  }
  if (tokens < 1.0) return false;
  tokens -= 1.0;
  return true;
}

}  // namespace semis::server
