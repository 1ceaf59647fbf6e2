#pragma once
// Which games are rated: the six presets at their standard options, each its own rating.

#include <optional>
#include <string>
#include <vector>

#include "rules/Rules.hpp"

namespace semis::rating {

// The preset's name when `rules` are exactly one of the rated presets; nothing otherwise (casual).
[[nodiscard]] std::optional<std::string> ratedKey(const Rules& rules);
// The bots' pools (docs/bots.md, "Ratings"): a game between two bots is rated in a pool of its
// own per board, never mixed with people's: `bots-kalah-6x4` for Kalah at its standard options
// with 6 houses and 4 seeds. Kalah boards of 4..12 houses and 3..12 seeds; nothing otherwise.
[[nodiscard]] std::optional<std::string> botsKey(const Rules& rules);
[[nodiscard]] bool isBotsKey(const std::string& key);
// kalah, kalah-club, mangala, mangala-castle, al-manqala, congkak.
[[nodiscard]] const std::vector<std::string>& ratedKeys();

}  // namespace semis::rating
