#pragma once
// The solver's exact key of a position, for SolverTable's exact layout: the houses, four bits each
// (the mover's then the opponent's), mixed by a bijection of those bits. Two positions never share
// a key, so the table keeps only a key's high bits beside an entry, in 8 bytes, and never takes one
// position's entry for another's. Boards of up to 6 houses a side: Kalah(6,N) has 48-bit keys.
// A position with a house of more than 15 seeds has none (kNone): the table neither finds nor
// keeps it (Kalah(6,4), `capture=empty`, no endgame table: 60.2 M nodes, where a key of every
// position, the stars-and-bars rank of the endgame tables, gave 61.6 M at three times the cost).
//
// A position is FastBoard's mover's view (two words of a byte per house), so a position and its
// mirror with the other side to move share a key, as FastBoard::key's hashes do.

#include <cstdint>

namespace semis::engine {

class SolverKey {
 public:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};  // above every key's bits

  explicit SolverKey(int houses) {
    if (houses < 1 || houses > 6) return;
    rowBits_ = 4 * houses;
    bits_ = 2 * rowBits_;
    mask_ = (std::uint64_t{1} << bits_) - 1;
    shift_ = rowBits_;
  }

  // The keys' width in bits (every key but kNone is below 2^bits()); 0: no exact keys here.
  [[nodiscard]] int bits() const { return bits_; }

  // The key of the houses `mine` and `theirs` (the mover's row, the opponent's), or kNone.
  [[nodiscard]] std::uint64_t of(std::uint64_t mine, std::uint64_t theirs) const {
    if (((mine | theirs) & 0xF0F0F0F0F0F0F0F0ULL) != 0) return kNone;
    return mix(pack(mine) | pack(theirs) << rowBits_);
  }

 private:
  // The low nibbles of a word's bytes, side by side (bytes past the houses are zero).
  static std::uint64_t pack(std::uint64_t x) {
    x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL;
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL;
    return (x | (x >> 16)) & 0xFFFFFFFFULL;
  }
  // A bijection of [0, 2^bits): xor-shifts and odd multiplications modulo 2^bits, so that the low
  // bits (the table's bucket) depend on every house.
  [[nodiscard]] std::uint64_t mix(std::uint64_t x) const {
    x ^= x >> shift_;
    x = (x * 0x9E3779B97F4A7C15ULL) & mask_;
    x ^= x >> shift_;
    x = (x * 0xBF58476D1CE4E5B9ULL) & mask_;
    return x ^ (x >> shift_);
  }

  int rowBits_ = 0;
  int bits_ = 0;
  int shift_ = 1;
  std::uint64_t mask_ = 0;
};

}  // namespace semis::engine
