#pragma once
// JSON views of the rules engine's values, shared by the `semis` command line and the server.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "rules/Board.hpp"
#include "rules/Game.hpp"

namespace semis::protocol {

using Json = nlohmann::ordered_json;

// Text for the wire or a log: never throws, whatever the strings hold (invalid UTF-8 becomes U+FFFD).
// Every dump of a value that holds text a client sent goes through this.
[[nodiscard]] std::string dumpJson(const Json& j);
// At most `maxBytes` of `text`, cut on a UTF-8 character boundary (for quoting client text in
// messages): a cut inside a character would make the quote invalid UTF-8.
[[nodiscard]] std::string clipUtf8(std::string_view text, std::size_t maxBytes);

[[nodiscard]] const char* sideName(Side s);
// South's houses in South's sowing order, then North's in North's.
[[nodiscard]] Json housesJson(const Board& board, const Position& pos);
// {"houses","stores","to_move","castle"}: a position as every message carries it.
[[nodiscard]] Json positionJson(const Board& board, const Position& pos);
[[nodiscard]] Json storesJson(const Board& board, const Position& pos);
[[nodiscard]] Json outcomeJson(const Outcome& outcome);
[[nodiscard]] std::string_view endCauseName(EndCause cause);
// {"kind":"drop","pit":3,...}: the pit numbering is the ring's (docs/protocol.md).
[[nodiscard]] Json eventJson(const Event& event);
[[nodiscard]] Json traceJson(const Trace& trace);
// The `semis replay` line of a ply (ply 0: the start, with no mover or move).
[[nodiscard]] Json replayLine(const Game& game, int ply);

}  // namespace semis::protocol
