#pragma once
// Ratings on the server (docs/club.md, "Ratings"): a rated game's end is queued by the hub and rated
// off its lock (Glicko-2, src/rating/), once per game whatever the instance (the store keeps one
// result); the ratings shown beside names, on profiles and on the leaderboard.

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "hub/ClubHooks.hpp"
#include "ops/Metrics.hpp"
#include "protocol/Messages.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

using protocol::Json;

class Ratings {
 public:
  explicit Ratings(store::Store& store) : store_(store), club_(store.club()) {}

  // Told each game this instance rates: its players get a `ratings` message (docs/protocol.md).
  using Told = std::function<void(const std::string& player, const Json& message)>;
  void onRated(Told told, Metrics* metrics) {
    told_ = std::move(told);
    metrics_ = metrics;
  }
  // From any thread: the game is rated by the next drain(). The queue is bounded: an end that does
  // not fit is left to the sweep (counted: semis_ratings_deferred_total), never lost.
  void queue(const std::string& gameId);
  // Rates what is queued (the server's tick). A store failure keeps the game queued for later. The
  // first call, then one a minute, also sweeps the store for rated ends never rated (an instance
  // that died before rating them, a store that failed, a full queue).
  void drain();
  // Queues the rated ends of the last `days` not rated yet; how many (nothing: the store failed).
  std::optional<std::size_t> sweep(long long sinceMs);
  // {S,N: {before, after, change}} of a stored result (the `ratings` message).
  [[nodiscard]] static Json resultJson(const store::RatedResult& rr);
  [[nodiscard]] static std::array<ClubView::Change, 2> changes(const store::RatedResult& rr);
  // Rates one game now if it is rated, over, not aborted and not rated yet: true when done or nothing
  // to do, false when the store failed.
  bool rate(const std::string& gameId);

  // A player's rating in `key` as of now (its deviation grown with idle time), the default for none.
  [[nodiscard]] store::RatingRow current(const std::string& player, const std::string& key);
  [[nodiscard]] static Json ratingJson(const store::RatingRow& row);  // {key, rating, deviation, provisional, games}
  // The state's club fields (typed; the hub writes them): the key, each human seat's rating in a
  // rated game, and the rated result once rated.
  [[nodiscard]] ClubView view(const ClubGame& game);
  [[nodiscard]] std::optional<Json> leaderboard(const std::string& key);
  // The key a rated game of these players moves: a bots' pool when both are bots (rating::botsKey),
  // people's preset otherwise; none (inner) for a casual board; nothing (outer) when the store failed.
  [[nodiscard]] std::optional<std::optional<std::string>> keyOf(const Rules& rules, const std::array<std::string, 2>& players);

 private:
  store::Store& store_;
  store::ClubStore& club_;
  Told told_;
  std::mutex mu_;
  std::deque<std::string> queued_;
  std::set<std::string> pending_;
  std::chrono::steady_clock::time_point nextSweep_{};  // the first drain() sweeps
  Metrics* metrics_ = nullptr;
};

}  // namespace semis::server
