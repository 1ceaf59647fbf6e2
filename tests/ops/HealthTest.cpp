// The health flag /healthz answers from: a failed or stuck store check, or a shutdown, turns it off.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "ops/Health.hpp"

namespace semis::server {
namespace {

using namespace std::chrono_literals;

// Waits (up to a generous deadline) for ok() to become `want`: the checks run on their own thread.
bool becomes(const Health& health, bool want) {
  for (int i = 0; i < 200; ++i) {
    if (health.ok() == want) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

TEST(Health, FollowsTheStoreCheck) {
  std::atomic<bool> answers{true};
  std::atomic<int> probes{0};
  Health health([&] {
    ++probes;
    return answers.load();
  });
  EXPECT_TRUE(health.ok()) << "healthy before the first check: the store opened";
  health.start();
  for (int i = 0; i < 200 && probes == 0; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_GE(probes.load(), 1) << "the first check ran";
  EXPECT_TRUE(health.ok());
  answers = false;
  EXPECT_TRUE(becomes(health, false)) << "a failed check";
  answers = true;
  EXPECT_TRUE(becomes(health, true)) << "the store answers again";
  health.stop();
  EXPECT_GE(probes.load(), 3);
}

TEST(Health, AThrowingCheckIsAFailedOne) {
  Health health([]() -> bool { throw std::bad_alloc(); });
  health.start();
  EXPECT_TRUE(becomes(health, false));
}

TEST(Health, ACheckThatNeverReturnsTurnsItOff) {
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> probes{0};
  Health health([&] {
    if (++probes == 1) return true;
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return release; });  // a query on a cut network
    return true;
  });
  health.start();
  EXPECT_TRUE(becomes(health, false)) << "stuck on its second check, the store is not answering";
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  EXPECT_TRUE(becomes(health, true));
  health.stop();
}

TEST(Health, ShuttingDownTurnsItOff) {
  Health health([] { return true; });
  health.start();
  ASSERT_TRUE(health.ok());
  health.shuttingDown();
  EXPECT_FALSE(health.ok());
}

}  // namespace
}  // namespace semis::server
