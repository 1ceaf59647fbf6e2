#pragma once
// Kalah of any size for the kgp tests (bots' tournaments play 4x3 up to 12x12).
#include "rules/Rules.hpp"

namespace semis::kgp {

inline Rules kalah(int houses, int seeds) {
  Rules r = presetRules(Preset::Kalah);
  r.houses = houses;
  r.seeds = seeds;
  return r;
}

}  // namespace semis::kgp
