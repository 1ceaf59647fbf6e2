#pragma once
// What the hub asks of the club (server/Club.hpp) without knowing it: the club's messages, a
// connection gone (its seeks go with it), a rated game over (ratings move), and the club's fields
// of a game's state (ratings). Set with Hub::setClub; without one the club's messages are refused.

#include <array>
#include <memory>
#include <optional>
#include <string>

#include "protocol/Messages.hpp"

namespace semis::room {
class Room;
}

namespace semis::server {

class Peer;

// A game as the club sees it when it decorates the game's state: typed, read under its lock.
struct ClubGame {
  std::string id;
  Rules rules;
  bool rated = false;
  bool over = false;
  std::array<std::string, 2> humans;  // South, North: a human seat's player id, or "" (AI, free)
};

// The club's fields of a game's state (docs/protocol.md `state`): the rating key (none: the rules
// are not a rated game's), each human seat's rating in a rated game, and the rated result once
// rated. The hub writes them at the JSON edge (writeClubView).
struct ClubView {
  struct SeatRating {
    double rating = 0;
    bool provisional = true;
  };
  struct Change {
    double before = 0;
    double after = 0;
    double change = 0;
  };
  std::optional<std::string> key;
  std::array<std::optional<SeatRating>, 2> seats;   // South, North
  std::optional<std::array<Change, 2>> ratings;     // South, North
};

// Writes `key`, each rated seat's `rating` ({rating, provisional}) and `ratings` ({S,N: {before,
// after, change}}) into a game's state JSON.
void writeClubView(protocol::Json& state, const ClubView& view);
// {S,N: {before, after, change}}, rounded: the state's `ratings` and the `ratings` message's.
[[nodiscard]] protocol::Json ratingChangesJson(const std::array<ClubView::Change, 2>& changes);
// What the club is asked about a room (under the game's lock).
[[nodiscard]] ClubGame clubGameOf(const room::Room& room);

class ClubHooks {
 public:
  virtual ~ClubHooks() = default;
  virtual void onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) = 0;
  virtual void detached(Peer* peer) = 0;
  // A rated game is over (called by each instance that sees it end or loads it ended; the store
  // keeps one result). Called with the game's lock held: queue it, do not rate it here.
  virtual void ratedGameOver(const std::string& gameId) = 0;
  // The club's fields of a game's state (not under the game's lock when the hub can help it: the
  // ratings are read from the store).
  [[nodiscard]] virtual ClubView clubView(const ClubGame& game) = 0;
};

}  // namespace semis::server
