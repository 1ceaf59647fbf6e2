// The endgame-table builder for the Kalah family (FastBoard::supports), level by level.
//
// A move either banks seeds (a store sowing, a capture, the end of the game: a lower level, already
// complete) or keeps every seed in the mover's row (the same level). Same-level moves only carry
// seeds towards the mover's store, so they cannot cycle: a position's same-level children are
// solved first, depth-first, and every other child is one table read. Positions are expanded in
// batches and their children read after, so the memory accesses overlap instead of queueing.

#include <algorithm>
#include <bit>
#include <thread>
#include <vector>

#include "engine/Egdb.hpp"
#include "engine/FastBoard.hpp"

namespace semis::engine {

class EgdbBuilder {
 public:
  EgdbBuilder(Egdb& db, const Rules& rules) : db_(db), fast_(rules), n_(rules.houses), m_(2 * rules.houses) {}

  // Fills db_.owned() (already kUnknown everywhere); false if the positions of a level cycle.
  // Solves level s from rank `begin` (within the level) to `end`. Levels below are complete.
  bool runRange(int s, std::uint64_t begin, std::uint64_t end) {
    if (begin >= end) return true;
    // The level's positions in rank order, so that each one's own entry is the next byte of the
    // table: bars b_0 < ... < b_{m-2} among s+m-1 places, stepped through in colex order.
    const int places = s + m_ - 1;
    int bar[2 * kMaxHouses];
    unrank(begin, bar);
    std::uint64_t self = db_.levelOffset_[static_cast<std::size_t>(s)] + begin;
    const std::uint64_t last = db_.levelOffset_[static_cast<std::size_t>(s)] + end;
    int batched = 0;
    for (; self < last; ++self) {
      int h[2 * kMaxHouses];
      int prev = -1;
      for (int j = 0; j < m_ - 1; ++j) {
        h[j] = bar[j] - prev - 1;
        prev = bar[j];
      }
      h[m_ - 1] = places - 1 - prev;
      if (reached(h)) expand(position(h), self, batch_[batched++]);
      int j = 0;  // colex successor: raise the first bar that can move, reset the ones below it
      while (j < m_ - 1 && bar[j] + 1 == (j + 1 < m_ - 1 ? bar[j + 1] : places)) ++j;
      if (j < m_ - 1) {
        ++bar[j];
        for (int i = 0; i < j; ++i) bar[i] = i;
      }
      if (batched == kBatch || (self + 1 == last && batched > 0)) {
        for (int i = 0; i < batched; ++i) {
          if (resolve(batch_[i], s, 0) == kCycle) return false;
        }
        batched = 0;
      }
    }
    return true;
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

  // Positions the rules never reach with South to move (his row empty, or a finished game) keep
  // kUnknown.
  bool reached(const int* h) const {
    int mine = 0;
    int theirs = 0;
    for (int i = 0; i < n_; ++i) {
      mine += h[i];
      theirs += h[n_ + i];
    }
    return mine != 0 && (db_.rules_.end != EndRule::Immediate || theirs != 0);
  }

  FastPos position(const int* h) const {
    FastPos p;
    for (int i = 0; i < n_; ++i) {
      p.mine |= static_cast<std::uint64_t>(h[i]) << (8 * i);
      p.theirs |= static_cast<std::uint64_t>(h[n_ + i]) << (8 * i);
    }
    return p;
  }

  std::uint64_t rankOf(const FastPos& p, int seeds) const {
    std::uint8_t h[FastBoard::kHousesOut];
    fast_.moverFirst(p, h);
    return db_.rank(h, seeds);
  }

  // Plays every move of p and starts fetching the children's entries.
  void expand(const FastPos& p, std::uint64_t self, Pending& out) const {
    out.self = self;
    out.n = 0;
    for (std::uint32_t m = fast_.legalMask(p); m != 0; m &= m - 1) {
      const int i = out.n++;
      out.kids[i] = p;
      fast_.play(out.kids[i], std::countr_zero(m) + 1, out.moves[i]);
      if (!out.moves[i].over) {
        out.at[i] = rankOf(out.kids[i], out.moves[i].left);
        __builtin_prefetch(db_.owned() + out.at[i]);
      }
    }
  }

  // The bars of the combination of colex rank r (the inverse of Egdb::rank within a level).
  void unrank(std::uint64_t r, int* bar) const {
    const auto* binom = db_.binom_.data();
    for (int j = m_ - 2; j >= 0; --j) {
      int b = j;
      while (binom[(b + 1) * (m_ + 1) + j + 1] <= r) ++b;
      bar[j] = b;
      r -= binom[b * (m_ + 1) + j + 1];
    }
  }

  // The value of an expanded position for its mover; same-level children not yet known are solved
  // first, depth-first.
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
  int m_;
};

bool egdbBuildFast(Egdb& db, const Rules& rules, int threads) {
  threads = std::max(1, threads);
  const int m = 2 * rules.houses;
  for (int s = 1; s <= db.maxSeeds(); ++s) {
    // A level's positions depend only on lower levels and on each other through same-level moves,
    // which every thread follows itself: the level is cut into one rank range per thread.
    const std::uint64_t size = db.binom_[static_cast<std::size_t>((s + m - 1) * (m + 1) + m - 1)];
    std::vector<char> ok(static_cast<std::size_t>(threads), 1);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      const std::uint64_t begin = size * static_cast<std::uint64_t>(t) / static_cast<std::uint64_t>(threads);
      const std::uint64_t end = size * static_cast<std::uint64_t>(t + 1) / static_cast<std::uint64_t>(threads);
      auto work = [&db, &rules, &ok, s, t, begin, end] {
        ok[static_cast<std::size_t>(t)] = EgdbBuilder(db, rules).runRange(s, begin, end) ? 1 : 0;
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
