#pragma once
// Where an AI seat's moves come from. The server calls choose() on its AI thread pool, never on a
// network thread; the source calls `done` exactly once with a legal house (1..N). The search engine
// plugs in here (levels, time budget): EngineMoveSource.

#include <functional>
#include <memory>
#include <string>

#include "rules/Position.hpp"
#include "rules/Rules.hpp"

namespace semis::server {

struct MoveRequest {
  Rules rules;
  Position position;
  std::string level;  // easy | medium | hard | perfect
  int budgetMs = 1000;
};

class MoveSource {
 public:
  virtual ~MoveSource() = default;
  virtual void choose(const MoveRequest& request, std::function<void(int house)> done) = 0;
};

// The engine's levels (src/engine/Levels.hpp): Easy and Medium search to their depth, Hard thinks
// for the request's budget, Perfect solves within it and otherwise plays as Hard.
[[nodiscard]] std::unique_ptr<MoveSource> makeEngineMoveSource();

}  // namespace semis::server
