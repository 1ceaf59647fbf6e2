#pragma once
// A contest's JSON (the edges): the body kept in the store (store/ContestStore.hpp) and read back,
// and the answer of GET /api/bots/matches/{id} and /api/bots/tournaments/{id} (docs/bots.md).

#include <optional>
#include <string>

#include "contests/Contest.hpp"
#include "protocol/Json.hpp"
#include "store/ContestStore.hpp"

namespace semis::server {

using protocol::Json;

[[nodiscard]] store::ContestRow contestRow(const Contest& contest, long long nowMs);
// Nothing when the row does not read back (a body this version cannot read).
[[nodiscard]] std::optional<Contest> contestOf(const store::ContestRow& row);

// {id, kind, name, rules, key, move_seconds, status, created, bots:[{id,name}], games:[...],
//  table:[{rank, id, name, points, games, wins, draws, losses, seeds_for, seeds_against}],
//  score (a match: [entrant 0's points, entrant 1's])}
[[nodiscard]] Json contestJson(const Contest& contest);
// A line of the recent list: {id, kind, name, rules, status, created, bots (names), leader}.
[[nodiscard]] Json contestLineJson(const Contest& contest);

}  // namespace semis::server
