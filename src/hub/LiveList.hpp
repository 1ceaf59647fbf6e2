#pragma once
// The live list as modules read it: games being played now, newest first, on every instance. The
// club reads the typed fields (who sits where, which rules); only the wire shows `view`, the
// line as /api/games writes it. A cluster shares the lines as JSON text in Redis: liveLineOf()
// reads one back at that edge.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "protocol/Json.hpp"

namespace semis::server {

struct LiveLine {
  std::string id;
  std::string rules;                   // the rules' text (rules/Rules.hpp parseRules reads it)
  std::array<std::string, 2> players;  // the people seated, South then North ("" for none or the computer)
  protocol::Json view;                 // the line for the wire (Room::summaryJson)
};

struct LiveList {
  std::vector<LiveLine> games;  // at most 100, newest first
  long long online = 0;         // open connections, on every instance
};

// A line from its view (Room::summaryJson's shape); nothing if it lacks an id or rules.
[[nodiscard]] inline std::optional<LiveLine> liveLineOf(protocol::Json view) {
  if (!view.is_object() || !view.contains("id") || !view["id"].is_string() || !view.contains("rules") ||
      !view["rules"].is_string())
    return std::nullopt;
  LiveLine line{view["id"].get<std::string>(), view["rules"].get<std::string>(), {}, {}};
  const protocol::Json seats = view.value("seats", protocol::Json::object());
  for (std::size_t s = 0; s < 2; ++s) {
    const char* side = s == 0 ? "S" : "N";
    if (!seats.is_object() || !seats.contains(side)) continue;
    const protocol::Json& seat = seats[side];
    if (seat.is_object() && seat.value("kind", "") == "human" && seat.contains("id") && seat["id"].is_string())
      line.players[s] = seat["id"].get<std::string>();
  }
  line.view = std::move(view);
  return line;
}

[[nodiscard]] inline protocol::Json liveListJson(const LiveList& list) {
  protocol::Json games = protocol::Json::array();
  for (const LiveLine& g : list.games) games.push_back(g.view);
  return protocol::Json{{"games", std::move(games)}, {"online", list.online}};
}

}  // namespace semis::server
