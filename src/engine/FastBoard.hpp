#pragma once
// A compact board for the Kalah family, for the exact solver and the endgame-table builder.
//
// semis::Board plays every rule set through one general sowing loop; the solver visits billions of
// positions of the simplest family, so this kernel plays only the rules where each sowing is
// "lift, drop one seed in each next pit of a ring of 2N+1 (the opponent's store skipped), capture
// opposite on an own empty house": Kalah and its options (capture, end, extra turn, houses, seeds).
// A position is 16 bytes in ring order (the Position layout) held in one 128-bit integer, so a
// sowing of any size is two additions: whole laps, then the partial lap from a precomputed mask.
//
// The stores stay empty: play() returns what the move gained instead (mover's gain minus the
// opponent's, final sweep included), so positions that differ only in their stores are one
// position and the values the solver handles are those of the seeds left in the houses.
// tests/engine/FastBoardTest.cpp checks every move against semis::Board.

#include <bit>
#include <cstdint>
#include <cstring>

#include "rules/Board.hpp"

namespace semis::engine {

// The pits as one 128-bit integer, a byte each in ring order (pit i is bits 8i..8i+7). Every
// operation stays in registers: a sowing adds whole words, a pit is a shift and a mask. No byte of
// it ever carries into the next: a rule set has at most 2 * 7 * 10 = 140 seeds.
__extension__ typedef unsigned __int128 Pits;  // NOLINT(modernize-use-using): __extension__ needs typedef

// Rows are read and written as the low bytes of 64-bit words.
static_assert(std::endian::native == std::endian::little, "FastBoard assumes a little-endian machine");

struct FastPos {
  Pits pits = 0;  // ring order as in semis::Position; both stores always 0
  int side = 0;   // 0 South, 1 North to move
};

struct FastMove {
  int gain = 0;        // seeds the mover banked minus the opponent's (the end-of-game sweep included)
  int left = 0;        // seeds left in the houses afterwards
  bool extra = false;  // the mover moves again
  bool over = false;   // the game ended (pits all 0)
};

class FastBoard {
 public:
  // The rules this kernel plays exactly like semis::Board.
  [[nodiscard]] static bool supports(const Rules& rules);

  explicit FastBoard(const Rules& rules);

  [[nodiscard]] int houses() const { return n_; }
  [[nodiscard]] int housePit(int side, int house) const { return side == 0 ? house - 1 : n_ + house; }
  [[nodiscard]] static int pit(const FastPos& p, int i) { return static_cast<std::uint8_t>(p.pits >> (8 * i)); }
  // Bit h-1 for each house h of the player to move that holds seeds.
  [[nodiscard]] std::uint32_t legalMask(const FastPos& p) const {
    // A byte is nonzero iff adding 0x7f to its low 7 bits or its own high bit sets bit 7.
    const std::uint64_t w = row(p, p.side);
    const std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    const std::uint64_t nonzero = (((w & low7) + low7) | w) & ~low7 & rowMask_;
    std::uint32_t m = 0;
    for (std::uint64_t b = nonzero; b != 0; b &= b - 1) m |= 1U << (std::countr_zero(b) / 8);
    return m;
  }
  [[nodiscard]] int rowSum(const FastPos& p, int side) const { return byteSum(row(p, side)); }
  // A side's houses as the low N bytes of a word, house 1 lowest.
  [[nodiscard]] std::uint64_t row(const FastPos& p, int side) const {
    return static_cast<std::uint64_t>(p.pits >> (side == 0 ? 0 : 8 * (n_ + 1))) & rowMask_;
  }
  [[nodiscard]] int seedsLeft(const FastPos& p) const { return rowSum(p, 0) + rowSum(p, 1); }
  // The houses in the endgame table's order, the mover's row first (Egdb::rank's input). `out`
  // holds kHousesOut bytes: each row is copied as a whole little-endian word, the second over the
  // first's spare bytes.
  static constexpr int kHousesOut = 2 * kMaxHouses + 8;
  void moverFirst(const FastPos& p, std::uint8_t* out) const {
    const std::uint64_t mine = row(p, p.side);
    const std::uint64_t theirs = row(p, 1 - p.side);
    std::memcpy(out, &mine, 8);
    std::memcpy(out + n_, &theirs, 8);
  }

  // Plays house 1..N of the side to move (it must hold seeds).
  FastMove play(FastPos& p, int house) const {
    FastMove out;
    play(p, house, out);
    return out;
  }
  // The same, filling `out` in place: the solver's hot loop (a returned struct is copied through
  // the stack with mixed-size stores and loads, which stalls store-to-load forwarding).
  void play(FastPos& p, int house, FastMove& out) const {
    const int s = p.side;
    const int origin = housePit(s, house);
    const int seeds = pit(p, origin);
    Pits b = p.pits & keep_[origin];
    const int laps = lapsOf_[seeds];
    const int rest = seeds - laps * ring_;
    if (laps != 0) b += lapMask_[s] * static_cast<unsigned>(laps);
    b += restMask_[s][origin][rest];
    const int last = lastPit_[s][origin][rest];
    const int store = store_[s];
    out.extra = false;
    out.gain = static_cast<std::uint8_t>(b >> (8 * store));
    b &= keep_[store];
    if (last == store) {
      out.extra = extraTurn_;
    } else if (captures_ && (last < n_) == (s == 0) && static_cast<std::uint8_t>(b >> (8 * last)) == 1) {
      const int opp = 2 * n_ - last;
      const int taken = static_cast<std::uint8_t>(b >> (8 * opp));
      if (taken != 0 || captureEmpty_) {
        out.gain += 1 + taken;
        b &= keep_[opp] & keep_[last];
      }
    }
    p.pits = b;
    const int mine = rowSum(p, s);
    const int theirs = rowSum(p, 1 - s);
    const int next = out.extra ? s : 1 - s;
    out.over = endImmediate_ ? (mine == 0 || theirs == 0) : (next == s ? mine : theirs) == 0;
    if (out.over) {
      out.gain += mine - theirs;  // leftovers go to their owner
      p.pits = 0;
      out.left = 0;
    } else {
      p.side = next;
      out.left = mine + theirs;
    }
  }

  [[nodiscard]] FastPos fromPosition(const Position& pos) const;
  // 64-bit key of the houses, mixed for table indexing. Canonical: the mover's row then the
  // opponent's, so a position and its mirror with the other side to move (the same game from the
  // mover's view) share one table entry. Kalah(6,3) without a table: 3.21 M to 2.54 M nodes.
  [[nodiscard]] std::uint64_t key(const FastPos& p) const {
    const std::uint64_t a = row(p, p.side);
    const std::uint64_t b = row(p, 1 - p.side);
    std::uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
  }

 private:
  static int byteSum(std::uint64_t w) { return static_cast<int>((w * 0x0101010101010101ULL) >> 56); }

  int n_;
  int ring_;  // pits one side sows into: 2N + 1
  bool extraTurn_;
  bool captures_;
  bool captureEmpty_;
  bool endImmediate_;
  std::uint64_t rowMask_;
  int store_[2];
  Pits keep_[16];  // every pit but one
  Pits lapMask_[2];
  // For a sowing of `rest` seeds (less than a lap) from a pit: the pits it reaches, and the last.
  Pits restMask_[2][16][16];
  std::uint8_t lastPit_[2][16][16];
  std::uint8_t lapsOf_[256];
};

}  // namespace semis::engine
