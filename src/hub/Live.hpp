#pragma once
// One game in memory as the hub keeps it (internal to src/hub): the pure room, the connections
// watching it, and its own lock, which serializes every action on this game and nothing else.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "hub/Hub.hpp"
#include "ops/WallClock.hpp"

namespace semis::server {

// The bus's game messages wait here for a worker thread of their own (HubCluster.cpp): the bus's
// reader thread only reads and sorts, so the instances' heartbeats are never read behind a game's lock.
struct Hub::BusWork {
  std::mutex mu;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;
  bool stop = false;
  std::thread thread;
};

struct Hub::Live {
  std::mutex mu;
  std::unique_ptr<room::Room> room;
  std::unordered_map<Peer*, std::weak_ptr<Peer>> watchers;
  // In a cluster: the other instances' connections to this game, instance -> player -> count.
  std::map<std::string, std::map<std::string, int>> remote;
  bool aiQueued = false;
  bool ratedSeen = false;  // a rated game's end was handed to the club
  bool gone = false;       // evicted: a caller holding this pointer must look the game up again
  std::chrono::steady_clock::time_point lastActivity{};
};

}  // namespace semis::server
