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
//
// The size given is the most it takes. Unshared, it starts at kFirstBuckets and doubles whenever
// half its slots are used, keeping every entry, so a short solve neither allocates nor zeroes the
// memory of a long one (docs/engine.md, "Table size"); nothing holds a bucket across a store (a
// prefetch of the old buckets is only a wasted hint). Shared, it takes its whole size at once:
// threads probing without locks cannot see it move.

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
  static constexpr std::size_t kFirstBuckets = std::size_t{1} << 12;  // 256 KB

  explicit SolverTable(std::size_t megabytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= megabytes * 1024 * 1024) buckets *= 2;
    maxCount_ = buckets;
    clear();
  }
  // Before threads share the table; a change of mode empties it. Not while a search runs.
  void setShared(bool shared) {
    if (shared == shared_) return;
    shared_ = shared;
    clear();
  }
  // Empty, at its first size (its whole size when shared). Not while a search runs.
  void clear() {
    const std::size_t count = shared_ ? maxCount_ : std::min(maxCount_, kFirstBuckets);
    if (count == count_) {
      std::fill(buckets_, buckets_ + count_, Bucket{});
    } else {
      allocate(count);
    }
    filled_ = 0;
  }
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
    if (victimRank < 0 && !shared_ && ++filled_ > count_ * kSlots / 2 && count_ < maxCount_) grow();
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
  void allocate(std::size_t count) {
    memory_ = HugeBuffer();  // the old block goes first: at most one of them at a time
    // Zeroed: every slot empty. Room for the largest size is reserved, so that grow() extends it
    // in place: it zeroes only the new half (before: a new block of twice the size, every entry
    // copied, and the kernel's clearing of the pages of every size on the way, 10% of the samples
    // of a one-thread Kalah(6,4) solve with the 20-seed table).
    memory_ = HugeBuffer(count * sizeof(Bucket), maxCount_ * sizeof(Bucket));
    buckets_ = static_cast<Bucket*>(memory_.data());
    count_ = count;
    mask_ = count - 1;
  }
  // Unshared only: twice the buckets; the entries of bucket i go to i or i + count, in order.
  void grow() {
    const std::size_t oldCount = count_;
    if (!memory_.extend(oldCount * 2 * sizeof(Bucket))) {
      growByCopy();
      return;
    }
    count_ = oldCount * 2;
    mask_ = count_ - 1;
    for (std::size_t i = 0; i < oldCount; ++i) {
      Slot* stay = buckets_[i].slot;
      Slot* go = buckets_[i + oldCount].slot;  // new: empty
      int kept = 0;
      for (int j = 0; j < kSlots; ++j) {
        const Slot s = stay[j];
        if (s.data == 0) continue;
        if ((s.check & mask_) == i) {
          stay[kept++] = s;
        } else {
          *go++ = s;
        }
      }
      for (int j = kept; j < kSlots; ++j) stay[j] = Slot{};
    }
  }
  // Where no room was reserved (builds without mmap): a new block, every entry copied.
  void growByCopy() {
    HugeBuffer old = std::move(memory_);
    const Bucket* from = static_cast<const Bucket*>(old.data());
    const std::size_t oldCount = count_;
    memory_ = HugeBuffer(oldCount * 2 * sizeof(Bucket));
    buckets_ = static_cast<Bucket*>(memory_.data());
    count_ = oldCount * 2;
    mask_ = count_ - 1;
    for (std::size_t i = 0; i < oldCount; ++i) {
      for (const Slot& s : from[i].slot) {
        if (s.data == 0) continue;
        Slot* to = buckets_[s.check & mask_].slot;
        while (to->data != 0) ++to;
        *to = s;
      }
    }
  }
  HugeBuffer memory_;
  Bucket* buckets_ = nullptr;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
  std::size_t maxCount_ = 1;
  std::size_t filled_ = 0;  // slots in use (unshared)
  bool shared_ = false;
};

}  // namespace semis::engine
