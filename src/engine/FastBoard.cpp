#include "engine/FastBoard.hpp"

namespace semis::engine {

// A byte holds any pit of a supported board: 2 * 7 houses * kMaxSeedsPerHouse seeds never carry.
static_assert(2 * FastBoard::kHouses * kMaxSeedsPerHouse <= 255, "FastBoard's bytes would overflow");

bool FastBoard::supports(const Rules& r) {
  // Each row, the mover's with his store, must fit one 8-byte word, and a pit (a byte) must hold
  // every seed of the game without carrying into the next.
  return r.houses <= kHouses && r.totalSeeds() <= 255 && r.stores && r.sowOwnStore && r.sowFrom == SowFrom::Next &&
         !r.skipOrigin && !r.relay && !r.evenCapture && !r.chainCapture && !r.castle && !r.feeding && r.winAt == 0 &&
         r.leftovers == Leftovers::Owner;
}

FastBoard::FastBoard(const Rules& rules)
    : n_(rules.houses),
      ring_(2 * rules.houses + 1),
      extraTurn_(rules.extraTurn),
      captures_(rules.capture != Capture::None),
      captureEmpty_(rules.capture == Capture::Empty),
      endImmediate_(rules.end == EndRule::Immediate),
      rowMask_((1ULL << (8 * n_)) - 1),
      lapMine_(0x0101010101010101ULL >> (8 * (kHouses - n_))),  // houses and store: the low N+1 bytes
      lapTheirs_(0x0101010101010101ULL & rowMask_) {
  // The ring of a sowing from the mover's view, as ring positions 0..2N: his houses, his store
  // (position N), the opponent's houses.
  for (int from = 0; from < kHouses; ++from) {
    for (int rest = 0; rest <= 2 * kHouses; ++rest) {
      Rest& r = rest_[from][rest];
      r = Rest{0, 0, from};
      if (from >= n_ || rest >= ring_) continue;
      for (int k = 1; k <= rest; ++k) {
        const int at = (from + k) % ring_;
        if (at <= n_) {
          r.mine += 1ULL << (8 * at);
        } else {
          r.theirs += 1ULL << (8 * (at - n_ - 1));
        }
        r.last = at;
      }
    }
  }
  for (int c = 0; c < 256; ++c) lapsOf_[c] = static_cast<std::uint8_t>(c / ring_);
}

FastPos FastBoard::fromPosition(const Position& pos) const {
  FastPos p;
  const int own = pos.toMove == Side::South ? 0 : n_ + 1;
  const int opp = pos.toMove == Side::South ? n_ + 1 : 0;
  for (int i = 0; i < n_; ++i) {
    p.mine |= static_cast<std::uint64_t>(pos.pits[static_cast<std::size_t>(own + i)]) << (8 * i);
    p.theirs |= static_cast<std::uint64_t>(pos.pits[static_cast<std::size_t>(opp + i)]) << (8 * i);
  }
  p.side = pos.toMove == Side::South ? 0 : 1;
  return p;
}

}  // namespace semis::engine
