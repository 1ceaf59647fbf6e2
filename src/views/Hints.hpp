#pragma once
// The server's answer to a `hint` message: the engine's hint as codes with their numbers, which the
// client words in the player's language (docs/protocol.md):
// {"type":"hint","game":ID,"house":3,"exact":true,"value":4,"verdict":{"code":"wins_by","n":4},
//  "reasons":[{"code":"extra_turn"},{"code":"captures","n":5}],
//  "moves":[{"house":1,"value":2,"exact":false}, ...]}

#include <string>
#include <string_view>

#include "engine/Hint.hpp"
#include "protocol/Json.hpp"

namespace semis::views {

using protocol::Json;

// wins_by, draws, loses_by_at_most, estimate
[[nodiscard]] std::string_view verdictCode(engine::VerdictCode code);
// extra_turn, captures, protects, stops_capture, no_extra_turn_for_opponent, feeds, chain_captures,
// grand_slam_takes_nothing, grand_slam_avoided
[[nodiscard]] std::string_view reasonCode(engine::Reason reason);
// {"code":...} with "n" when the code has a number (every verdict but draws; captures, protects,
// stops_capture, grand_slam_takes_nothing), chain_captures with "n" and "houses", grand_slam_avoided
// with "n" and "house" (the move that would be the grand slam).
[[nodiscard]] Json verdictJson(const engine::Verdict& verdict);
[[nodiscard]] Json reasonJson(const engine::MoveReason& reason);
[[nodiscard]] Json hintJson(const std::string& gameId, const engine::Hint& hint);

}  // namespace semis::views
