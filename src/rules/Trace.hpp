#pragma once
// The event trace of one sowing: everything a player sees, in order, so a client can animate it.

#include <cstdint>
#include <string_view>
#include <vector>

#include "rules/Position.hpp"

namespace semis {

enum class EventKind : std::uint8_t {
  Lift,       // the mover lifts `count` seeds from `pit`
  Drop,       // one seed falls into `pit`; `target` differs only when a castle sends it to a store
  Relay,      // the last seed fell in an occupied house: `count` seeds lifted from `pit` and sown on
  RelayCut,   // the relay reached its lap limit and the turn ends
  Capture,    // `count` seeds taken from `pit` into `target` (a store, or the captured count)
  Castle,     // `pit` becomes a castle of `side`
  ExtraTurn,  // `side` plays again
  Pass,       // `side` has no seeds and passes
  MustFeed,   // `side`, to move, must put a seed in the empty opposite row
  Sweep,      // at the end, `count` seeds of `pit` go to `target`
  Split,      // the board is shared: `count` seeds of `pit` go to `target`
  GameEnd,    // the game is over
  GrandSlam,  // `side`'s chain capture ending in `pit` would empty a row: grand_slam says what it took
};

struct Event {
  EventKind kind;
  std::uint8_t pit = 0;
  Seeds count = 0;
  std::uint8_t target = 0;
  Side side = Side::South;
  friend bool operator==(const Event&, const Event&) = default;
};

using Trace = std::vector<Event>;

[[nodiscard]] std::string_view eventName(EventKind kind);

// A sink that records nothing: the engine's searches use it, so tracing costs them nothing.
struct NoTrace {
  void operator()(const Event& /*event*/) const {}
};

// A sink that appends to a Trace.
struct TraceRecorder {
  Trace* out;
  void operator()(const Event& event) const { out->push_back(event); }
};

}  // namespace semis
