// AI seats and hints played by the search engine's levels (src/engine/Levels.hpp, Hint.hpp).

#include <algorithm>
#include <bit>
#include <random>

#include "ai/EndgameShelf.hpp"
#include "ai/MoveSource.hpp"
#include "engine/Hint.hpp"
#include "engine/Levels.hpp"

namespace semis::server {

namespace {

class EngineMoveSource final : public MoveSource {
 public:
  explicit EngineMoveSource(std::shared_ptr<const EndgameShelf> tables) : tables_(std::move(tables)) {}

  // Runs on the server's AI pool. Each request gets its own Player (its own search and table), so
  // any number of AI seats think at once without sharing mutable state. The search reads
  // `cancelled` with its clock (engine::Limits::cancel) and ends within a thousand nodes of it.
  int choose(const MoveRequest& request, const std::atomic<bool>& cancelled) override {
    if (cancelled.load()) return 0;
    auto level = engine::parseLevel(request.level);
    const engine::Level chosen = level ? *level : engine::Level::Medium;
    engine::LevelOptions options;
    // Hard thinks for the request's budget; Perfect takes five times Hard's, so it gets a fifth.
    options.hardSeconds =
        static_cast<double>(std::max(1, request.budgetMs)) / (chosen == engine::Level::Perfect ? 5000.0 : 1000.0);
    options.tableMegabytes = 8;
    options.seed = std::random_device{}();
    engine::Player player(request.rules, chosen, options);
    player.setCancel(&cancelled);
    // Perfect and Hard end exact in late positions; Easy and Medium play as they are.
    if (tables_ && (chosen == engine::Level::Perfect || chosen == engine::Level::Hard))
      player.setEgdb(tables_->find(request.rules));
    const int house = player.choose(request.position);
    return cancelled.load() ? 0 : house;
  }

  std::optional<engine::Hint> hint(const HintRequest& request, const std::atomic<bool>& cancelled) override {
    if (cancelled.load()) return std::nullopt;
    engine::Search search(request.rules, 16);
    if (tables_) search.setEgdb(tables_->find(request.rules));
    const int legal = std::popcount(search.board().legalMask(request.position));
    if (legal == 0) return std::nullopt;
    engine::Limits limits;
    limits.seconds = static_cast<double>(std::max(1, request.budgetMs)) / 1000.0 / legal;
    limits.cancel = &cancelled;
    auto h = engine::hint(search, request.position, limits);
    if (!h || cancelled.load()) return std::nullopt;
    return std::move(*h);
  }

 private:
  std::shared_ptr<const EndgameShelf> tables_;
};

}  // namespace

int aiBudgetMs(std::string_view level, long long remainingMs, int incrementMs) {
  const long long byLevel = level == "easy" ? 200 : level == "hard" ? 1000 : level == "perfect" ? 3000 : 500;
  if (remainingMs < 0) return static_cast<int>(byLevel);
  // A twentieth of the time left and most of the increment (added after the move, so never more
  // than half the time left): the clock lasts the game, however long it goes on.
  const long long increment = std::max(0, incrementMs);
  const long long clocked = std::min(remainingMs / 20 + increment * 8 / 10, remainingMs / 2);
  return static_cast<int>(std::max<long long>(kMinAiBudgetMs, std::min(byLevel, clocked)));
}

std::unique_ptr<MoveSource> makeEngineMoveSource(std::shared_ptr<const EndgameShelf> tables) {
  return std::make_unique<EngineMoveSource>(std::move(tables));
}

}  // namespace semis::server
