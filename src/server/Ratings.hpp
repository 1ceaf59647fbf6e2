#pragma once
// Ratings on the server (docs/club.md, "Ratings"): a rated game's end is queued by the hub and rated
// off its lock (Glicko-2, src/rating/), once per game whatever the instance (the store keeps one
// result); the ratings shown beside names, on profiles and on the leaderboard.

#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "protocol/Messages.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

using protocol::Json;

class Ratings {
 public:
  explicit Ratings(store::Store& store) : store_(store), club_(store.club()) {}

  // From any thread: the game is rated by the next drain().
  void queue(const std::string& gameId);
  // Rates what is queued (the server's tick). A store failure keeps the game queued for later.
  void drain();
  // Rates one game now if it is rated, over, not aborted and not rated yet: true when done or nothing
  // to do, false when the store failed.
  bool rate(const std::string& gameId);

  // A player's rating in `key` as of now (its deviation grown with idle time), the default for none.
  [[nodiscard]] store::RatingRow current(const std::string& player, const std::string& key);
  [[nodiscard]] static Json ratingJson(const store::RatingRow& row);  // {key, rating, deviation, provisional, games}
  // The state's club fields: `key`, each human seat's `rating`, and `ratings` once rated.
  void decorate(Json& state);
  [[nodiscard]] std::optional<Json> leaderboard(const std::string& key);

 private:
  store::Store& store_;
  store::ClubStore& club_;
  std::mutex mu_;
  std::deque<std::string> queued_;
  std::set<std::string> pending_;
};

}  // namespace semis::server
