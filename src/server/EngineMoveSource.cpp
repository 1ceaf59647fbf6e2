// AI seats played by the search engine's levels (src/engine/Levels.hpp).

#include <random>

#include "engine/Levels.hpp"
#include "server/MoveSource.hpp"

namespace semis::server {

namespace {

class EngineMoveSource final : public MoveSource {
 public:
  // Runs on the server's AI pool. Each request gets its own Player (its own search and table), so
  // any number of AI seats think at once without sharing mutable state.
  void choose(const MoveRequest& request, std::function<void(int house)> done) override {
    auto level = engine::parseLevel(request.level);
    engine::LevelOptions options;
    // Hard thinks for the request's budget; Perfect takes five times Hard's, so it gets a fifth.
    const engine::Level chosen = level ? *level : engine::Level::Medium;
    options.hardSeconds = static_cast<double>(request.budgetMs) / (chosen == engine::Level::Perfect ? 5000.0 : 1000.0);
    options.tableMegabytes = 8;
    options.seed = std::random_device{}();
    engine::Player player(request.rules, chosen, options);
    done(player.choose(request.position));
  }
};

}  // namespace

std::unique_ptr<MoveSource> makeEngineMoveSource() { return std::make_unique<EngineMoveSource>(); }

}  // namespace semis::server
