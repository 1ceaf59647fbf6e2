#pragma once
// The AI's own thread pool: bounded, fair between players, cancellable. The hub queues a job for
// an AI seat's move or a player's hint; the pool runs at most `threads` at once, takes the queued
// jobs of different owners in turn (one player's 20 games wait behind each other, not in front of
// everyone else's), refuses work past its bounds (the caller answers `busy`), and cancels a game's
// jobs when the game moves on (a resignation, a flag, a finished game): queued ones are dropped,
// running ones see their flag and stop searching at once.

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace semis::server {

struct AiPoolOptions {
  int threads = 1;               // searches at once (the server's --ai-threads, default: the cores)
  std::size_t maxQueued = 1000;  // jobs waiting in all
  std::size_t maxPerOwner = 8;   // jobs waiting or running for one owner (a player)
};

enum class Queued { Yes, Full, OwnerFull, Stopped };

class AiPool {
 public:
  // `cancelled` turns true when the job's key is cancelled or the pool stops: the work must then
  // return promptly (the engine's search polls it). A dropped queued job never runs.
  using Work = std::function<void(const std::atomic<bool>& cancelled)>;

  explicit AiPool(AiPoolOptions options);
  ~AiPool();  // stop()
  AiPool(const AiPool&) = delete;
  AiPool& operator=(const AiPool&) = delete;

  // `owner`: who the work is for (the fairness and per-owner bound); `key`: what cancel() names
  // (a game id). `maxBacklog`: refused (Full) when this many jobs wait already, checked under the
  // pool's lock so that requests handled at once on several threads cannot all slip under it.
  Queued submit(const std::string& owner, const std::string& key, Work work,
                std::size_t maxBacklog = static_cast<std::size_t>(-1));
  // Drops the key's queued jobs and flags its running ones.
  void cancel(const std::string& key);
  // Cancels everything and waits for the running jobs to return. Later submits answer Stopped.
  void stop();

  [[nodiscard]] std::size_t queued() const;
  [[nodiscard]] std::size_t running() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace semis::server
