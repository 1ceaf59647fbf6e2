#include "rating/RatedKey.hpp"

namespace semis::rating {

std::optional<std::string> ratedKey(const Rules& rules) {
  for (Preset p : allPresets()) {
    if (rules == presetRules(p)) return std::string(presetName(p));
  }
  return std::nullopt;
}

std::optional<std::string> botsKey(const Rules& rules) {
  if (rules.houses < 4 || rules.houses > 12 || rules.seeds < 3 || rules.seeds > 12) return std::nullopt;
  Rules standard = presetRules(Preset::Kalah);
  standard.houses = rules.houses;
  standard.seeds = rules.seeds;
  if (!(rules == standard)) return std::nullopt;
  return "bots-kalah-" + std::to_string(rules.houses) + "x" + std::to_string(rules.seeds);
}

bool isBotsKey(const std::string& key) {
  // Read back through the rules: only the keys botsKey makes.
  constexpr std::string_view prefix = "bots-kalah-";
  if (key.size() > 20 || key.rfind(prefix, 0) != 0) return false;
  const std::string size = key.substr(prefix.size());
  const auto x = size.find('x');
  if (x == std::string::npos || x == 0 || x + 1 >= size.size()) return false;
  auto rules = parseRules("kalah,houses=" + size.substr(0, x) + ",seeds=" + size.substr(x + 1));
  return rules && botsKey(*rules) == key;
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
