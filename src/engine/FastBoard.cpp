#include "engine/FastBoard.hpp"

namespace semis::engine {

bool FastBoard::supports(const Rules& r) {
  // 2N+2 pits must fit one 16-byte vector, and each row's 8-byte window must stay inside it.
  return r.houses <= 7 && r.stores && r.sowOwnStore && r.sowFrom == SowFrom::Next && !r.skipOrigin && !r.relay &&
         !r.evenCapture && !r.chainCapture && !r.castle && !r.feeding && r.winAt == 0 &&
         r.leftovers == Leftovers::Owner;
}

FastBoard::FastBoard(const Rules& rules)
    : n_(rules.houses),
      ring_(2 * rules.houses + 1),
      extraTurn_(rules.extraTurn),
      captures_(rules.capture != Capture::None),
      captureEmpty_(rules.capture == Capture::Empty),
      endImmediate_(rules.end == EndRule::Immediate),
      rowMask_(n_ >= 8 ? ~0ULL : (1ULL << (8 * n_)) - 1),
      store_{n_, 2 * n_ + 1} {
  const int pits = 2 * n_ + 2;
  auto one = [](int pit) { return static_cast<Pits>(1) << (8 * pit); };
  for (int i = 0; i < 16; ++i) keep_[i] = ~(static_cast<Pits>(0xFF) << (8 * i));
  for (int s = 0; s < 2; ++s) {
    const int skip = store_[1 - s];
    lapMask_[s] = 0;
    for (int p = 0; p < pits; ++p) lapMask_[s] |= p == skip ? 0 : one(p);
    for (int from = 0; from < 16; ++from) {
      for (int rest = 0; rest < 16; ++rest) {
        Pits mask = 0;
        int cur = from;
        for (int k = 0; k < rest && from < pits; ++k) {
          cur = (cur + 1) % pits;
          if (cur == skip) cur = (cur + 1) % pits;
          mask |= one(cur);
        }
        restMask_[s][from][rest] = mask;
        lastPit_[s][from][rest] = static_cast<std::uint8_t>(cur);
      }
    }
  }
  for (int c = 0; c < 256; ++c) lapsOf_[c] = static_cast<std::uint8_t>(c / ring_);
}

FastPos FastBoard::fromPosition(const Position& pos) const {
  FastPos p;
  for (int i = 0; i < 2 * n_ + 2; ++i) {
    if (i != store_[0] && i != store_[1]) p.pits |= static_cast<Pits>(pos.pits[static_cast<std::size_t>(i)]) << (8 * i);
  }
  p.side = pos.toMove == Side::South ? 0 : 1;
  return p;
}

}  // namespace semis::engine
