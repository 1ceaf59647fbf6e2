#pragma once
// A few threads for slow, CPU-bound requests (Argon2id password hashing: 64 MiB and a good part of
// a second each) off the network threads, with a bounded queue: when it is full, submit() says no
// and the request is answered `busy` at once. Jobs must not throw.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace semis::server {

class WorkPool {
 public:
  WorkPool(int threads, std::size_t queue) : queue_(queue) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
  }
  ~WorkPool() { stop(); }
  // Runs the jobs already queued, refuses new ones, and returns when its threads have ended. The
  // server stops its pools so before the io_context their jobs answer on goes away.
  void stop() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  [[nodiscard]] bool submit(std::function<void()> job) {
    {
      std::lock_guard lock(mu_);
      if (stop_ || jobs_.size() >= queue_) return false;
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
    return true;
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, and nothing left: queued jobs still run
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  std::size_t queue_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace semis::server
