#pragma once
// Where an AI seat's moves and a player's hints come from. The server calls both on its AI pool
// (AiPool.hpp), never on a network thread: they are synchronous and return promptly once
// `cancelled` turns true (the pool's flag for the job). The search engine plugs in here (levels,
// time budget): makeEngineMoveSource(); makeGreedyMoveSource() is instant and deterministic, for
// tests and load runs.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/Hint.hpp"
#include "rules/Position.hpp"
#include "rules/Rules.hpp"

namespace semis::server {

struct MoveRequest {
  Rules rules;
  Position position;    // not over, with a legal move
  std::string level;    // easy | medium | hard | perfect (anything else plays as medium)
  int budgetMs = 1000;  // the whole thinking time: aiBudgetMs()
};

struct HintRequest {
  Rules rules;
  Position position;
  int budgetMs = 1000;  // for all the legal moves together
};

class MoveSource {
 public:
  virtual ~MoveSource() = default;
  // A legal house (1..N) for request.position, or 0 when cancelled (the answer is then unused).
  virtual int choose(const MoveRequest& request, const std::atomic<bool>& cancelled) = 0;
  // The hint for the side to move; nullopt when cancelled or the game is over.
  virtual std::optional<engine::Hint> hint(const HintRequest& request, const std::atomic<bool>& cancelled) = 0;
};

// A clock's remaining time when the game has none.
inline constexpr long long kNoClock = -1;
inline constexpr int kMinAiBudgetMs = 5;

// The AI's thinking time for one move: the level's budget (easy 200, medium 500, hard 1000,
// perfect 3000 ms; anything else as medium), and with a clock (remainingMs >= 0) no more than
// remaining/20 + 80% of the increment, nor more than half the time left, so an AI never loses on
// time; at least kMinAiBudgetMs. The hub subtracts the time the job waited in the queue.
[[nodiscard]] int aiBudgetMs(std::string_view level, long long remainingMs, int incrementMs);

// The engine's levels (src/engine/Levels.hpp): Easy and Medium search to their depth, Hard thinks
// for the request's budget, Perfect solves within it and otherwise plays as Hard. Hints are
// engine::hint() within the request's budget.
// `tables`: the endgame tables its searches probe (EndgameShelf.hpp), or none.
[[nodiscard]] std::unique_ptr<MoveSource> makeEngineMoveSource(
    std::shared_ptr<const class EndgameShelf> tables = nullptr);
// Every level plays the same instant move: the one that captures most, else an extra turn, else the
// lowest house; hints value each move by its capture alone (never exact). Deterministic.
[[nodiscard]] std::unique_ptr<MoveSource> makeGreedyMoveSource();

}  // namespace semis::server
