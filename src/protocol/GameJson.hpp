#pragma once
// The one writer of the rules' JSON that both cores send: the rules catalogue, the legal moves and
// the parts of a game's state (plies, sets, points, the match's winner). The server's room, its
// `/api/rules`, and the WebAssembly core (web/wasm/SemisWasm.cpp) all call these, so the page gets
// the same text whether the server or its own core answers (tests/protocol/WasmCoreTest.cpp).

#include "protocol/Json.hpp"
#include "rules/Notation.hpp"

namespace semis::protocol {

// {"presets":[{"name","options":{option:value}}],"options":[{"name","values","meaning"}]}:
// `/api/rules` and the core's sm_rules.
[[nodiscard]] Json rulesCatalogJson();
// The houses the side to move may sow, ascending: [1,3,4].
[[nodiscard]] Json legalJson(const Board& board, const Position& pos);
// [{"mover","move","set"}] for every ply played.
[[nodiscard]] Json pliesJson(const Game& game);
// Each finished set's outcome (outcomeJson).
[[nodiscard]] Json setResultsJson(const Game& game);
// [south, north]: the match's points (a drawn set is half a point each).
[[nodiscard]] Json pointsJson(const Game& game);
// "S", "N" or "draw": the match's winner once it is over (a match with no winner is a draw).
[[nodiscard]] const char* matchWinnerName(const Game& game);
// The state of a game played without a server (the WebAssembly core's sm_state):
// {"rules","position","legal","status","result","set","sets","points","set_results","can_swap",
//  "plies","record"}.
[[nodiscard]] Json localStateJson(const Record& record);

}  // namespace semis::protocol
