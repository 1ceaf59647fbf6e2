#pragma once
// One game as the hub keeps it (internal to src/server).

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/Messages.hpp"
#include "rules/Game.hpp"
#include "server/Hub.hpp"
#include "store/Store.hpp"

namespace semis::server {

inline const std::string kAiSeat = "ai";

struct Room {
  std::string id;
  protocol::GameSpec spec;
  std::string rulesText;
  long long created = 0;
  std::unique_ptr<Game> game;
  std::array<std::string, 2> seat;      // token, kAiSeat, or "" while free
  std::vector<store::MoveRow> actions;  // everything played, in order (to rebuild `game`)
  std::optional<Json> adjudication;     // {"winner","reason"} for resign, time, agreement
  std::vector<Message> events;          // event n is events[n-1]
  std::unordered_map<Peer*, std::weak_ptr<Peer>> watchers;
  std::array<int, 2> connected{0, 0};  // connections of each seat's player
  std::optional<Side> drawOffer;
  std::array<bool, 2> rematchAsked{false, false};
  std::string rematchId;
  std::unordered_map<std::string, long long> moveIds;  // side letter + client id -> its event
  long long lastPositionEvent = 0;                     // the last event that changed the position
  // Clock: milliseconds left at turnStart; the side to move's runs from turnStart.
  std::array<long long, 2> remaining{0, 0};
  std::chrono::steady_clock::time_point turnStart{};
  bool clockRunning = false;
  bool aiThinking = false;
  std::chrono::steady_clock::time_point lastActivity{};

  [[nodiscard]] bool over() const { return adjudication.has_value() || game->over(); }
  [[nodiscard]] bool full() const { return !seat[0].empty() && !seat[1].empty(); }
};

}  // namespace semis::server
