#pragma once
// What /healthz answers: whether this instance should get new players. A load balancer polls it
// and moves players off an instance that is shutting down or has lost its store, so the answer
// must never wait on the store itself: a thread of its own asks the store once a second and the
// request only reads the result.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace semis::server {

class Health {
 public:
  // `probe` is a cheap store call (true: it answered). Not started until start().
  explicit Health(std::function<bool()> probe);
  ~Health();
  Health(const Health&) = delete;
  Health& operator=(const Health&) = delete;

  void start();
  void stop();
  // From now on ok() is false: the server is going down.
  void shuttingDown() { shuttingDown_ = true; }
  // Not shutting down, and the store's last probe answered, recently: a probe stuck on a cut
  // network (TCP keepalives take many seconds) must not leave the instance looking healthy.
  [[nodiscard]] bool ok() const;

 private:
  static long long nowMs();
  void loop();

  std::function<bool()> probe_;
  std::atomic<bool> shuttingDown_{false};
  std::atomic<bool> lastFailed_{false};
  std::atomic<long long> lastAnsweredMs_;  // steady clock: when the store last answered
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace semis::server
