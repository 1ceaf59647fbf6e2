#include "ai/EndgameShelf.hpp"

#include <algorithm>
#include <chrono>

#include "ops/Log.hpp"

namespace semis::server {

EndgameShelf::EndgameShelf(int seeds) {
  if (seeds > 0) builder_ = std::thread([this, seeds] { build(seeds); });
}

EndgameShelf::~EndgameShelf() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  // A build under way is finished first (a few seconds at most for the sizes the server uses).
  if (builder_.joinable()) builder_.join();
}

const engine::Egdb* EndgameShelf::find(const Rules& rules) const {
  std::lock_guard lock(mu_);
  for (const auto& [r, table] : tables_) {
    if (table->serves(rules)) return table.get();
  }
  return nullptr;
}

std::size_t EndgameShelf::built() const {
  std::lock_guard lock(mu_);
  return tables_.size();
}

// Retrograde tables (Al-manqala, Awalé: the stores are in the index) cost about 26 bytes an entry
// while they are built, and their entries grow about 2.1x a seed: 12 seeds is 33 M entries and
// 0.85 GB at the peak, 14 seeds would be 134 M and several GB (docs/engine.md, Awalé). The server
// builds them to 12 seeds at most, whatever --egdb-seeds says for the others.
constexpr int kMaxRetrogradeSeeds = 12;

void EndgameShelf::build(int requested) {
  for (const Preset p : allPresets()) {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
    }
    const Rules rules = presetRules(p);
    if (!engine::Egdb::applies(rules)) continue;
    const int seeds = engine::Egdb::retrograde(rules) ? std::min(requested, kMaxRetrogradeSeeds) : requested;
    const auto t0 = std::chrono::steady_clock::now();
    auto table = engine::Egdb::build(rules, seeds, 1);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!table) {
      logLine("error", "endgame_table_failed",
              {{"rules", std::string(presetName(p))}, {"what", table.error().message}});
      continue;
    }
    logInfo("endgame_table", {{"rules", std::string(presetName(p))},
                              {"seeds", seeds},
                              {"entries", table->entries()},
                              {"ms", static_cast<long long>(ms)}});
    std::lock_guard lock(mu_);
    tables_.emplace_back(rules, std::make_unique<engine::Egdb>(std::move(*table)));
  }
}

}  // namespace semis::server
