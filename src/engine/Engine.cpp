#include "engine/Engine.hpp"

namespace semis::engine {

Engine::Engine(const Rules& rules, EngineOptions options)
    : rules_(rules), egdb_(std::move(options.egdb)), search_(rules, options.tableMegabytes) {
  search_.setEgdb(egdb_.get());  // which takes it only where it serves the rules (Egdb::serves)
}

Engine::~Engine() {
  stop();
  wait();
}

Result<void> Engine::go(const Position& pos, const Limits& limits, Callback onDone, Callback onIteration) {
  std::unique_lock lock(mutex_);
  if (busy_) return fail("the engine is already searching");
  if (pos.over) return fail("the game is over: nothing to search");
  if (worker_.joinable()) worker_.join();  // the previous search has finished its callbacks
  busy_ = true;
  search_.clearStop();
  worker_ = std::thread([this, pos, limits, onDone = std::move(onDone), onIteration = std::move(onIteration)] {
    const SearchResult result = search_.run(pos, limits, onIteration);
    if (onDone) onDone(result);
    const std::lock_guard done(mutex_);
    busy_ = false;
    idle_.notify_all();
  });
  return {};
}

void Engine::stop() { search_.stop(); }

void Engine::wait() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return !busy_; });
  if (worker_.joinable()) worker_.join();
}

bool Engine::busy() const {
  const std::lock_guard lock(mutex_);
  return busy_;
}

}  // namespace semis::engine
