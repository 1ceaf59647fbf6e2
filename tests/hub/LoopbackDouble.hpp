#pragma once
// A test double's base: a bus that hands everything to a loopback bus of `net`; the double
// overrides what it changes (a slow writer, recorded subscriptions).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cluster/Bus.hpp"

namespace semis::server {

class LoopbackDouble : public cluster::Bus {
 public:
  explicit LoopbackDouble(const std::shared_ptr<cluster::LoopbackHub>& net) : inner_(cluster::makeLoopbackBus(net)) {}
  void start(cluster::BusHandlers handlers) override { inner_->start(std::move(handlers)); }
  void stop() override { inner_->stop(); }
  void publish(const std::string& channel, std::string payload) override {
    inner_->publish(channel, std::move(payload));
  }
  void subscribe(const std::string& channel) override { inner_->subscribe(channel); }
  void unsubscribe(const std::string& channel) override { inner_->unsubscribe(channel); }
  void send(std::vector<std::string> args) override { inner_->send(std::move(args)); }
  cluster::BusResult<cluster::Reply> command(const std::vector<std::string>& args) override {
    return inner_->command(args);
  }
  [[nodiscard]] bool connected() const override { return inner_->connected(); }
  [[nodiscard]] long long dropped() const override { return inner_->dropped(); }

 protected:
  cluster::Bus& inner() { return *inner_; }

 private:
  std::unique_ptr<cluster::Bus> inner_;
};

}  // namespace semis::server
