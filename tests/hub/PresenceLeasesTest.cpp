// A bot's presence lease (hub/PresenceLeases): present while renewed, absent once removed, and
// never brought back by a renewal made before the removal.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cluster/Bus.hpp"
#include "LoopbackDouble.hpp"
#include "hub/ClusterLink.hpp"

namespace semis::server {
namespace {

// A loopback bus whose fire-and-forget writer is slow: what is sent waits until release(), as a
// busy Redis writer connection's queue does, while command() answers at once.
class SlowWriterBus final : public LoopbackDouble {
 public:
  using LoopbackDouble::LoopbackDouble;
  void send(std::vector<std::string> args) override {
    std::lock_guard lock(mu_);
    held_.push_back(std::move(args));
  }
  void release() {
    std::vector<std::vector<std::string>> held;
    {
      std::lock_guard lock(mu_);
      held.swap(held_);
    }
    for (auto& args : held) inner().send(std::move(args));
  }

 private:
  std::mutex mu_;
  std::vector<std::vector<std::string>> held_;
};

// The writer thread has had its chance to write whatever it had queued.
void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

TEST(PresenceLeases, ARenewalMadeBeforeTheAbsenceNeverLandsAfterIt) {
  auto hub = cluster::makeLoopbackHub();
  SlowWriterBus bus(hub);
  ClusterLink link(bus, "one", "site");
  link.markPresent("bot", 10000, /*wait=*/true);
  ASSERT_EQ(link.presentPlayers(10), std::vector<std::string>{"bot"});
  // The periodic renewal, then the token is revoked at once: the connection ends.
  link.markPresent("bot", 10000);
  link.markAbsent("bot");
  bus.release();
  settle();
  EXPECT_TRUE(link.presentPlayers(10).empty()) << "the revoked bot is listed for a whole lease";
}

TEST(PresenceLeases, RenewalsAreWrittenWithoutTheCallerWaitingAndSeenByTheOthers) {
  auto hub = cluster::makeLoopbackHub();
  SlowWriterBus busOne(hub);
  SlowWriterBus busTwo(hub);
  ClusterLink one(busOne, "one", "site");
  ClusterLink two(busTwo, "two", "site");
  one.markPresent("bot", 10000);
  for (int i = 0; i < 100 && two.presentPlayers(10).empty(); ++i) settle();
  EXPECT_EQ(two.presentPlayers(10), std::vector<std::string>{"bot"});
  EXPECT_TRUE(two.presentElsewhere("bot"));
  EXPECT_FALSE(one.presentElsewhere("bot")) << "its own lease is not elsewhere";
  // The other instance's absence does not remove this one's lease.
  two.markAbsent("bot");
  EXPECT_TRUE(two.presentElsewhere("bot"));
  one.markAbsent("bot");
  EXPECT_FALSE(two.presentElsewhere("bot"));
  EXPECT_TRUE(two.presentPlayers(10).empty());
}

TEST(PresenceLeases, ALapsedLeaseIsNotPresent) {
  auto hub = cluster::makeLoopbackHub();
  SlowWriterBus bus(hub);
  ClusterLink one(bus, "one", "site");
  ClusterLink two(bus, "two", "site");
  one.markPresent("bot", -1, /*wait=*/true);
  EXPECT_FALSE(two.presentElsewhere("bot"));
  EXPECT_TRUE(two.presentPlayers(10).empty());
}

}  // namespace
}  // namespace semis::server
