#pragma once
// The transposition table: one per Search, so several engines in one process share nothing.
// Each bucket holds a depth-preferred slot (proven entries rank above every depth) and an
// always-replace slot. Proven ("exact") bounds are game-theoretic and valid at any depth.
// The size given is the most it takes: it starts at kFirstBuckets and doubles whenever a quarter of
// its slots are used (two-slot buckets overflow early: at half, a test kept 83% of its entries, at
// a quarter over 90%), keeping every entry, so a short search neither allocates nor zeroes the
// memory a long one needs (docs/engine.md, "Table size"). No entry pointer is held across a store.

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace semis::engine {

inline constexpr std::uint8_t kProvenDepth = 255;

struct TableEntry {
  std::uint64_t key = 0;
  std::int16_t lower = -32000;
  std::int16_t upper = 32000;
  std::uint8_t depth = 0;  // kProvenDepth: both bounds are proven
  std::uint8_t move = 0;   // best house found, 0 none
  std::uint8_t used = 0;
  std::uint8_t pad = 0;
};

class Table {
 public:
  static constexpr std::size_t kFirstBuckets = std::size_t{1} << 13;  // 256 KB

  explicit Table(std::size_t megabytes) { resize(megabytes); }

  void resize(std::size_t megabytes) {
    std::size_t buckets = 1;
    while ((buckets * 2) * sizeof(Bucket) <= megabytes * 1024 * 1024) buckets *= 2;
    maxBuckets_ = buckets;
    clear();
  }
  // Empty, and back to its first size.
  void clear() {
    buckets_.assign(std::min(maxBuckets_, kFirstBuckets), Bucket{});
    mask_ = buckets_.size() - 1;
    used_ = 0;
  }
  [[nodiscard]] std::size_t bytes() const { return buckets_.size() * sizeof(Bucket); }

  [[nodiscard]] const TableEntry* probe(std::uint64_t key) const {
    const Bucket& b = buckets_[key & mask_];
    if (b.slot[0].used && b.slot[0].key == key) return &b.slot[0];
    if (b.slot[1].used && b.slot[1].key == key) return &b.slot[1];
    return nullptr;
  }

  // Stores the result of a search with window (alpha, beta) that returned `value`.
  void store(std::uint64_t key, int alpha, int beta, int value, int depth, bool proven, int move) {
    Bucket& b = buckets_[key & mask_];
    const int usedBefore = b.slot[0].used + b.slot[1].used;
    place(b, key, alpha, beta, value, depth, proven, move);
    used_ += static_cast<std::size_t>(b.slot[0].used + b.slot[1].used - usedBefore);
    if (used_ * 2 > buckets_.size() && buckets_.size() < maxBuckets_) grow();
  }

 private:
  struct Bucket {
    TableEntry slot[2];
  };
  static void place(Bucket& b, std::uint64_t key, int alpha, int beta, int value, int depth, bool proven, int move) {
    const std::uint8_t d = proven ? kProvenDepth : static_cast<std::uint8_t>(depth);
    const int lo = value > alpha ? value : -32000;
    const int hi = value < beta ? value : 32000;
    // Only a value above alpha names a best move; a fail-low pass keeps the move it found before.
    if (value <= alpha) move = 0;
    for (TableEntry& e : b.slot) {
      if (!e.used || e.key != key) continue;
      if (e.depth == d) {  // same quality: narrow the bounds
        if (lo > e.lower) e.lower = static_cast<std::int16_t>(lo);
        if (hi < e.upper) e.upper = static_cast<std::int16_t>(hi);
        if (move != 0) e.move = static_cast<std::uint8_t>(move);
        return;
      }
      if (e.depth > d) {  // keep the better bounds, learn the move only
        if (move != 0) e.move = static_cast<std::uint8_t>(move);
        return;
      }
      write(e, key, lo, hi, d, move != 0 ? move : e.move);
      return;
    }
    if (!b.slot[0].used || d >= b.slot[0].depth) {
      if (b.slot[0].used) b.slot[1] = b.slot[0];
      write(b.slot[0], key, lo, hi, d, move);
    } else {
      write(b.slot[1], key, lo, hi, d, move);
    }
  }

  // Twice the buckets; an entry of bucket i goes to i or i + size, in the same slot.
  void grow() {
    std::vector<Bucket> bigger(buckets_.size() * 2);
    const std::size_t mask = bigger.size() - 1;
    for (const Bucket& b : buckets_) {
      for (int s = 0; s < 2; ++s) {
        if (b.slot[s].used) bigger[b.slot[s].key & mask].slot[s] = b.slot[s];
      }
    }
    buckets_ = std::move(bigger);
    mask_ = mask;
  }
  static void write(TableEntry& e, std::uint64_t key, int lo, int hi, std::uint8_t d, int move) {
    e.key = key;
    e.lower = static_cast<std::int16_t>(lo);
    e.upper = static_cast<std::int16_t>(hi);
    e.depth = d;
    e.move = static_cast<std::uint8_t>(move);
    e.used = 1;
  }
  std::vector<Bucket> buckets_;
  std::size_t mask_ = 0;
  std::size_t maxBuckets_ = 1;
  std::size_t used_ = 0;  // slots in use
};

}  // namespace semis::engine
