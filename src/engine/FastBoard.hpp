#pragma once
// A compact board for the Kalah family, for the exact solver and the endgame-table builder.
//
// semis::Board plays every rule set through one general sowing loop; the solver visits billions of
// positions of the simplest family, so this kernel plays only the rules where each sowing is
// "lift, drop one seed in each next pit of a ring of 2N+1 (the opponent's store skipped), capture
// opposite on an own empty house": Kalah and its options (capture, end, extra turn, houses, seeds).
//
// A position is two 64-bit words seen from the player to move: his houses, the opponent's houses,
// a byte each (house 1 lowest). A sowing of any size is a few additions of precomputed masks
// (whole laps, then the partial lap; the mover's store is byte N of his word while he sows), and
// handing the move over swaps the words. Nothing depends on who moves, so a position and its mirror
// with the other side to move are one FastPos. No byte ever carries into the next: supports() takes
// up to 7 houses (2 * 7 * 12 = 168 seeds; bigger boards use semis::Board) and asks for at most 255
// seeds in the game.
//
// The stores stay empty: play() returns what the move gained instead (mover's gain minus the
// opponent's, final sweep included), so positions that differ only in their stores are one
// position and the values the solver handles are those of the seeds left in the houses.
// tests/engine/FastBoardTest.cpp checks every move against semis::Board.

#include <bit>
#include <cstdint>

#include "rules/Board.hpp"

namespace semis::engine {

// Rows are read and written as the low bytes of 64-bit words.
static_assert(std::endian::native == std::endian::little, "FastBoard assumes a little-endian machine");

struct FastPos {
  std::uint64_t mine = 0;    // the mover's houses, byte h-1 for house h
  std::uint64_t theirs = 0;  // the opponent's, the same way
  int side = 0;              // who the mover is, 0 South, 1 North: only for translating Positions
  friend bool operator==(const FastPos&, const FastPos&) = default;
};

struct FastMove {
  int gain = 0;        // seeds the mover banked minus the opponent's (the end-of-game sweep included)
  int left = 0;        // seeds left in the houses afterwards
  int theirs = 0;      // seeds left on the opponent's row afterwards (0 when the game ended)
  bool extra = false;  // the mover moves again
  bool over = false;   // the game ended (both words 0)
};

class FastBoard {
 public:
  // The most houses a row has here (a row and its store fill one 8-byte word), fewer than the
  // rules allow (kMaxHouses): the solver's node frames and the sowing tables are sized by it.
  static constexpr int kHouses = 7;
  // The rules this kernel plays exactly like semis::Board.
  [[nodiscard]] static bool supports(const Rules& rules);

  explicit FastBoard(const Rules& rules);

  [[nodiscard]] int houses() const { return n_; }
  [[nodiscard]] static int byteAt(std::uint64_t w, int i) { return static_cast<std::uint8_t>(w >> (8 * i)); }
  // Bit h-1 for each house h of the player to move that holds seeds.
  [[nodiscard]] static std::uint32_t legalMask(const FastPos& p) {
    // A byte is nonzero iff adding 0x7f to its low 7 bits or its own high bit sets bit 7.
    const std::uint64_t w = p.mine;
    const std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    const std::uint64_t nonzero = (((w & low7) + low7) | w) & ~low7;
    // Bit 0 of each byte (i) times 0x0102040810204080 lands in bit 56 + i, and no two of the
    // products' bits meet: the gather in one multiplication, where a loop over the set bytes
    // ended on a branch that was mispredicted at random.
    return static_cast<std::uint32_t>(((nonzero >> 7) * 0x0102040810204080ULL) >> 56);
  }
  [[nodiscard]] static int byteSum(std::uint64_t w) { return static_cast<int>((w * 0x0101010101010101ULL) >> 56); }
  [[nodiscard]] static int seedsLeft(const FastPos& p) { return byteSum(p.mine) + byteSum(p.theirs); }
  // Plays house 1..N of the side to move (it must hold seeds).
  FastMove play(FastPos& p, int house) const {
    FastMove out;
    play(p, house, out);
    return out;
  }
  // The same, filling `out` in place: the solver's hot loop (a returned struct is copied through
  // the stack with mixed-size stores and loads, which stalls store-to-load forwarding).
  void play(FastPos& p, int house, FastMove& out) const {
    const int origin = house - 1;
    const int seeds = byteAt(p.mine, origin);
    std::uint64_t lo = p.mine & ~(0xFFULL << (8 * origin));
    std::uint64_t hi = p.theirs;
    const int laps = lapsOf_[seeds];
    if (laps != 0) {
      lo += lapMine_ * static_cast<unsigned>(laps);
      hi += lapTheirs_ * static_cast<unsigned>(laps);
    }
    const Rest& r = rest_[origin][seeds - laps * ring_];
    lo += r.mine;
    hi += r.theirs;
    const int last = r.last;
    out.extra = false;
    out.gain = static_cast<int>(lo >> (8 * n_));  // the store: nothing lies above it
    lo &= rowMask_;
    if (last == n_) {
      out.extra = extraTurn_;
    } else if (captures_ && last < n_ && byteAt(lo, last) == 1) {
      const int opp = n_ - 1 - last;  // the opponent's house facing it
      const int taken = byteAt(hi, opp);
      if (taken != 0 || captureEmpty_) {
        out.gain += 1 + taken;
        lo &= ~(0xFFULL << (8 * last));
        hi &= ~(0xFFULL << (8 * opp));
      }
    }
    out.over = endImmediate_ ? (lo == 0 || hi == 0) : (out.extra ? lo : hi) == 0;
    if (out.over) {
      out.gain += byteSum(lo) - byteSum(hi);  // leftovers go to their owner
      p.mine = p.theirs = 0;
      out.left = out.theirs = 0;
      return;
    }
    out.theirs = byteSum(hi);
    out.left = byteSum(lo) + out.theirs;
    if (out.extra) {
      p.mine = lo;
      p.theirs = hi;
    } else {
      p.mine = hi;
      p.theirs = lo;
      p.side ^= 1;
    }
  }

  [[nodiscard]] FastPos fromPosition(const Position& pos) const;
  // 64-bit key of the houses, mixed for table indexing. The position is the mover's view, so a
  // position and its mirror with the other side to move (the same game) share one table entry.
  [[nodiscard]] static std::uint64_t key(const FastPos& p) {
    std::uint64_t h = p.mine * 0x9E3779B97F4A7C15ULL ^ p.theirs * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
  }

 private:
  // A sowing of fewer seeds than a lap from one house: what it adds to each word, and where it ends
  // (a byte of the mover's word: N is his store; N+1.. stand for the opponent's houses).
  struct Rest {
    std::uint64_t mine;
    std::uint64_t theirs;
    int last;
  };
  int n_;
  int ring_;  // pits a sowing goes round: 2N + 1 (the opponent's store is not on the board)
  bool extraTurn_;
  bool captures_;
  bool captureEmpty_;
  bool endImmediate_;
  std::uint64_t rowMask_;  // the low N bytes
  std::uint64_t lapMine_;
  std::uint64_t lapTheirs_;
  Rest rest_[kHouses][2 * kHouses + 1];
  std::uint8_t lapsOf_[256];
};

}  // namespace semis::engine
