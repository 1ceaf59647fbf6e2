#pragma once
// The study features on the wire (docs/protocol.md, "Study"): a game's review and the daily
// challenge, as codes and numbers the client words in the player's language.

#include <string_view>

#include "protocol/Json.hpp"
#include "study/Daily.hpp"
#include "study/Review.hpp"

namespace semis::views {

using protocol::Json;

// forced, best, good, inaccuracy, mistake, blunder
[[nodiscard]] std::string_view markCode(study::Mark mark);
// {"plies":[{"set","mover","move","best","best_value","best_exact","played","played_exact","loss",
//  "mark","moves":[{"house","value","exact"}]}], "turning": index or null, "nodes"}
[[nodiscard]] Json reviewJson(const study::Review& review);
// {"rules","date","position":{...},"position_text","value","decisions"} and, with the solution
// (a past day), "line".
[[nodiscard]] Json puzzleJson(const Rules& rules, const study::Puzzle& puzzle, bool withSolution);

}  // namespace semis::views
