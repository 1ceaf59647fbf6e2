// The endgame-table builder for the Kalah family (FastBoard::supports), level by level.
//
// A move either banks seeds (a store sowing, a capture, the end of the game: a lower level, already
// complete) or keeps every seed in the mover's row (the same level). Same-level moves only carry
// seeds towards the mover's store, so they cannot cycle: a position's same-level children are
// solved first, depth-first, and every other child is one table read. Each position's children are
// ranked first and read after, so their memory accesses overlap instead of queueing.

#include <algorithm>
#include <bit>

#include "engine/Egdb.hpp"
#include "engine/FastBoard.hpp"

namespace semis::engine {

class EgdbBuilder {
 public:
  EgdbBuilder(Egdb& db, const Rules& rules) : db_(db), fast_(rules), n_(rules.houses), m_(2 * rules.houses) {}

  // Fills db_.owned_ (already kUnknown everywhere); false if the positions of a level cycle.
  bool run() {
    for (int s = 1; s <= db_.maxSeeds_; ++s) {
      int h[2 * kMaxHouses] = {};
      h[m_ - 1] = s;
      // Every distribution of s seeds over the 2N houses, mover's row first.
      for (;;) {
        if (!visit(h, s)) return false;
        if (!nextComposition(h, s)) break;
      }
    }
    return true;
  }

 private:
  static constexpr int kInProgress = -127;

  // Compositions in lexicographic order of (h[0], ..., h[m-2]); h[m-1] takes the rest.
  bool nextComposition(int* h, int s) const {
    int sum = 0;
    for (int i = 0; i < m_ - 1; ++i) sum += h[i];
    // Increment the last of h[0..m-2] that can grow, zeroing what follows it.
    for (int i = m_ - 2; i >= 0; --i) {
      if (sum < s) {
        ++h[i];
        h[m_ - 1] = s - sum - 1;
        return true;
      }
      sum -= h[i];
      h[i] = 0;
    }
    return false;
  }

  bool visit(const int* h, int s) {
    FastPos p;
    int mine = 0;
    int theirs = 0;
    for (int i = 0; i < n_; ++i) {
      p.pits |= static_cast<Pits>(h[i]) << (8 * i);
      p.pits |= static_cast<Pits>(h[n_ + i]) << (8 * (n_ + 1 + i));
      mine += h[i];
      theirs += h[n_ + i];
    }
    // Positions the rules never reach with South to move keep kUnknown.
    if (mine == 0 || (db_.rules_.end == EndRule::Immediate && theirs == 0)) return true;
    return solve(p, s) != kInProgress;
  }

  std::uint64_t rankOf(const FastPos& p, int seeds) const {
    std::uint64_t rows[2] = {fast_.row(p, p.side), fast_.row(p, 1 - p.side)};
    std::uint64_t r = 0;
    int prefix = 0;
    const auto* binom = db_.binom_.data();
    for (int j = 0; j < m_ - 1; ++j) {
      prefix += static_cast<int>((rows[j >= n_ ? 1 : 0] >> (8 * (j >= n_ ? j - n_ : j))) & 0xFF);
      r += binom[(j + prefix) * (m_ + 1) + j + 1];
    }
    return db_.levelOffset_[static_cast<std::size_t>(seeds)] + r;
  }

  // The value of p (seeds in the houses, the side to move as in p) for its mover.
  int solve(const FastPos& p, int seeds) {
    std::int8_t* data = db_.owned_;
    const std::uint64_t self = rankOf(p, seeds);
    if (data[self] == kInProgress) return kInProgress;
    if (data[self] != Egdb::kUnknown) return data[self];
    data[self] = static_cast<std::int8_t>(kInProgress);
    FastPos kids[kMaxHouses];
    FastMove moves[kMaxHouses];
    std::uint64_t at[kMaxHouses];
    int n = 0;
    for (std::uint32_t m = fast_.legalMask(p); m != 0; m &= m - 1) {
      kids[n] = p;
      fast_.play(kids[n], std::countr_zero(m) + 1, moves[n]);
      if (!moves[n].over) {
        at[n] = rankOf(kids[n], moves[n].left);
        __builtin_prefetch(data + at[n]);
      }
      ++n;
    }
    int best = -1000;
    for (int i = 0; i < n; ++i) {
      const FastMove& mv = moves[i];
      int v = mv.gain;
      if (!mv.over) {
        int w = data[at[i]];
        if (w == Egdb::kUnknown && mv.left == seeds) w = solve(kids[i], seeds);
        if (w == kInProgress || w == Egdb::kUnknown) {
          data[self] = static_cast<std::int8_t>(Egdb::kUnknown);
          return kInProgress;
        }
        v += mv.extra ? w : -w;
      }
      best = std::max(best, v);
    }
    data[self] = static_cast<std::int8_t>(best);
    return best;
  }

  Egdb& db_;
  FastBoard fast_;
  int n_;
  int m_;
};

bool egdbBuildFast(Egdb& db, const Rules& rules) { return EgdbBuilder(db, rules).run(); }

}  // namespace semis::engine
