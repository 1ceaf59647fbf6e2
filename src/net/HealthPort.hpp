#pragma once
// /healthz on a port of its own (`--health-port`), answered by a thread of its own: a load
// balancer's check never waits behind game work on the network threads (under load those are busy
// with moves and their store writes, and a check that times out takes a working instance out of
// the pool). It answers GET /healthz (what Health::ok() says) and nothing else.

#include <memory>
#include <string>

#include "ops/Health.hpp"
#include "rules/Rules.hpp"

namespace semis::server {

class HealthPort {
 public:
  explicit HealthPort(const Health& health);
  ~HealthPort();  // stops the thread
  HealthPort(const HealthPort&) = delete;
  HealthPort& operator=(const HealthPort&) = delete;
  // Listens on address:port (0: a free one) and starts the thread: the port, or why not.
  Result<unsigned short> start(const std::string& address, unsigned short port);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace semis::server
