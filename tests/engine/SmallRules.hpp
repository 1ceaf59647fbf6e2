#pragma once
// A preset on a smaller board, for the engine tests that need a game small enough to search or
// tabulate whole.

#include "rules/Rules.hpp"

namespace semis::engine {

inline Rules small(Preset preset, int houses, int seeds) {
  Rules r = presetRules(preset);
  r.houses = houses;
  r.seeds = seeds;
  return r;
}

}  // namespace semis::engine
