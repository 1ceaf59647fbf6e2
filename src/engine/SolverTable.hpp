#pragma once
// The exact solver's transposition table. A bucket is one 64-byte cache line, so a probe costs one
// memory access and prefetch() can start it early. When a bucket is full the entry with the
// smallest searched subtree goes: in an exact solve the valuable entries are the ones that were
// expensive to prove, not the deep or the recent ones.
//
// Two layouts (setKeys; the solver picks, docs/engine.md "The table's layouts"). Exact (SolverKey's
// keys, given their width): eight slots of 8 bytes a bucket, each the key's high bits beside the
// entry packed in 32 bits; the bucket holds the key's low bits, so a slot matches one position only, and the table
// holds twice the entries of the hashed layout in the same memory (Kalah(6,4) without an endgame table, 256 MB: 308 M
// nodes with the hashed layout, 172 M with 512 MB of it). Hashed (FastBoard::key, any board): four
// slots of 16 bytes, the entry packed in one word and the 64-bit key in the other.
//
// Several solver threads can share one table without locks (share()). An exact slot is one word,
// read and written whole as a relaxed atomic (plain moves on x86-64; the builtins, as
// std::atomic_ref is missing from the WebAssembly toolchain's library). A hashed slot is two:
// shared, its key word holds the key XOR the entry, so a slot torn by two writers fails the check
// and reads as empty, and a probe only ever returns an entry some thread stored for that key.
//
// The size given is the most it takes. Unshared, it starts small and doubles whenever half its
// slots are used, keeping every entry, so a short solve neither allocates nor zeroes the memory of
// a long one (docs/engine.md, "Table size"); nothing holds a bucket across a store (a prefetch of
// the old buckets is only a wasted hint). Shared, it is at its whole size: threads probing without
// locks cannot see it move.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>

#include "engine/HugeBuffer.hpp"

namespace semis::engine {

inline constexpr std::uint8_t kSolverProven = 255;
inline constexpr int kSolverOpen = 30000;  // an open side of a bound (store(): -kSolverOpen, kSolverOpen)

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
    firstCount_ = std::min(maxCount_, kFirstBuckets);
    clear();
  }
  // The layout, before a search: `keyBits` > 0, the width of the keys the solver will give
  // (SolverKey::bits), asks for the exact one, which needs a key's bits beyond 32 in the bucket
  // index from the first size on; 0 for hashed keys. A change of layout empties the table.
  void setKeys(int keyBits) {
    int shift = std::countr_zero(kFirstBuckets);
    bool exact = false;
    if (keyBits > 0) {
      shift = std::max(shift, keyBits - 32);
      exact = shift < 62 && (std::size_t{1} << shift) <= maxCount_;
    }
    if (exact == exact_ && (!exact || shift == tagShift_)) return;
    exact_ = exact;
    tagShift_ = exact ? shift : 0;
    firstCount_ = exact ? std::size_t{1} << shift : std::min(maxCount_, kFirstBuckets);
    clear();
  }
  // Whether keys are SolverKey's (else FastBoard::key's hashes).
  [[nodiscard]] bool exact() const { return exact_; }
  // Before threads share the table, keeping every entry: the key words of the hashed slots take the
  // shared form, then the table grows to its whole size in place. It stays shared until clear(), so
  // the solver's helper threads can join a run halfway (Solver.cpp, startHelpers). Not while a
  // search runs.
  void share() {
    if (shared_) return;
    if (!exact_) {
      for (std::size_t b = 0; b < count_; ++b) {
        std::uint64_t* w = buckets_[b].w;
        for (int i = 0; i < kWords; i += 2) w[i] ^= w[i + 1];  // an empty slot stays 0
      }
    }
    shared_ = true;
    while (count_ < maxCount_) grow();
  }
  [[nodiscard]] bool shared() const { return shared_; }
  // The memory the table may grow into, which another thread may back meanwhile
  // (HugeBuffer::populate): share() then finds its pages ready.
  [[nodiscard]] HugeBuffer::Span reservation() const { return memory_.reservation(); }
  // Empty, unshared, at its first size. Not while a search runs.
  void clear() {
    shared_ = false;
    const std::size_t count = firstCount_;
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
    SolverEntry e;
    if (!find(key, e)) return std::nullopt;
    return e;
  }
  // probe() for the solver's hot loop: an out-parameter, which the compiler keeps in registers,
  // where the optional's return went through the stack field by field (docs/engine.md, Speed).
  bool find(std::uint64_t key, SolverEntry& out) const {
    const std::uint64_t* w = buckets_[key & mask_].w;
    if (exact_) {
      const std::uint64_t tag = key >> tagShift_;
      for (int i = 0; i < kWords; ++i) {
        const std::uint64_t x = shared_ ? load(w[i]) : w[i];
        if ((x >> 32) == tag && x != 0) {
          out = unpackExact(x);
          return true;
        }
      }
    } else if (shared_) {
      for (int i = 0; i < kWords; i += 2) {
        const std::uint64_t d = load(w[i + 1]);
        if ((load(w[i]) ^ d) == key) {  // an empty slot matches no real key
          out = unpack(d);
          return true;
        }
      }
    } else {
      for (int i = 0; i < kWords; i += 2) {
        if (w[i] == key) {
          out = unpack(w[i + 1]);
          return true;
        }
      }
    }
    return false;
  }

  // Records bounds [lower, upper] for `key` (-kSolverOpen/kSolverOpen for an open side).
  void store(std::uint64_t key, int lower, int upper, int move, int depth, bool proven, std::uint64_t nodes) {
    // One slot scan for each layout and sharing mode, chosen once: the solver stores at almost
    // every node it searches, and a scan that tested the mode at every slot (and divided to count
    // the slots) took 3.50 G instructions of a Kalah(6,4) solve where this takes 2.20 G.
    if (exact_) {
      if ((key >> tagShift_ >> 32) != 0) return;  // no exact key (SolverKey::kNone)
      if (shared_) {
        storeIn<true, true>(key, lower, upper, move, depth, proven, nodes);
      } else {
        storeIn<true, false>(key, lower, upper, move, depth, proven, nodes);
      }
    } else if (shared_) {
      storeIn<false, true>(key, lower, upper, move, depth, proven, nodes);
    } else {
      storeIn<false, false>(key, lower, upper, move, depth, proven, nodes);
    }
  }

 private:
  static constexpr int kWords = 8;
  struct alignas(64) Bucket {
    // Exact: eight slots of one word. Hashed: four of two words, the key (or key ^ data when
    // shared) then the packed entry, never 0 once written (kValid).
    std::uint64_t w[kWords];
  };
  static std::uint64_t load(const std::uint64_t& w) { return __atomic_load_n(&w, __ATOMIC_RELAXED); }
  static void put(std::uint64_t& w, std::uint64_t v) { __atomic_store_n(&w, v, __ATOMIC_RELAXED); }

  template <bool Exact, bool Shared>
  void storeIn(std::uint64_t key, int lower, int upper, int move, int depth, bool proven, std::uint64_t nodes) {
    // The exact layout's fields are narrower: a depth above 30 is kept as 30 (an entry is then
    // used for fewer searches, never wrongly), a subtree's bit width above 31 as 31.
    const std::uint8_t d = proven ? kSolverProven : static_cast<std::uint8_t>(std::min(depth, Exact ? 30 : 254));
    const int work = std::min(static_cast<int>(std::bit_width(nodes)), Exact ? 31 : 255);
    const SolverEntry mine{static_cast<std::int16_t>(lower), static_cast<std::int16_t>(upper),
                           static_cast<std::uint8_t>(move), d, static_cast<std::uint8_t>(work)};
    std::uint64_t* w = buckets_[key & mask_].w;
    constexpr int kStep = Exact ? 1 : 2;
    // The last empty slot, else the cheapest entry (the first of equals): the lowest score, an
    // empty slot's negative. Selected, not branched on: which slot goes is as good as random.
    int victim = 0;
    int lowest = std::numeric_limits<int>::max();
    for (int i = 0; i < kWords; i += kStep) {
      const std::uint64_t data = Shared ? load(w[i + kStep - 1]) : w[i + kStep - 1];
      if (data != 0 && matches<Exact, Shared>(w, i, data, key)) {
        if (const auto e = merged(entry<Exact>(data), mine)) write<Exact, Shared>(w, i, key, *e);
        return;
      }
      const int score = data == 0 ? -1 - i : rank(entry<Exact>(data)) * kWords + i;
      victim = score < lowest ? i : victim;
      lowest = score < lowest ? score : lowest;
    }
    write<Exact, Shared>(w, victim, key, mine);
    if constexpr (!Shared) {
      if (lowest < 0 && ++filled_ > count_ * static_cast<std::size_t>(kWords / kStep) / 2 && count_ < maxCount_) grow();
    }
  }

  // What a store of `mine` leaves in a slot holding `e` for the same key; nothing: `e` stays.
  static std::optional<SolverEntry> merged(const SolverEntry& e, SolverEntry mine) {
    // An entry's move is the one that reached its lower bound (the root's reported move comes
    // from it): a move only replaces it with a higher lower bound, or where it has none. Stores
    // can arrive out of order (a thread on an earlier pass or iteration than another).
    const bool newMove = mine.move != 0 && (e.move == 0 || mine.lower > e.lower);
    if (e.depth == mine.depth) {  // same quality: both bounds hold, keep the tighter ones
      mine.lower = std::max(e.lower, mine.lower);
      mine.upper = std::min(e.upper, mine.upper);
      if (!newMove) mine.move = e.move;
      mine.work = std::max(e.work, mine.work);
      return mine;
    }
    if (e.depth > mine.depth) {  // keep the better bounds; learn a move only where it has none
      if (mine.move == 0 || e.move != 0) return std::nullopt;
      SolverEntry kept = e;
      kept.move = mine.move;
      return kept;
    }
    if (mine.move == 0) mine.move = e.move;
    return mine;
  }

  // Hashed: the entry in one word.
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
  // Exact: the entry in the low 32 bits: valid 1, lower 9, upper 9 (offset by 256; a value is at
  // most the 255 seeds of FastBoard's words, and the end of each range stands for an open side),
  // move 3, depth 5 (31: proven), work 5; the key's tag in the high 32.
  static std::uint64_t packExact(const SolverEntry& e) {
    const auto lo = static_cast<std::uint64_t>(std::clamp<int>(e.lower, -256, 255) + 256);
    const auto hi = static_cast<std::uint64_t>(std::clamp<int>(e.upper, -256, 255) + 256);
    const std::uint64_t depth = e.depth == kSolverProven ? 31 : e.depth;
    return 1 | lo << 1 | hi << 10 | static_cast<std::uint64_t>(e.move) << 19 | depth << 22 |
           static_cast<std::uint64_t>(e.work) << 27;
  }
  static SolverEntry unpackExact(std::uint64_t x) {
    const int lo = static_cast<int>((x >> 1) & 511) - 256;
    const int hi = static_cast<int>((x >> 10) & 511) - 256;
    const auto depth = static_cast<std::uint8_t>((x >> 22) & 31);
    return SolverEntry{static_cast<std::int16_t>(lo == -256 ? -kSolverOpen : lo),
                       static_cast<std::int16_t>(hi == 255 ? kSolverOpen : hi),
                       static_cast<std::uint8_t>((x >> 19) & 7), depth == 31 ? kSolverProven : depth,
                       static_cast<std::uint8_t>((x >> 27) & 31)};
  }
  // The entry in a slot's entry word, in the layout `Exact`.
  template <bool Exact>
  static SolverEntry entry(std::uint64_t data) {
    if constexpr (Exact) return unpackExact(data);
    return unpack(data);
  }
  // Whether slot `i` (whose entry word is the non-zero `data`) holds `key`.
  template <bool Exact, bool Shared>
  bool matches(const std::uint64_t* w, int i, std::uint64_t data, std::uint64_t key) const {
    if constexpr (Exact) return (data >> 32) == (key >> tagShift_);
    if constexpr (Shared) return (load(w[i]) ^ data) == key;
    return w[i] == key;
  }
  // Proven entries outrank a search's depth-limited ones of the same size.
  static int rank(const SolverEntry& e) { return e.work * 2 + (e.depth == kSolverProven ? 1 : 0); }
  template <bool Exact, bool Shared>
  void write(std::uint64_t* w, int i, std::uint64_t key, const SolverEntry& e) const {
    if constexpr (Exact) {
      const std::uint64_t x = (key >> tagShift_) << 32 | packExact(e);
      if constexpr (Shared) {
        put(w[i], x);
      } else {
        w[i] = x;
      }
      return;
    }
    const std::uint64_t d = pack(e);
    if constexpr (Shared) {
      put(w[i + 1], d);
      put(w[i], key ^ d);
    } else {
      w[i + 1] = d;
      w[i] = key;
    }
  }
  // Whether the slot at `w` goes to the upper half when a table of 2^bit buckets doubles: the key's
  // bit `bit` (exact: in the tag, which holds every bit from tagShift_ on).
  [[nodiscard]] bool upperHalf(const std::uint64_t* w, int bit) const {
    if (exact_) return ((w[0] >> 32) >> (bit - tagShift_)) & 1;
    return ((shared_ ? w[0] ^ w[1] : w[0]) >> bit) & 1;  // the key word's form (share())
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
  // Twice the buckets (unshared, or sharing and no thread searching yet); the entries of bucket b go
  // to b or b + count, in order.
  void grow() {
    const std::size_t oldCount = count_;
    if (!memory_.extend(oldCount * 2 * sizeof(Bucket))) {
      growByCopy();
      return;
    }
    const int bit = std::countr_zero(oldCount);
    const int step = exact_ ? 1 : 2;
    for (std::size_t b = 0; b < oldCount; ++b) {
      std::uint64_t* stay = buckets_[b].w;
      std::uint64_t* go = buckets_[b + oldCount].w;  // new: empty
      int kept = 0;
      for (int i = 0; i < kWords; i += step) {
        if (stay[i + step - 1] == 0) continue;  // empty (the entry word is a slot's last)
        if (upperHalf(stay + i, bit)) {
          std::copy(stay + i, stay + i + step, go);
          go += step;
        } else {
          for (int j = 0; j < step; ++j) stay[kept + j] = stay[i + j];  // kept <= i: moves down
          kept += step;
        }
      }
      std::fill(stay + kept, stay + kWords, 0);
    }
    count_ = oldCount * 2;
    mask_ = count_ - 1;
  }
  // Where no room was reserved (builds without mmap): a new block, every entry copied.
  void growByCopy() {
    HugeBuffer old = std::move(memory_);
    const Bucket* from = static_cast<const Bucket*>(old.data());
    const std::size_t oldCount = count_;
    const int bit = std::countr_zero(oldCount);
    const int step = exact_ ? 1 : 2;
    memory_ = HugeBuffer(oldCount * 2 * sizeof(Bucket));
    buckets_ = static_cast<Bucket*>(memory_.data());
    for (std::size_t b = 0; b < oldCount; ++b) {
      for (int i = 0; i < kWords; i += step) {
        const std::uint64_t* slot = from[b].w + i;
        if (slot[step - 1] == 0) continue;
        std::uint64_t* to = buckets_[b + (upperHalf(slot, bit) ? oldCount : 0)].w;
        while (to[step - 1] != 0) to += step;
        std::copy(slot, slot + step, to);
      }
    }
    count_ = oldCount * 2;
    mask_ = count_ - 1;
  }
  HugeBuffer memory_;
  Bucket* buckets_ = nullptr;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
  std::size_t maxCount_ = 1;
  std::size_t firstCount_ = 1;
  std::size_t filled_ = 0;  // slots in use (unshared)
  int tagShift_ = 0;        // exact: a key's bits from this one on are its slot's tag
  bool exact_ = false;
  bool shared_ = false;
};

}  // namespace semis::engine
