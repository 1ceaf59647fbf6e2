#pragma once
// Helpers of the cluster tests (ServerCluster*Test.cpp): which instance a client landed on, a
// client that reconnects through HAProxy and joins where it left off, and the check that a client
// saw every event of a game once and in order.

#include <gtest/gtest.h>

#include <set>

#include "Play.hpp"

namespace semis::test {

// A Prometheus value of one instance (-1 when absent): each instance counts its own.
inline long long metricOf(unsigned short port, const std::string& name) {
  const std::string body = http(port, "GET", "/metrics").body;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stoll(body.substr(at + name.size() + 2));
}

// Connects `ws` through HAProxy and returns the instance it landed on (-1 if none could be told):
// the one whose count of accepted WebSockets grew.
inline int connectThroughProxy(ServerProcess& cluster, WsClient& ws, const std::string& cookie) {
  std::vector<long long> before;
  for (int i = 0; i < cluster.instances(); ++i)
    before.push_back(cluster.instanceRunning(i) ? metricOf(cluster.instancePort(i), "semis_connections_total") : -1);
  if (!ws.connect(cluster.port(), cookie)) return -1;
  int landed = -1;
  // (counted by the instance a moment after the handshake's answer)
  eventually([&] {
    for (int i = 0; i < cluster.instances() && landed < 0; ++i) {
      const long long had = before[static_cast<std::size_t>(i)];
      if (had >= 0 && metricOf(cluster.instancePort(i), "semis_connections_total") > had) landed = i;
    }
    return landed >= 0;
  });
  return landed;
}

// After its connection dropped: connects again through HAProxy (retrying while HAProxy still sends
// it to the dead instance or has no instance up), joins with the last event it saw and applies what
// it missed (or the full state). True once caught up.
inline bool rejoin(WsClient& ws, unsigned short proxyPort, const std::string& cookie, const std::string& game,
                   Board& board) {
  bool connected = false;
  for (int attempt = 0; attempt < 60 && !connected; ++attempt) {
    connected = ws.connect(proxyPort, cookie);
    if (!connected) std::this_thread::sleep_for(250ms);
  }
  if (!connected) return false;
  ws.send({{"type", "join"}, {"game", game}, {"last_event", board.lastEvent}});
  auto done = ws.until(
      [&](const Json& m) {
        if (m["type"] == "event" && m["game"] == game && m["n"].get<long long>() > board.lastEvent)
          applyEvent(board, m);
        if (m["type"] == "state") board = fromState(m["game"]);
        return m["type"] == "caught_up" || m["type"] == "state";
      },
      10000ms);
  return done.has_value();
}

// Every message `ws` has read (skipped() plus `more`), then a ping answered: nothing more is on its way.
inline std::vector<Json> everything(WsClient& ws, const std::vector<Json>& more = {}) {
  ws.send({{"type", "ping"}, {"t", "flush"}});
  auto pong = ws.until([](const Json& m) { return m["type"] == "pong" && m["t"] == "flush"; }, 10000ms);
  EXPECT_TRUE(pong.has_value()) << "no pong: the connection is gone";
  std::vector<Json> all = ws.skipped();
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

// Reads until `ws` has seen event `n` of the game (kept in skipped()), unless it has already.
inline bool readUpTo(WsClient& ws, const std::string& game, long long n) {
  for (const Json& m : ws.skipped())
    if (m["type"] == "event" && m["game"] == game && m["n"].get<long long>() >= n) return true;
  auto got =
      ws.until([&](const Json& m) { return m["type"] == "event" && m["game"] == game && m["n"].get<long long>() >= n; },
               10000ms);
  if (got) ws.skipped().push_back(*got);
  return got.has_value();
}

// The game's events among `messages` are exactly from+1 .. to, each once, in order.
inline void expectEventsOnceInOrder(const std::vector<Json>& messages, const std::string& game, long long from,
                                    long long to, const std::string& who) {
  long long expect = from + 1;
  for (const Json& m : messages) {
    if (m["type"] != "event" || m["game"] != game) continue;
    const long long n = m["n"].get<long long>();
    EXPECT_EQ(n, expect) << who << " saw event " << n << " where " << expect << " was due";
    expect = n + 1;
  }
  EXPECT_EQ(expect - 1, to) << who << " saw up to event " << expect - 1;
}

// Sends a move and reads until its answer (ack or error), applying the events read meanwhile.
inline std::optional<Json> moveAndAnswer(WsClient& ws, const std::string& game, int house, const Json& id,
                                         long long after, Board& board, std::chrono::milliseconds timeout = 10000ms) {
  ws.send({{"type", "move"}, {"game", game}, {"id", id}, {"house", house}, {"after", after}});
  return ws.until(
      [&](const Json& m) {
        if (m["type"] == "event" && m["game"] == game && m["n"].get<long long>() > board.lastEvent)
          applyEvent(board, m);
        return (m["type"] == "ack" || m["type"] == "error") && m.value("id", Json()) == id;
      },
      timeout);
}

// The record's moves of a game, read by an instance (from its copy, or loaded from PostgreSQL).
inline int pliesOn(unsigned short port, const std::string& game) {
  auto st = Json::parse(http(port, "GET", "/api/games/" + game).body, nullptr, false);
  return st.is_object() && st["plies"].is_array() ? static_cast<int>(st["plies"].size()) : -1;
}

}  // namespace semis::test
