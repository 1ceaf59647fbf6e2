#pragma once
// Who is reachable on which instance (a bot's connection: docs/bots.md): one hash per site, each
// present player -> "<instance> <unix ms his lease ends>", renewed while the connection lasts.
//
// Why a writer of its own: a renewal must never land after the absence that follows it. Queued on
// the bus's writer (Bus::send) it could (the absence is written at once, on another connection),
// and a revoked bot stayed listed for a whole lease. Here renewals wait on a small queue, at most
// one per player, written by one thread through Bus::command; an absence drops the player's queued
// renewal and is written under the same lock as the writes, so whatever was renewed before it is
// older than it. The caller never waits on Redis for a renewal.

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/Bus.hpp"

namespace semis::server {

class PresenceLeases {
 public:
  // `key`: the site's hash; `instance`: this one's name in the leases it writes.
  PresenceLeases(cluster::Bus& bus, std::string key, std::string instance);
  ~PresenceLeases();  // queued renewals are dropped: they lapse as a crashed instance's do
  PresenceLeases(const PresenceLeases&) = delete;
  PresenceLeases& operator=(const PresenceLeases&) = delete;

  // Present for `ttlMs` from now. `wait`: written before this returns (the first time, so that
  // what the player is told next holds on every instance; queued again if the bus cannot answer).
  void renew(const std::string& player, long long ttlMs, bool wait);
  // Absent at once, if the lease is this instance's (the player may be present on another by now).
  void remove(const std::string& player);
  // On another instance, lease running (false when the bus cannot answer).
  [[nodiscard]] bool elsewhere(const std::string& player);
  // Every instance's present players, at most `limit` (none when the bus cannot answer).
  [[nodiscard]] std::vector<std::string> present(std::size_t limit);

 private:
  void write();  // the writer thread
  [[nodiscard]] bool put(const std::string& player, long long until);

  cluster::Bus& bus_;
  std::string key_;
  std::string instance_;
  std::mutex writeMu_;  // held across each write, so an absence is ordered after a renewal in flight
  std::mutex mu_;       // below
  std::condition_variable wake_;
  std::map<std::string, long long> queued_;  // player -> the end of the lease to write
  bool stop_ = false;
  std::thread writer_;
};

}  // namespace semis::server
