#pragma once
// What the room tests share: the time they start at (an hour after the clock's epoch, so that a
// test can go back in time from it), a game's spec from its rules text, a room against the computer,
// the first legal house.

#include <chrono>
#include <string>

#include "room/Room.hpp"
#include "rules/Rules.hpp"

namespace semis::room {

inline const TimePoint t0 = TimePoint{} + std::chrono::hours(1);

inline protocol::GameSpec spec(const std::string& rules, protocol::Mode mode, int clockSeconds = 0, int increment = 0) {
  protocol::GameSpec s;
  s.rules = *parseRules(rules);
  s.mode = mode;
  s.level = "easy";
  s.clock = {clockSeconds, increment};
  return s;
}

// Alice against the computer.
inline Room aiRoom(const std::string& rules = "kalah", int clockSeconds = 0) {
  Room r("g1", spec(rules, protocol::Mode::Ai, clockSeconds), 1000);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{kAiSeat, "", 0}}, t0);
  return r;
}

inline int firstLegal(const Room& r) {
  const auto mask = r.game().board().legalMask(r.game().position());
  for (int h = 1; h <= r.game().board().houses(); ++h)
    if ((mask >> (h - 1)) & 1U) return h;
  return 0;
}

}  // namespace semis::room
