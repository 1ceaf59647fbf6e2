#pragma once
// Helpers that drive games through the harness: create, join, and play legal moves turn by turn.

#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "Harness.hpp"

namespace semis::test {

inline std::string newCookie(unsigned short port) { return http(port, "GET", "/api/me").setCookie; }

inline std::string createGame(unsigned short port, const std::string& cookie, const Json& spec) {
  auto r = http(port, "POST", "/api/games", spec.dump(), cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  auto j = Json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("id") ? j["id"].get<std::string>() : std::string();
}

// Joins and returns the `state` object.
inline Json joinGame(WsClient& ws, const std::string& game) {
  ws.send({{"type", "join"}, {"game", game}});
  auto s = ws.untilType("state");
  return s ? (*s)["game"] : Json();
}

struct Board {
  std::string toMove;  // "S", "N" or "" once over
  Json legal = Json::array();
  long long lastEvent = 0;
  bool over = false;
  Json result;
};

inline Board fromState(const Json& state) {
  Board b;
  b.toMove = state["position"]["to_move"].is_null() ? "" : state["position"]["to_move"].get<std::string>();
  b.legal = state["legal"];
  b.lastEvent = state["last_event"].get<long long>();
  b.over = state["status"] == "over";
  b.result = state["result"];
  return b;
}

// Applies an `event` message to what the client knows.
inline void applyEvent(Board& b, const Json& msg) {
  b.lastEvent = msg["n"].get<long long>();
  const Json& e = msg["event"];
  if (e["kind"] == "move" || e["kind"] == "split") {
    b.toMove = e["position"]["to_move"].is_null() ? "" : e["position"]["to_move"].get<std::string>();
    b.legal = e["legal"];
  }
  if (e["kind"] == "game_over") {
    b.over = true;
    b.result = e["result"];
  }
}

// Sends a move for `mover` and reads its event(s) and ack; every other client reads up to the same event.
// Returns the ack's event number (0 on failure).
inline long long playMove(WsClient& mover, const std::vector<WsClient*>& others, const std::string& game, int house,
                          const Json& id, Board& board) {
  mover.send({{"type", "move"}, {"game", game}, {"id", id}, {"house", house}, {"after", board.lastEvent}});
  long long acked = 0;
  std::vector<Json> events;
  auto ack = mover.until([&](const Json& m) {
    if (m["type"] == "event") events.push_back(m);
    return m["type"] == "ack" || m["type"] == "error";
  });
  if (!ack || (*ack)["type"] != "ack") {
    ADD_FAILURE() << "no ack: " << (ack ? ack->dump() : std::string("timeout"));
    return 0;
  }
  EXPECT_EQ((*ack)["id"], id);
  acked = (*ack)["n"].get<long long>();
  // The game_over event may follow the ack's move event: read until the board settles.
  for (const Json& e : events) applyEvent(board, e);
  for (WsClient* o : others) {
    auto got = o->until([&](const Json& m) { return m["type"] == "event" && m["n"].get<long long>() >= acked; });
    EXPECT_TRUE(got.has_value()) << "a watcher missed event " << acked;
    if (got) o->skipped().push_back(*got);  // keep every message a watcher saw
  }
  return acked;
}

// Polls `check` until it holds (true) or `timeout` passes (false). For what a cluster spreads after
// it answers (the shared live list, another instance's copy of a game): one server has it at once.
inline bool eventually(const std::function<bool()>& check, std::chrono::milliseconds timeout = 5000ms) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!check()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

// The game's state once three answers in a row have reached event `atLeast`: in a cluster HAProxy
// asks each instance in turn, and the copies of the others follow the one that acted a moment later.
inline Json stateAtLeast(unsigned short port, const std::string& game, const std::string& cookie, long long atLeast) {
  Json st;
  int inARow = 0;
  eventually([&] {
    st = Json::parse(http(port, "GET", "/api/games/" + game, "", cookie).body, nullptr, false);
    const bool caughtUp = st.is_object() && st["last_event"].is_number() && st["last_event"].get<long long>() >= atLeast;
    inARow = caughtUp ? inARow + 1 : 0;
    return inARow >= 3;
  });
  return st;
}

inline int pickHouse(const Json& legal, std::mt19937& rng) {
  if (legal.empty()) return 0;
  std::uniform_int_distribution<std::size_t> d(0, legal.size() - 1);
  return legal[d(rng)].get<int>();
}

}  // namespace semis::test
