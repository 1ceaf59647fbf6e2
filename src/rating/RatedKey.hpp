#pragma once
// Which games are rated: the six presets at their standard options, each its own rating.

#include <optional>
#include <string>
#include <vector>

#include "rules/Rules.hpp"

namespace semis::rating {

// The preset's name when `rules` are exactly one of the rated presets; nothing otherwise (casual).
[[nodiscard]] std::optional<std::string> ratedKey(const Rules& rules);
// kalah, kalah-club, mangala, mangala-castle, al-manqala, congkak.
[[nodiscard]] const std::vector<std::string>& ratedKeys();

}  // namespace semis::rating
