// The endgame-table builder for the Kalah family (FastBoard::supports), level by level.
//
// A move either banks seeds (a store sowing, a capture, the end of the game: a lower level, already
// complete) or keeps every seed in the mover's row (the same level). Same-level moves only carry
// seeds towards the mover's store, so they cannot cycle, and a level walked from the positions
// whose seeds lie nearest the stores finds every same-level child solved (runLevel()); every child
// is then one table read. Positions are expanded in batches and their children read after, so the
// memory accesses overlap instead of queueing.

#include <algorithm>
#include <bit>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "engine/Egdb.hpp"
#include "engine/FastBoard.hpp"

namespace semis::engine {

// Every row of N houses holding at most K seeds, a byte a house (FastBoard's words), grouped by
// its seed total t and its weight f (the sum over houses of seeds times the house's distance from
// house 1): a move that keeps its seeds in the mover's row raises the weight of that row.
class RowClasses {
 public:
  RowClasses(int houses, int maxSeeds) : n_(houses), top_(houses - 1) {
    for (int t = 0; t <= maxSeeds; ++t) {
      std::vector<std::vector<std::uint64_t>> byWeight(static_cast<std::size_t>(t * top_ + 1));
      collect(0, t, 0, 0, byWeight);
      std::vector<std::size_t> starts{0};
      std::vector<std::uint64_t> flat;
      for (auto& group : byWeight) {
        flat.insert(flat.end(), group.begin(), group.end());
        starts.push_back(flat.size());
      }
      rows_.push_back(std::move(flat));
      starts_.push_back(std::move(starts));
    }
  }
  // The rows of total t and weight f (none outside 0..t(N-1)).
  [[nodiscard]] std::span<const std::uint64_t> of(int t, int f) const {
    if (f < 0 || f > t * top_) return {};
    const auto& starts = starts_[static_cast<std::size_t>(t)];
    const auto* base = rows_[static_cast<std::size_t>(t)].data();
    return {base + starts[static_cast<std::size_t>(f)], base + starts[static_cast<std::size_t>(f) + 1]};
  }

 private:
  void collect(int house, int left, std::uint64_t row, int weight, std::vector<std::vector<std::uint64_t>>& out) {
    if (house == n_ - 1) {
      out[static_cast<std::size_t>(weight + left * house)].push_back(row | static_cast<std::uint64_t>(left)
                                                                               << (8 * house));
      return;
    }
    for (int c = 0; c <= left; ++c)
      collect(house + 1, left - c, row | static_cast<std::uint64_t>(c) << (8 * house), weight + c * house, out);
  }
  int n_;
  int top_;
  std::vector<std::vector<std::uint64_t>> rows_;
  std::vector<std::vector<std::size_t>> starts_;
};

class EgdbBuilder {
 public:
  EgdbBuilder(Egdb& db, const Rules& rules) : db_(db), fast_(rules), n_(rules.houses) {}

  // Solves level s from the positions whose seeds lie nearest the stores down (the heaviest pairs
  // of rows first): a move that keeps every seed in the mover's row carries them towards his store,
  // so such a child is heavier, comes earlier and is known when its parent is solved (no
  // depth-first detour, which waits on each child's memory). Within a weight the mover's row
  // changes slower than the opponent's: a move that hands the turn over gives children that differ
  // in the low houses of their index alone (the mover's row comes first there), neighbours in the
  // table, where the index's own order scatters them. Thread `first` of `every` takes every
  // `every`-th mover's row; a same-level child another thread has not solved yet is solved
  // depth-first (resolve()).
  bool runLevel(const RowClasses& rows, int s, int first, int every) {
    const int heaviest = s * (n_ - 1);
    // Under the immediate end rule a position whose opponent's row is empty is over: not stored.
    const int mostMine = db_.rules_.end == EndRule::Immediate ? s - 1 : s;
    int batched = 0;
    int item = 0;
    for (int weight = 2 * heaviest; weight >= 0; --weight) {
      for (int a = 1; a <= mostMine; ++a) {
        const int b = s - a;
        const int lightest = std::max(0, weight - b * (n_ - 1));
        for (int mineWeight = lightest; mineWeight <= std::min(a * (n_ - 1), weight); ++mineWeight) {
          const auto theirs = rows.of(b, weight - mineWeight);
          if (theirs.empty()) continue;
          for (const std::uint64_t x : rows.of(a, mineWeight)) {
            if (item++ % every != first) continue;
            for (const std::uint64_t y : theirs) {
              expand(FastPos{x, y}, db_.index(x, y, s), batch_[batched++]);
              if (batched == kBatch && !resolveBatch(std::exchange(batched, 0), s)) return false;
            }
          }
        }
      }
    }
    return resolveBatch(batched, s);
  }

 private:
  static constexpr int kCycle = -1000;
  // Positions expanded together: all their children's entries are fetched from memory at once.
  static constexpr int kBatch = 32;
  // Same-level chains are short (seeds only move towards the store); a longer one is a cycle.
  static constexpr int kMaxChain = 4096;

  struct Pending {
    std::uint64_t self;
    int n;
    FastPos kids[kMaxHouses];
    FastMove moves[kMaxHouses];
    std::uint64_t at[kMaxHouses];
  };

  // Plays every move of p and starts fetching the children's entries.
  void expand(const FastPos& p, std::uint64_t self, Pending& out) const {
    out.self = self;
    out.n = 0;
    __builtin_prefetch(db_.owned() + self, 1);
    for (std::uint32_t m = fast_.legalMask(p); m != 0; m &= m - 1) {
      const int i = out.n++;
      out.kids[i] = p;
      fast_.play(out.kids[i], std::countr_zero(m) + 1, out.moves[i]);
      if (!out.moves[i].over) {
        out.at[i] = db_.index(out.kids[i].mine, out.kids[i].theirs, out.moves[i].left);
        __builtin_prefetch(db_.owned() + out.at[i]);
      }
    }
  }

  // Resolves the first `count` positions of the batch; false on a cycle.
  bool resolveBatch(int count, int seeds) {
    for (int i = 0; i < count; ++i) {
      if (resolve(batch_[i], seeds, 0) == kCycle) return false;
    }
    return true;
  }

  // The value of an expanded position for its mover; a same-level child not yet known (another
  // thread's, or rules whose moves the walk's order does not foresee) is solved first, depth-first.
  int resolve(const Pending& pd, int seeds, int chain) {
    // Relaxed atomic accesses (the builtins: std::atomic_ref is missing from the WebAssembly
    // toolchain's library): two threads may solve the same same-level position; both write its value.
    if (const int known = __atomic_load_n(db_.owned() + pd.self, __ATOMIC_RELAXED); known != Egdb::kUnknown)
      return known;
    if (chain > kMaxChain) return kCycle;
    int best = -1000;
    for (int i = 0; i < pd.n; ++i) {
      const FastMove& mv = pd.moves[i];
      int v = mv.gain;
      if (!mv.over) {
        int w = __atomic_load_n(db_.owned() + pd.at[i], __ATOMIC_RELAXED);
        if (w == Egdb::kUnknown && mv.left == seeds) {
          Pending child;
          expand(pd.kids[i], pd.at[i], child);
          w = resolve(child, seeds, chain + 1);
        }
        if (w == kCycle || w == Egdb::kUnknown) return kCycle;
        v += mv.extra ? w : -w;
      }
      best = std::max(best, v);
    }
    __atomic_store_n(db_.owned() + pd.self, static_cast<std::int8_t>(best), __ATOMIC_RELAXED);
    return best;
  }

  Pending batch_[kBatch];
  Egdb& db_;
  FastBoard fast_;
  int n_;
};

bool egdbBuildFast(Egdb& db, const Rules& rules, int threads) {
  threads = std::max(1, threads);
  const RowClasses rows(rules.houses, db.maxSeeds());
  for (int s = 1; s <= db.maxSeeds(); ++s) {
    // A level's positions depend only on lower levels and on each other through same-level moves,
    // which every thread follows itself: each takes its share of the mover's rows.
    std::vector<char> ok(static_cast<std::size_t>(threads), 1);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      auto work = [&db, &rules, &rows, &ok, s, t, threads] {
        ok[static_cast<std::size_t>(t)] = EgdbBuilder(db, rules).runLevel(rows, s, t, threads) ? 1 : 0;
      };
      if (t + 1 == threads) {
        work();
      } else {
        pool.emplace_back(work);
      }
    }
    for (std::thread& th : pool) th.join();
    for (char c : ok) {
      if (c == 0) return false;
    }
  }
  return true;
}

}  // namespace semis::engine
