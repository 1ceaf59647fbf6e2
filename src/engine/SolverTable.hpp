#pragma once
// The exact solver's transposition table. A bucket is one 64-byte cache line of four 16-byte
// slots, so a probe costs one memory access and prefetch() can start it early. When a bucket is
// full the entry with the smallest searched subtree goes: in an exact solve the valuable entries
// are the ones that were expensive to prove, not the deep or the recent ones.
//
// Several solver threads can share one table without locks (setShared). A slot is two words, the
// entry packed into one and the key in the other. Shared, the words are read and written as relaxed
// atomics (plain moves on x86-64; the builtins, as std::atomic_ref is missing from the WebAssembly
// toolchain's library) and the key word holds the key XOR the entry: a slot torn by two writers
// fails the check and reads as empty, so a probe only ever returns an entry some thread stored for
// that key. Unshared, the key word holds the key alone and a probe compares one word per slot.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

#include "engine/HugeBuffer.hpp"

namespace semis::engine {

inline constexpr std::uint8_t kSolverProven = 255;

struct SolverEntry {
  std::int16_t lower = 0;
  std::int16_t upper = 0;
  std::uint8_t move = 0;   // best house found, 0 none
  std::uint8_t depth = 0;  // kSolverProven: both bounds are game-theoretic
  std::uint8_t work = 0;   // bit width of the subtree's node count
};

class SolverTable {
 public:
  explicit SolverTable(std::size_t megabytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= megabytes * 1024 * 1024) buckets *= 2;
    count_ = buckets;
    mask_ = buckets - 1;
    memory_ = HugeBuffer(bytes());  // zeroed: every slot empty
    buckets_ = static_cast<Bucket*>(memory_.data());
  }
  // Before threads share the table; a change of mode empties it. Not while a search runs.
  void setShared(bool shared) {
    if (shared == shared_) return;
    shared_ = shared;
    clear();
  }
  // Not while a search runs.
  void clear() { std::fill(buckets_, buckets_ + count_, Bucket{}); }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(Bucket); }

  void prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }

  [[nodiscard]] std::optional<SolverEntry> probe(std::uint64_t key) const {
    const Slot* slot = buckets_[key & mask_].slot;
    if (shared_) {
      for (int i = 0; i < kSlots; ++i) {
        const std::uint64_t d = load(slot[i].data);
        if ((load(slot[i].check) ^ d) == key) return unpack(d);  // an empty slot matches no real key
      }
    } else {
      for (int i = 0; i < kSlots; ++i) {
        if (slot[i].check == key) return unpack(slot[i].data);
      }
    }
    return std::nullopt;
  }

  // Records bounds [lower, upper] for `key` (use -kBig/+kBig for an open side).
  void store(std::uint64_t key, int lower, int upper, int move, int depth, bool proven, std::uint64_t nodes) {
    Bucket& b = buckets_[key & mask_];
    const std::uint8_t d = proven ? kSolverProven : static_cast<std::uint8_t>(std::min(depth, 254));
    SolverEntry mine{static_cast<std::int16_t>(lower), static_cast<std::int16_t>(upper),
                     static_cast<std::uint8_t>(move), d, static_cast<std::uint8_t>(std::bit_width(nodes))};
    Slot* victim = nullptr;
    int victimRank = 1 << 30;  // -1 once the victim is an empty slot
    for (Slot& s : b.slot) {
      const std::uint64_t data = shared_ ? load(s.data) : s.data;
      if (data != 0 && (shared_ ? load(s.check) ^ data : s.check) == key) {
        const SolverEntry e = unpack(data);
        // An entry's move is the one that reached its lower bound (the root's reported move comes
        // from it): a move only replaces it with a higher lower bound, or where it has none. Stores
        // can arrive out of order (a thread on an earlier pass or iteration than another).
        const bool newMove = move != 0 && (e.move == 0 || mine.lower > e.lower);
        if (e.depth == d) {  // same quality: both bounds hold, keep the tighter ones
          mine.lower = std::max(e.lower, mine.lower);
          mine.upper = std::min(e.upper, mine.upper);
          if (!newMove) mine.move = e.move;
          mine.work = std::max(e.work, mine.work);
        } else if (e.depth > d) {  // keep the better bounds; learn a move only where it has none
          if (move == 0 || e.move != 0) return;
          mine = e;
          mine.move = static_cast<std::uint8_t>(move);
        } else if (move == 0) {
          mine.move = e.move;
        }
        write(s, key, mine);
        return;
      }
      // The last empty slot, else the cheapest entry (the first of equals).
      if (data == 0) {
        victim = &s, victimRank = -1;
      } else if (const int r = rank(unpack(data)); victimRank >= 0 && r < victimRank) {
        victim = &s, victimRank = r;
      }
    }
    write(*victim, key, mine);
  }

 private:
  static constexpr int kSlots = 4;
  struct Slot {
    std::uint64_t check;  // key ^ data when shared, else key
    std::uint64_t data;   // the packed entry; never 0 once written (kValid)
  };
  struct alignas(64) Bucket {
    Slot slot[kSlots];
  };
  static std::uint64_t load(const std::uint64_t& w) { return __atomic_load_n(&w, __ATOMIC_RELAXED); }
  static void put(std::uint64_t& w, std::uint64_t v) { __atomic_store_n(&w, v, __ATOMIC_RELAXED); }
  static constexpr std::uint64_t kValid = 1ULL << 56;
  static std::uint64_t pack(const SolverEntry& e) {
    return static_cast<std::uint16_t>(e.lower) | static_cast<std::uint64_t>(static_cast<std::uint16_t>(e.upper)) << 16 |
           static_cast<std::uint64_t>(e.move) << 32 | static_cast<std::uint64_t>(e.depth) << 40 |
           static_cast<std::uint64_t>(e.work) << 48 | kValid;
  }
  static SolverEntry unpack(std::uint64_t d) {
    return SolverEntry{static_cast<std::int16_t>(d), static_cast<std::int16_t>(d >> 16),
                       static_cast<std::uint8_t>(d >> 32), static_cast<std::uint8_t>(d >> 40),
                       static_cast<std::uint8_t>(d >> 48)};
  }
  // Proven entries outrank a search's depth-limited ones of the same size.
  static int rank(const SolverEntry& e) { return e.work * 2 + (e.depth == kSolverProven ? 1 : 0); }
  void write(Slot& s, std::uint64_t key, const SolverEntry& e) const {
    const std::uint64_t d = pack(e);
    if (shared_) {
      put(s.data, d);
      put(s.check, key ^ d);
    } else {
      s.data = d;
      s.check = key;
    }
  }
  HugeBuffer memory_;
  Bucket* buckets_ = nullptr;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
  bool shared_ = false;
};

}  // namespace semis::engine
