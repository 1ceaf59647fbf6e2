#pragma once
// The transposition table: one per Search, so several engines in one process share nothing.
// Each bucket holds a depth-preferred slot (proven entries rank above every depth) and an
// always-replace slot. Proven ("exact") bounds are game-theoretic and valid at any depth.

#include <cstdint>
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
  explicit Table(std::size_t megabytes) { resize(megabytes); }

  void resize(std::size_t megabytes) {
    std::size_t buckets = 1;
    while ((buckets * 2) * sizeof(Bucket) <= megabytes * 1024 * 1024) buckets *= 2;
    buckets_.assign(buckets, Bucket{});
    mask_ = buckets - 1;
  }
  void clear() { buckets_.assign(buckets_.size(), Bucket{}); }

  [[nodiscard]] const TableEntry* probe(std::uint64_t key) const {
    const Bucket& b = buckets_[key & mask_];
    if (b.slot[0].used && b.slot[0].key == key) return &b.slot[0];
    if (b.slot[1].used && b.slot[1].key == key) return &b.slot[1];
    return nullptr;
  }

  // Stores the result of a search with window (alpha, beta) that returned `value`.
  void store(std::uint64_t key, int alpha, int beta, int value, int depth, bool proven, int move) {
    Bucket& b = buckets_[key & mask_];
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

 private:
  struct Bucket {
    TableEntry slot[2];
  };
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
};

}  // namespace semis::engine
