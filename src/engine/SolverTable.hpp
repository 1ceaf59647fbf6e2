#pragma once
// The exact solver's transposition table. A bucket is one 64-byte cache line of four 16-byte
// entries, so a probe costs one memory access and prefetch() can start it early. When a bucket is
// full the entry with the smallest searched subtree goes: in an exact solve the valuable entries
// are the ones that were expensive to prove, not the deep or the recent ones.

#include <algorithm>
#include <bit>
#include <cstdint>

#include "engine/HugeBuffer.hpp"

namespace semis::engine {

inline constexpr std::uint8_t kSolverProven = 255;

struct SolverEntry {
  std::uint64_t key = 0;  // 0: empty (a real key of 0 is simply never found)
  std::int16_t lower = 0;
  std::int16_t upper = 0;
  std::uint8_t move = 0;   // best house found, 0 none
  std::uint8_t depth = 0;  // kSolverProven: both bounds are game-theoretic
  std::uint8_t work = 0;   // bit width of the subtree's node count
  std::uint8_t pad = 0;
};
static_assert(sizeof(SolverEntry) == 16);

class SolverTable {
 public:
  explicit SolverTable(std::size_t megabytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= megabytes * 1024 * 1024) buckets *= 2;
    count_ = buckets;
    mask_ = buckets - 1;
    memory_ = HugeBuffer(bytes());  // zeroed: every entry empty
    buckets_ = static_cast<Bucket*>(memory_.data());
  }
  void clear() { std::fill(buckets_, buckets_ + count_, Bucket{}); }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(Bucket); }

  void prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }

  [[nodiscard]] const SolverEntry* probe(std::uint64_t key) const {
    const Bucket& b = buckets_[key & mask_];
    for (const SolverEntry& e : b.slot) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }

  // Records bounds [lower, upper] for `key` (use -kBig/+kBig for an open side).
  void store(std::uint64_t key, int lower, int upper, int move, int depth, bool proven, std::uint64_t nodes) {
    Bucket& b = buckets_[key & mask_];
    const std::uint8_t d = proven ? kSolverProven : static_cast<std::uint8_t>(std::min(depth, 254));
    const auto work = static_cast<std::uint8_t>(std::bit_width(nodes));
    SolverEntry* victim = &b.slot[0];
    for (SolverEntry& e : b.slot) {
      if (e.key == key) {
        if (e.depth == d) {  // same quality: both bounds hold, keep the tighter ones
          e.lower = static_cast<std::int16_t>(std::max<int>(e.lower, lower));
          e.upper = static_cast<std::int16_t>(std::min<int>(e.upper, upper));
          if (move != 0) e.move = static_cast<std::uint8_t>(move);
          e.work = std::max(e.work, work);
          return;
        }
        if (e.depth > d) {  // keep the better bounds, learn the move only
          if (move != 0) e.move = static_cast<std::uint8_t>(move);
          return;
        }
        write(e, key, lower, upper, move != 0 ? move : e.move, d, work);
        return;
      }
      if (e.key == 0) {
        victim = &e;
      } else if (victim->key != 0 && rank(e) < rank(*victim)) {
        victim = &e;
      }
    }
    write(*victim, key, lower, upper, move, d, work);
  }

 private:
  struct alignas(64) Bucket {
    SolverEntry slot[4];
  };
  // Proven entries outrank a search's depth-limited ones of the same size.
  static int rank(const SolverEntry& e) { return e.work * 2 + (e.depth == kSolverProven ? 1 : 0); }
  static void write(SolverEntry& e, std::uint64_t key, int lower, int upper, int move, std::uint8_t d,
                    std::uint8_t work) {
    e.key = key;
    e.lower = static_cast<std::int16_t>(lower);
    e.upper = static_cast<std::int16_t>(upper);
    e.move = static_cast<std::uint8_t>(move);
    e.depth = d;
    e.work = work;
  }
  HugeBuffer memory_;
  Bucket* buckets_ = nullptr;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace semis::engine
