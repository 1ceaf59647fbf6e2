#pragma once
// Endgame databases: for rule sets whose future depends only on the seeds in the houses (and who
// is to move), the exact value of the seeds still on the board - the best final store difference
// the player to move can reach over them - for every position with at most K seeds in the houses.
//
// Positions are ranked combinatorially (stars and bars: a distribution of s seeds into the 2N
// houses is a combination of 2N-1 bars among s+2N-1 places, ranked in colex order), one level per
// seed count. Only South-to-move positions are stored: the rules are symmetric, so a North-to-move
// position is probed mirrored. Entries are int8; kUnknown (-128) is a real "not computed" sentinel.
//
// Castles and win thresholds: where the future also depends on the castles (the castle rule) or on
// the stores (a win threshold, Al-manqala's win_at), each level is cut into blocks, one per
// combination of the mover's castle, the opponent's castle and the mover's store (the stores of a
// live position lie in a narrow band: both are below the threshold and they sum to the seeds
// taken); a block holds every distribution of the level. Rules whose seeds can circulate within a
// level (no store on the ring, or sowing that skips it) are built by retrograde analysis
// (EgdbRetro.cpp), which gives positions no finite line settles the split's value: see
// docs/engine.md, "Endgame tables".
//
// Files: a fixed header (magic, the rules string, K, houses, entry count) then the entries; open()
// memory-maps the file read-only, so several engines and processes share one copy.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/HugeBuffer.hpp"
#include "rules/Board.hpp"

namespace semis::engine {

class Egdb {
 public:
  static constexpr int kUnknown = -128;
  static constexpr int kMaxSeedsLimit = 40;

  // Whether tables can be built for the rules: every rule set (sets, the pie rule and the history
  // rules are outside the bare game the tables and the search play).
  [[nodiscard]] static bool applies(const Rules& rules);
  // Whether the value of the seeds left depends on the houses, castles and side to move alone (no
  // reachable win threshold): then the search's table may leave the stores out of its key.
  [[nodiscard]] static bool housesOnly(const Rules& rules);
  // Whether levels are built by retrograde analysis (seeds may circulate within a level, or the
  // position has more than its houses: castles, a win threshold) rather than depth-first.
  [[nodiscard]] static bool retrograde(const Rules& rules);
  // Builds every level up to maxSeeds. Kalah-family rules (FastBoard::supports) are built by
  // `threads` threads (the result does not depend on it); the others by one.
  [[nodiscard]] static Result<Egdb> build(const Rules& rules, int maxSeeds, int threads = 1);
  // Mapped: the file is memory-mapped read-only, so processes share one copy (the server).
  // Resident: mapped the same way, asked for 2 MB pages and faulted in whole at once, for one
  // long solve that probes it at random.
  enum class Access : std::uint8_t { Mapped, Resident };
  [[nodiscard]] static Result<Egdb> open(const std::string& path, Access access = Access::Mapped);
  [[nodiscard]] Result<void> save(const std::string& path) const;

  Egdb(Egdb&&) noexcept;
  Egdb& operator=(Egdb&&) noexcept;
  ~Egdb();

  [[nodiscard]] const Rules& rules() const { return rules_; }
  // Whether the table holds the values of these rules' positions: its own rules, give or take what
  // no table depends on: sets, the pie rule, who starts, the history rules and their split, the
  // preset's name and, where the value is the houses' alone (housesOnly), the seeds a house starts
  // with and an unreachable win threshold. So `kalah`'s table serves `kalah,seeds=6` and
  // `kalah,pie=true`.
  [[nodiscard]] bool serves(const Rules& rules) const;
  // Where it does not: each option whose value sets the table's entries apart, as
  // "capture: empty in the table, standard here" (empty when it serves them).
  [[nodiscard]] std::vector<std::string> differences(const Rules& rules) const;
  [[nodiscard]] int maxSeeds() const { return maxSeeds_; }
  [[nodiscard]] std::uint64_t entries() const { return count_; }
  // The value of the seeds left in the houses for pos.toMove, or kUnknown when not in the table
  // (other rules, too many seeds, a finished game, a position the rules never reach).
  [[nodiscard]] int probe(const Board& board, const Position& pos) const;
  // Kalah family only (one block a level), for a caller that prefetches several entries before it
  // reads them: the index of the houses given as two rows, words of a byte per house (house h in
  // byte h-1), the mover's first: FastBoard's layout, so at most 8 houses; seeds (their sum) <= K.
  // A row's prefix sums are one multiplication, so the terms are independent reads instead of
  // rank()'s chain.
  // Inline: the solver computes one for most of its nodes' children.
  [[nodiscard]] std::uint64_t index(std::uint64_t mine, std::uint64_t theirs, int seeds) const {
    // Byte j of a row times 0x0101...01 is the sum of its bytes 0..j (every sum is at most K, so
    // no byte carries into the next); the bytes past the houses are zero.
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    const auto stride = static_cast<std::size_t>(maxSeeds_ + 1);
    const std::uint64_t* term = prefixBinom_.data();
    const std::uint64_t own = mine * kOnes;
    const std::uint64_t opp = theirs * kOnes;
    const std::size_t ownTotal = own >> 56;
    std::uint64_t r = 0;
    for (int j = 0; j < 8; ++j) {
      r += term[static_cast<std::size_t>(j) * stride + ((own >> (8 * j)) & 0xFF)];
      r += term[static_cast<std::size_t>(8 + j) * stride + ownTotal + ((opp >> (8 * j)) & 0xFF)];
    }
    return levelOffset_[static_cast<std::size_t>(seeds)] + r;
  }
  void prefetch(std::uint64_t index) const { __builtin_prefetch(data_ + index); }
  [[nodiscard]] int at(std::uint64_t index) const { return data_[index]; }

 private:
  Egdb() = default;
  struct Mapping;
  Rules rules_;
  int maxSeeds_ = 0;
  int houses_ = 0;
  std::uint64_t count_ = 0;
  HugeBuffer memory_;                  // a built table
  const std::int8_t* data_ = nullptr;  // owned() or the mapping
  [[nodiscard]] std::int8_t* owned() const { return static_cast<std::int8_t*>(memory_.data()); }
  std::unique_ptr<Mapping> mapping_;
  std::vector<std::uint64_t> levelOffset_;  // first index of each seed count
  std::vector<std::uint64_t> levelSize_;    // distributions of each seed count (one block)
  int castleBlocks_ = 1;                    // houses^2 with the castle rule: (mover's, opponent's)
  int winAt_ = 0;                           // a reachable win threshold, else 0
  int total_ = 0;                           // the rules' seed total
  std::vector<std::uint64_t> binom_;        // binom_[n * (2N + 1) + k] = C(n, k)
  // rank()'s term for house j with p seeds in houses 0..j, C(j + p, j + 1), at [row * (K + 1) + p]:
  // row j for the mover's houses, 8 + j - N for the opponent's (index())
  std::vector<std::uint64_t> prefixBinom_;

  static constexpr std::uint64_t kNoIndex = ~std::uint64_t{0};
  void layout();
  [[nodiscard]] std::uint64_t rank(const std::uint8_t* houses, int seeds) const;
  // The mover's stores a live position of `seeds` left can hold: [lo, hi] (lo > hi: none); without
  // a threshold, the single block 0.
  void storeBand(int seeds, int& lo, int& hi) const;
  [[nodiscard]] int storeBlocks(int seeds) const;
  // The entry of any position (mirrored when North moves), or kNoIndex.
  [[nodiscard]] std::uint64_t indexOf(const Position& pos) const;
  [[nodiscard]] Result<void> buildRetrograde(const Board& board);
  [[nodiscard]] int solveAt(const Board& board, const Position& pos, int seeds, int depth);
  friend class EgdbBuilder;
  friend class EgdbRetro;
  friend bool egdbBuildFast(Egdb& db, const Rules& rules, int threads);
};

}  // namespace semis::engine
