#pragma once
// Wall-clock unix milliseconds: what the store records (an action's `at`, a game's `updated`) and
// what log lines and sessions are stamped with. Durations and deadlines use steady_clock instead.

#include <chrono>

namespace semis::server {

inline long long nowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace semis::server
