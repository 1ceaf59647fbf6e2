#pragma once
// What the hub asks of the bots' gateway (gateway/, docs/bots.md) without knowing it: which bot a
// game against a bot seats, and a word whenever a game changes, so that a bot connected here is
// offered its turn. Set with Hub::setBots; without one, games against bots are refused.

#include <array>
#include <optional>
#include <string>

#include "room/Room.hpp"

namespace semis::server {

class BotHooks {
 public:
  virtual ~BotHooks() = default;
  // The player id of the bot called `name`, if it can play now (connected), else a refusal.
  // `rules` are the game's: a bot plays the rules its protocol can say (Kalah boards).
  virtual room::Outcome<std::string> playable(const std::string& name, const Rules& rules) = 0;
  // A game held here changed (created, moved, loaded, followed from another instance), with the
  // players in its seats. Called under the game's lock: the gateway only queues a look at it.
  virtual void gameChanged(const std::string& gameId, const std::array<std::string, 2>& seats) = 0;
};

// A game as a bot's connection sees it: typed, read under the game's lock (Hub::turnOf).
struct GameTurn {
  std::string id;
  Rules rules;
  Position position;  // the position now; its toMove is the side to move
  std::size_t plies = 0;
  bool over = false;
  std::array<std::string, 2> players;  // South, North
  std::array<std::string, 2> names;
  std::array<bool, 2> present{};       // a connection of the seat's player watches it (the computer always)
  bool rated = false;
  std::array<std::optional<long long>, 2> claimAt;  // from when (unix ms) each seat may be claimed against
};

}  // namespace semis::server
