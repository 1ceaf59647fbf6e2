#include "rating/RatedKey.hpp"

namespace semis::rating {

std::optional<std::string> ratedKey(const Rules& rules) {
  for (Preset p : allPresets()) {
    if (rules == presetRules(p)) return std::string(presetName(p));
  }
  return std::nullopt;
}

const std::vector<std::string>& ratedKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (Preset p : allPresets()) k.emplace_back(presetName(p));
    return k;
  }();
  return keys;
}

}  // namespace semis::rating
