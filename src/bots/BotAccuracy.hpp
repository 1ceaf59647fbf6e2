#pragma once
// Bots judged by the solver (docs/bots.md, "Accuracy"): every finished game with a bot in a seat is
// reviewed in the background, as a visitor's review is (studyapi/Study: the same budget a
// position, the same cache, so the game's review page shows the values counted), and each bot
// seat's tally (study/Accuracy.hpp) is kept in the store once per game (store/AccuracyStore.hpp).
//
// The games are found by sweeping the store, never told by a network thread: every 2 s the ends of
// the last 2 minutes, every minute those of the last day, and at the start those of 30 days, so a
// game that ended while no instance ran, or that a full queue or a failed store left, is found
// again. The reviews run one at a time on a thread of their own; the queue is bounded.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "store/Store.hpp"
#include "studyapi/Study.hpp"

namespace semis::server {

struct AccuracyOptions {
  std::size_t queueLimit = 256;       // games waiting for their review; the rest wait for a sweep
  int sweepEveryMs = 2000;            // the recent ends' sweep
  long long recentMs = 2LL * 60'000;  // ... over this window (instances' clocks may differ a little)
};

// What reviewing one game came to.
enum class AccuracyDone {
  Kept,     // reviewed, its rows kept (or another instance's were there first)
  Nothing,  // nothing to keep: not a finished bot game
  Later,    // the store or the hub did not answer, or the game is not over there yet: found again
};

class BotAccuracy {
 public:
  BotAccuracy(store::Store& store, Study& study, AccuracyOptions options = {});
  ~BotAccuracy();  // stops the thread (a review under way is cancelled)
  BotAccuracy(const BotAccuracy&) = delete;
  BotAccuracy& operator=(const BotAccuracy&) = delete;

  void start();
  // Reviews one game now, on the calling thread (the worker's; tests).
  AccuracyDone reviewGame(const std::string& gameId);
  // Queues the unreviewed bot games that ended since `sinceMs`, within the queue's room; how many
  // (nothing: the store failed).
  std::optional<std::size_t> sweep(long long sinceMs);

 private:
  void run();

  store::Store& store_;
  Study& study_;
  AccuracyOptions options_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::string> queued_;
  std::set<std::string> pending_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace semis::server
