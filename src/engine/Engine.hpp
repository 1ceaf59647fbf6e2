#pragma once
// The engine facade: one search on the engine's own thread, results through callbacks.
//
// Blocking contract:
// - go() returns at once. The search runs on a thread the Engine owns; `onIteration` is called on
//   that thread after each completed iteration and `onDone` once with the final result. Nothing is
//   printed: results reach callers only through the callbacks.
// - stop() returns at once (any thread); the search ends at its next check and still calls onDone
//   with its best result so far.
// - wait() blocks until the current search (and its onDone) has finished; at once when idle.
// - go() while a search runs is an error and changes nothing.
// - Callbacks must not call go() or wait() on the same Engine (they run on its thread).
// - The destructor stops and waits.
// Engines share nothing mutable (each owns its search and table; an endgame table is read-only and
// may be shared), so any number of Engine instances can run at once in one process.

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "engine/Egdb.hpp"
#include "engine/Search.hpp"

namespace semis::engine {

struct EngineOptions {
  std::size_t tableMegabytes = 16;
  std::shared_ptr<const Egdb> egdb;  // optional; must be for the same rules
};

class Engine {
 public:
  using Callback = std::function<void(const SearchResult&)>;

  explicit Engine(const Rules& rules, EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Result<void> go(const Position& pos, const Limits& limits, Callback onDone, Callback onIteration = {});
  void stop();
  void wait();
  [[nodiscard]] bool busy() const;
  [[nodiscard]] const Rules& rules() const { return rules_; }

 private:
  Rules rules_;
  std::shared_ptr<const Egdb> egdb_;
  Search search_;
  std::thread worker_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  bool busy_ = false;
};

}  // namespace semis::engine
