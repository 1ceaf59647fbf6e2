#pragma once
// The endgame tables the engine's AI seats and hints probe (engine/Egdb.hpp): built when the server
// starts, on a thread of their own, for every preset the tables apply to (all seven), up to `seeds`
// seeds in the houses (`semis serve --egdb-seeds K`; the retrograde ones, Al-manqala's and Awalé's,
// to 12 at most: their build's memory).
// Until a preset's table is built, its searches run without it; nothing waits for them.

#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "engine/Egdb.hpp"

namespace semis::server {

class EndgameShelf {
 public:
  // 0 seeds: no tables.
  explicit EndgameShelf(int seeds);
  ~EndgameShelf();
  EndgameShelf(const EndgameShelf&) = delete;
  EndgameShelf& operator=(const EndgameShelf&) = delete;

  // The table that serves these rules (Egdb::serves), once built; nullptr otherwise. Valid as long
  // as the shelf.
  [[nodiscard]] const engine::Egdb* find(const Rules& rules) const;
  [[nodiscard]] std::size_t built() const;

 private:
  void build(int requested);

  mutable std::mutex mu_;
  std::vector<std::pair<Rules, std::unique_ptr<engine::Egdb>>> tables_;
  bool stop_ = false;
  std::thread builder_;
};

}  // namespace semis::server
