// The endgame-table builder by retrograde analysis, for rules whose seeds can circulate within a
// level (Al-manqala has no stores on the ring; the castle rule's sowing skips the treasures) or
// whose positions carry more than their houses (castles, stores under a win threshold).
//
// Levels are built bottom-up. A move that takes seeds or ends the game leaves the level, and its
// value is read off a lower level ("exits"); a move that takes nothing keeps every seed on the
// board, so it stays in the level, and such moves may cycle. The table holds the value of the game
// in which play that never leaves the level is a split: value 0 for the mover (docs/engine.md,
// "Endgame tables", says why and how it meets the history rules).
//
// A value v >= t >= 1 for the mover is won by reaching an exit, so for each t the positions whose
// mover reaches t form an attractor: a mover's position joins it when one move does (an exit of
// value >= t or a child in it), the opponent's when every move does. Every position is one node
// but plays both roles, mover ("max") and the mover's opponent ("min": the mover's value <= -t
// then), since a child with the other side to move is seen from the other side. Lowering t from
// the level's seed count to 1 only adds targets, so one pass with counters grows every attractor
// in turn: a position joins at the largest t it can, which is its value (or minus it as "min").
// What never joins has value 0: neither side can force better than the endless split.

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "engine/Egdb.hpp"

namespace semis::engine {

class EgdbRetro {
 public:
  EgdbRetro(Egdb& db, const Board& board) : db_(db), board_(board), n_(board.houses()) {
    // Al-manqala takes only houses of 2 or 4, so from an even total every seed count left and every
    // store a game reaches is even: the odd ones are left out (kUnknown), a quarter of the work.
    const Rules& r = board.rules();
    evenOnly_ = r.chainCapture && (r.chainValues & 0x2AAAAAAA) == 0 && !r.stores && r.capture == Capture::None &&
                !r.evenCapture && !r.castle &&
                r.totalSeeds() % 2 == 0;
  }

  Result<void> level(int s) {
    s_ = s;
    first_ = db_.levelOffset_[static_cast<std::size_t>(s)];
    count_ = db_.levelOffset_[static_cast<std::size_t>(s) + 1] - first_;
    if (count_ == 0 || (evenOnly_ && s % 2 != 0)) return {};
    if (count_ >= (std::uint64_t{1} << 31)) return fail("a level too large for the retrograde builder");
    exitBest_.assign(count_, kNoExit);
    moves_.assign(count_, 0);
    edges_.clear();
    if (auto r = forEach([&](const Position& pos) { return expand(pos); }); !r) return r;
    linkPredecessors();
    propagate();
    std::int8_t* table = db_.owned() + first_;
    for (std::uint64_t i = 0; i < count_; ++i) {
      if (table[i] == kPending) table[i] = 0;  // no finite line settles it: the split
    }
    return {};
  }

 private:
  static constexpr std::int8_t kPending = -127;
  static constexpr int kNoExit = -1000;

  Egdb& db_;
  const Board& board_;
  int n_;
  int s_ = 0;
  bool evenOnly_ = false;
  std::uint64_t first_ = 0;
  std::uint64_t count_ = 0;
  std::vector<std::int16_t> exitBest_;  // the mover's best move that leaves the level
  std::vector<std::uint8_t> moves_;     // same-level moves not yet known to reach the attractor
  std::vector<std::uint64_t> edges_;    // child << 32 | parent << 1 | (the other side moves next)
  std::vector<std::uint32_t> predStart_;
  std::vector<std::uint32_t> preds_;  // parent << 1 | flip, grouped by child

  // Calls f on every position of the level the rules can reach with South to move.
  template <class F>
  Result<void> forEach(F&& f) {
    const Rules& rules = board_.rules();
    int lo = 0;
    int hi = 0;
    db_.storeBand(s_, lo, hi);
    std::uint8_t h[2 * kMaxHouses] = {};
    Result<void> status;
    const int m = 2 * n_;
    for (int castles = 0; castles < db_.castleBlocks_; ++castles) {
      for (int a = lo; a <= hi; ++a) {
        if (evenOnly_ && db_.winAt_ != 0 && a % 2 != 0) continue;
        Position pos;
        if (rules.castle) {
          const int mine = castles / n_;    // on North's row
          const int theirs = castles % n_;  // on South's row
          if (mine != 0) pos.castle[0] = static_cast<std::int8_t>(n_ + mine);
          if (theirs != 0) pos.castle[1] = static_cast<std::int8_t>(theirs - 1);
        }
        if (db_.winAt_ != 0) {
          pos.pits[static_cast<std::size_t>(n_)] = static_cast<Seeds>(a);
          pos.pits[static_cast<std::size_t>(2 * n_ + 1)] = static_cast<Seeds>(db_.total_ - s_ - a);
        }
        auto visit = [&](auto&& self, int i, int rem) -> bool {
          if (i == m - 1) {
            h[i] = static_cast<std::uint8_t>(rem);
            for (int k = 0; k < n_; ++k) {
              pos.pits[static_cast<std::size_t>(k)] = h[k];
              pos.pits[static_cast<std::size_t>(n_ + 1 + k)] = h[n_ + k];
            }
            if (!reachable(pos)) return true;
            status = f(pos);
            return status.has_value();
          }
          for (int c = 0; c <= rem; ++c) {
            h[i] = static_cast<std::uint8_t>(c);
            if (!self(self, i + 1, rem - c)) return false;
          }
          return true;
        };
        if (!visit(visit, 0, s_)) return status;
      }
    }
    return {};
  }

  [[nodiscard]] bool reachable(const Position& pos) const {
    const Rules& rules = board_.rules();
    if (rules.castle && rules.castleCapture) {
      // A castle taken at once stays empty: stones sown into it go to its owner's store.
      for (const std::int8_t c : pos.castle) {
        if (c != kNoCastle && pos.pits[static_cast<std::size_t>(c)] != 0) return false;
      }
    }
    if (!rules.feeding) {
      // The game would have ended (with feeding a player with an empty row passes instead).
      const bool southEmpty = board_.rowSeeds(pos, Side::South) == 0;
      const bool northEmpty = board_.rowSeeds(pos, Side::North) == 0;
      if (southEmpty || (rules.end == EndRule::Immediate && northEmpty)) return false;
    }
    return board_.legalMask(pos) != 0;
  }

  Result<void> expand(const Position& pos) {
    const std::uint64_t self = db_.indexOf(pos);
    if (self < first_ || self - first_ >= count_) return fail("retrograde builder: a position outside its level");
    const auto local = static_cast<std::uint32_t>(self - first_);
    db_.owned()[self] = kPending;
    const int south = board_.storePit(Side::South);
    const int north = board_.storePit(Side::North);
    const int before = pos.pits[static_cast<std::size_t>(south)] - pos.pits[static_cast<std::size_t>(north)];
    int best = kNoExit;
    for (std::uint32_t mv = board_.legalMask(pos); mv != 0; mv &= mv - 1) {
      Position child = pos;
      board_.apply(child, std::countr_zero(mv) + 1);
      const int gained =
          child.pits[static_cast<std::size_t>(south)] - child.pits[static_cast<std::size_t>(north)] - before;
      if (child.over) {
        best = std::max(best, gained);
        continue;
      }
      const std::uint64_t c = db_.indexOf(child);
      if (c == Egdb::kNoIndex) return fail("retrograde builder: a child outside the table");
      const bool flip = child.toMove != Side::South;
      if (c >= first_) {
        // Nothing left the houses, so nothing reached a store either.
        if (gained != 0 || c - first_ >= count_) return fail("retrograde builder: a same-level move changed the stores");
        edges_.push_back((c - first_) << 32 | std::uint64_t{local} << 1 | (flip ? 1U : 0U));
        ++moves_[local];
        continue;
      }
      const int w = db_.owned()[c];
      if (w == Egdb::kUnknown || w == kPending) return fail("retrograde builder: a child the table lacks");
      best = std::max(best, gained + (flip ? -w : w));
    }
    exitBest_[local] = static_cast<std::int16_t>(best);
    return {};
  }

  void linkPredecessors() {
    predStart_.assign(count_ + 1, 0);
    for (const std::uint64_t e : edges_) ++predStart_[(e >> 32) + 1];
    for (std::uint64_t i = 0; i < count_; ++i) predStart_[i + 1] += predStart_[i];
    preds_.assign(edges_.size(), 0);
    std::vector<std::uint32_t> fill(predStart_.begin(), predStart_.end() - 1);
    for (const std::uint64_t e : edges_) preds_[fill[e >> 32]++] = static_cast<std::uint32_t>(e);
    std::vector<std::uint64_t>().swap(edges_);
  }

  // The threshold at which a position joins as "min" once all its same-level moves have: its best
  // exit must be <= -t too (none: at once).
  [[nodiscard]] int minThreshold(std::uint32_t i) const {
    return exitBest_[i] == kNoExit ? s_ + 1 : -exitBest_[i];
  }

  void propagate() {
    // Entries: position << 1 | role (0: its mover reaches t, 1: its mover is held to -t).
    std::vector<std::vector<std::uint32_t>> bucket(static_cast<std::size_t>(s_) + 2);
    auto at = [&](int t) -> std::vector<std::uint32_t>& { return bucket[static_cast<std::size_t>(std::min(t, s_))]; };
    std::int8_t* table = db_.owned() + first_;
    for (std::uint32_t i = 0; i < count_; ++i) {
      if (table[i] != kPending) continue;
      if (exitBest_[i] >= 1) at(exitBest_[i]).push_back(i << 1);
      if (moves_[i] == 0 && minThreshold(i) >= 1) at(minThreshold(i)).push_back(i << 1 | 1U);
    }
    for (int t = s_; t >= 1; --t) {
      auto& queue = bucket[static_cast<std::size_t>(t)];
      for (std::size_t k = 0; k < queue.size(); ++k) {
        const std::uint32_t entry = queue[k];
        const std::uint32_t i = entry >> 1;
        const std::uint32_t role = entry & 1U;
        if (table[i] != kPending) continue;
        table[i] = static_cast<std::int8_t>(role == 0 ? t : -t);
        for (std::uint32_t e = predStart_[i]; e < predStart_[i + 1]; ++e) {
          const std::uint32_t p = preds_[e] >> 1;
          if (table[p] != kPending) continue;
          if ((role ^ (preds_[e] & 1U)) == 0) {
            queue.push_back(p << 1);  // the parent's mover moves into it
          } else if (--moves_[p] == 0) {
            const int th = minThreshold(p);
            if (th >= t) {
              queue.push_back(p << 1 | 1U);
            } else if (th >= 1) {
              at(th).push_back(p << 1 | 1U);
            }
          }
        }
      }
      std::vector<std::uint32_t>().swap(queue);
    }
  }
};

Result<void> Egdb::buildRetrograde(const Board& board) {
  EgdbRetro retro(*this, board);
  for (int s = 0; s <= maxSeeds_; ++s) {
    if (auto r = retro.level(s); !r) return r;
  }
  return {};
}

}  // namespace semis::engine
