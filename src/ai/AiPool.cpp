#include "ai/AiPool.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <list>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "ops/Log.hpp"

namespace semis::server {

namespace {

struct Job {
  std::string owner;
  std::string key;
  AiPool::Work work;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
};

struct Owner {
  std::deque<Job> queued;
  std::size_t running = 0;
};

}  // namespace

struct AiPool::State {
  AiPoolOptions options;
  mutable std::mutex mu;
  std::mutex stopMu;             // serializes stop()
  std::condition_variable wake;  // work queued, or stopping
  bool stopping = false;
  std::unordered_map<std::string, Owner> owners;  // those with queued or running jobs
  // The owners with queued jobs, in the order they are served: the front one's next job runs
  // next, and an owner with more goes to the back (round-robin, one job at a time).
  std::deque<std::string> turn;
  std::size_t queued = 0;
  // The running jobs' keys and flags (cancel() sets them).
  std::list<std::pair<std::string, std::shared_ptr<std::atomic<bool>>>> running;
  std::vector<std::thread> threads;

  void work();
  // Under mu: the owner's entry goes when it has nothing queued or running.
  void forgetIfIdle(const std::string& owner) {
    auto it = owners.find(owner);
    if (it != owners.end() && it->second.queued.empty() && it->second.running == 0) owners.erase(it);
  }
};

void AiPool::State::work() {
  std::unique_lock lock(mu);
  for (;;) {
    wake.wait(lock, [&] { return stopping || !turn.empty(); });
    if (stopping) return;
    const std::string ownerName = std::move(turn.front());
    turn.pop_front();
    Owner& owner = owners.at(ownerName);
    Job job = std::move(owner.queued.front());
    owner.queued.pop_front();
    --queued;
    ++owner.running;
    if (!owner.queued.empty()) turn.push_back(ownerName);
    auto slot = running.emplace(running.end(), job.key, job.cancelled);
    lock.unlock();
    // A job's failure is logged and forgotten: the pool's threads serve everyone else.
    try {
      job.work(*job.cancelled);
    } catch (const std::exception& e) {
      logWarn("ai_job_failed", {{"owner", job.owner}, {"key", job.key}, {"what", e.what()}});
    } catch (...) {
      logWarn("ai_job_failed", {{"owner", job.owner}, {"key", job.key}, {"what", "unknown exception"}});
    }
    job.work = nullptr;  // its captures go before the lock is taken again
    lock.lock();
    running.erase(slot);
    --owners.at(ownerName).running;
    forgetIfIdle(ownerName);
  }
}

AiPool::AiPool(AiPoolOptions options) : state_(std::make_unique<State>()) {
  state_->options = options;
  const int threads = std::max(1, options.threads);
  state_->threads.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) state_->threads.emplace_back([s = state_.get()] { s->work(); });
}

AiPool::~AiPool() { stop(); }

Queued AiPool::submit(const std::string& owner, const std::string& key, Work work, std::size_t maxBacklog) {
  State& s = *state_;
  const std::lock_guard lock(s.mu);
  if (s.stopping) return Queued::Stopped;
  const auto it = s.owners.find(owner);
  const std::size_t mine = it == s.owners.end() ? 0 : it->second.queued.size() + it->second.running;
  if (mine >= s.options.maxPerOwner) return Queued::OwnerFull;
  if (s.queued >= std::min(s.options.maxQueued, maxBacklog)) return Queued::Full;
  Owner& o = s.owners[owner];
  if (o.queued.empty()) s.turn.push_back(owner);
  o.queued.push_back(Job{owner, key, std::move(work)});
  ++s.queued;
  s.wake.notify_one();
  return Queued::Yes;
}

void AiPool::cancel(const std::string& key) {
  State& s = *state_;
  std::vector<Job> dropped;  // destroyed after the lock: a job's captures may do anything
  {
    const std::lock_guard lock(s.mu);
    for (auto& [name, owner] : s.owners) {
      for (auto it = owner.queued.begin(); it != owner.queued.end();) {
        if (it->key == key) {
          dropped.push_back(std::move(*it));
          it = owner.queued.erase(it);
          --s.queued;
        } else {
          ++it;
        }
      }
    }
    // Owners left with nothing queued leave the turn; idle ones are forgotten.
    std::erase_if(s.turn, [&](const std::string& name) { return s.owners.at(name).queued.empty(); });
    for (const Job& j : dropped) s.forgetIfIdle(j.owner);
    for (auto& [k, flag] : s.running) {
      if (k == key) flag->store(true);
    }
  }
}

void AiPool::stop() {
  State& s = *state_;
  // One stop() at a time: a second caller (the destructor after an explicit stop) waits for the
  // first to have joined.
  const std::lock_guard serial(s.stopMu);
  std::vector<Job> dropped;  // queued jobs never run; destroyed after the lock
  std::vector<std::thread> threads;
  {
    const std::lock_guard lock(s.mu);
    s.stopping = true;
    for (auto& [k, flag] : s.running) flag->store(true);
    for (auto& [name, owner] : s.owners) {
      for (Job& j : owner.queued) dropped.push_back(std::move(j));
      owner.queued.clear();
    }
    // Running jobs keep their owners' entries until they return.
    std::erase_if(s.owners, [](const auto& entry) { return entry.second.running == 0; });
    s.turn.clear();
    s.queued = 0;
    threads.swap(s.threads);
  }
  s.wake.notify_all();
  std::vector<std::thread> self;
  for (std::thread& t : threads) {
    // stop() from a job cannot wait for its own thread: a later stop() (the destructor) joins it.
    if (t.get_id() == std::this_thread::get_id()) {
      self.push_back(std::move(t));
    } else {
      t.join();
    }
  }
  if (!self.empty()) {
    const std::lock_guard lock(s.mu);
    for (std::thread& t : self) s.threads.push_back(std::move(t));
  }
}

std::size_t AiPool::queued() const {
  const std::lock_guard lock(state_->mu);
  return state_->queued;
}

std::size_t AiPool::running() const {
  const std::lock_guard lock(state_->mu);
  return state_->running.size();
}

}  // namespace semis::server
