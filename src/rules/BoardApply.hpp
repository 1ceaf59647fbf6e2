#pragma once
// The move application templates of Board (included by Board.hpp; not a public header of its own).
// A move is three phases: sow (with relays), capture where the last seed fell, then decide the turn
// and the end of the game. Each phase reports what a player sees to the sink, in order.

#include <bit>

#include "rules/Board.hpp"

namespace semis {

template <class Sink>
int Board::dropAt(Position& pos, int pit, const Sink& sink) const {
  const int owner = castleOwnerOf(pos, pit);
  const int target = owner < 0 ? pit : storePit(static_cast<Side>(owner));
  ++pos.pits[static_cast<std::size_t>(target)];
  sink(Event{EventKind::Drop, static_cast<std::uint8_t>(pit), 1, static_cast<std::uint8_t>(target)});
  return target;
}

template <class Sink>
int Board::sow(Position& pos, int origin, Side mover, const Sink& sink, bool& relayCut) const {
  const auto& next = next_[static_cast<std::size_t>(index(mover))];
  int seeds = pos.pits[static_cast<std::size_t>(origin)];
  pos.pits[static_cast<std::size_t>(origin)] = 0;
  sink(Event{EventKind::Lift, static_cast<std::uint8_t>(origin), static_cast<Seeds>(seeds)});
  int cur = origin;
  if (rules_.sowFrom == SowFrom::Origin && seeds >= 2) {
    dropAt(pos, origin, sink);  // Mangala: the first stone goes back into the house it came from
    --seeds;
  }
  // A lap is one pass over every pit the mover sows into: 2N+1 with a store, 2N without, less the
  // burnt houses (rounds=traditional), which no seed ever enters.
  const long lapPits = 2L * n_ + (rules_.stores && rules_.sowOwnStore ? 1 : 0) - std::popcount(pos.burnt);
  const long dropLimit = rules_.relayLimit * lapPits;
  long drops = 0;
  for (;;) {
    while (seeds > 0) {
      // A round never burns every house of a row, so a pit to sow into is always found.
      do {
        cur = next[static_cast<std::size_t>(cur)];
      } while (isBurnt(pos, cur) || (rules_.skipOrigin && cur == origin));
      dropAt(pos, cur, sink);
      --seeds;
      ++drops;
    }
    if (!rules_.relay || isStore(cur) || pos.pits[static_cast<std::size_t>(cur)] <= 1) break;
    if (drops >= dropLimit) {
      relayCut = true;
      sink(Event{EventKind::RelayCut, static_cast<std::uint8_t>(cur)});
      break;
    }
    seeds = pos.pits[static_cast<std::size_t>(cur)];
    pos.pits[static_cast<std::size_t>(cur)] = 0;
    origin = cur;
    sink(Event{EventKind::Relay, static_cast<std::uint8_t>(cur), static_cast<Seeds>(seeds)});
  }
  return cur;
}

template <class Sink>
void Board::take(Position& pos, int pit, Side to, EventKind kind, const Sink& sink) const {
  const auto count = pos.pits[static_cast<std::size_t>(pit)];
  if (count == 0) return;
  const int store = storePit(to);
  pos.pits[static_cast<std::size_t>(pit)] = 0;
  pos.pits[static_cast<std::size_t>(store)] =
      static_cast<Seeds>(pos.pits[static_cast<std::size_t>(store)] + count);
  sink(Event{kind, static_cast<std::uint8_t>(pit), count, static_cast<std::uint8_t>(store), to});
}

template <class Sink>
int Board::captureChain(Position& pos, int last, Side mover, unsigned rowsBefore, MoveInfo& info,
                        const Sink& sink) const {
  // The last house, if it holds one of chain_values, is taken, then each house before it that does,
  // backwards until one does not: across both rows (Al-manqala, 2 or 4) or along the opponent's row
  // only (Oware, 2 or 3).
  const bool opponentOnly = rules_.chainRows == ChainRows::Opponent;
  const auto takes = [&](int pit) {
    const int c = pos.pits[static_cast<std::size_t>(pit)];
    return c <= kMaxChainValue && ((rules_.chainValues >> c) & 1) != 0 && (!opponentOnly || ownerOf(pit) != mover);
  };
  std::array<std::uint8_t, kMaxPits> chain{};
  int len = 0;
  int pit = last;
  do {
    if (!takes(pit)) break;
    chain[static_cast<std::size_t>(len++)] = static_cast<std::uint8_t>(pit);
    pit = prev_[static_cast<std::size_t>(pit)];
  } while (pit != last);
  if (len == 0) return 0;
  // A grand slam: the chain would take every seed left in a row that held seeds before the move (a
  // starved opponent's row, fed and taken back, is not one: as the reference engine reads it).
  std::array<int, 2> taken{0, 0};
  for (int i = 0; i < len; ++i) {
    taken[static_cast<std::size_t>(index(ownerOf(chain[static_cast<std::size_t>(i)])))] +=
        pos.pits[chain[static_cast<std::size_t>(i)]];
  }
  for (Side s : {Side::South, Side::North}) {
    const int t = taken[static_cast<std::size_t>(index(s))];
    const bool hadSeeds = ((rowsBefore >> index(s)) & 1U) != 0;
    info.grandSlam = info.grandSlam || (hadSeeds && t > 0 && t == rowSeeds(pos, s));
  }
  if (info.grandSlam && rules_.grandSlam != GrandSlam::All) {
    sink(Event{EventKind::GrandSlam, static_cast<std::uint8_t>(last), 0, 0, mover});
    if (rules_.grandSlam == GrandSlam::Nothing) return 0;
  }
  int captured = 0;
  for (int i = 0; i < len; ++i) {
    captured += pos.pits[chain[static_cast<std::size_t>(i)]];
    take(pos, chain[static_cast<std::size_t>(i)], mover, EventKind::Capture, sink);
  }
  return captured;
}

template <class Sink>
void Board::sweep(Position& pos, Side to, Side row, const Sink& sink) const {
  for (int h = 1; h <= n_; ++h) {
    const int pit = housePit(row, h);
    const int castleOwner = castleOwnerOf(pos, pit);
    take(pos, pit, castleOwner < 0 ? to : static_cast<Side>(castleOwner), EventKind::Sweep, sink);
  }
}

template <class Sink>
void Board::finishTurn(Position& pos, Side mover, MoveInfo& info, unsigned emptyAfterSowing, const Sink& sink) const {
  Side next = info.extraTurn ? mover : other(mover);
  if (info.extraTurn) sink(Event{EventKind::ExtraTurn, 0, 0, 0, mover});
  pos.toMove = next;
  auto end = [&] {
    // A finished position has no side to move: keep it canonical so that it equals its parsed string.
    pos.over = true;
    pos.toMove = Side::South;
    sink(Event{EventKind::GameEnd});
  };
  // The game ends and each row's seeds go to its owner (Oware: a player who cannot move or feed).
  auto endToOwners = [&] {
    for (Side row : {Side::South, Side::North}) sweep(pos, row, row, sink);
    end();
  };
  // grand_slam=illegal: a player whose every move would be a grand slam cannot move either.
  const bool slamsBarred = rules_.grandSlam == GrandSlam::Illegal && rules_.chainCapture;
  if (info.grandSlam && rules_.grandSlam == GrandSlam::Opponent) {
    sweep(pos, other(mover), mover, sink);  // the capture stands; the opponent takes every seed left
    return end();
  }
  if (rules_.winAt > 0 && (pos.pits[static_cast<std::size_t>(storePit(Side::South))] >= rules_.winAt ||
                           pos.pits[static_cast<std::size_t>(storePit(Side::North))] >= rules_.winAt)) {
    return end();
  }
  if (rules_.feeding && rules_.unfed == Unfed::Owner) {
    // Oware abapa: nobody passes. A player to move with an empty row (after a grand slam that took
    // all), or who cannot feed his empty opponent, ends the game; the seeds left go to their owner.
    const bool starved = rowSeeds(pos, other(next)) == 0;
    if (rowSeeds(pos, next) == 0 || ((starved || slamsBarred) && legalMask(pos) == 0)) return endToOwners();
    if (starved) sink(Event{EventKind::MustFeed, 0, 0, 0, next});
    return;
  }
  if (rules_.feeding) {
    if (rowSeeds(pos, next) == 0) {
      sink(Event{EventKind::Pass, 0, 0, 0, next});
      info.pass = next != mover;
      next = other(next);
      pos.toMove = next;
      if (rowSeeds(pos, next) == 0) return end();
    }
    if (rowSeeds(pos, other(next)) == 0) {
      bool canFeed = false;
      for (int h = 1; h <= n_ && !canFeed; ++h) canFeed = feeds(pos, h);
      if (!canFeed) {
        sweep(pos, other(next), next, sink);  // the starved player takes every seed left
        return end();
      }
      sink(Event{EventKind::MustFeed, 0, 0, 0, next});
    }
    if (slamsBarred && legalMask(pos) == 0) return endToOwners();
    return;
  }
  const bool southEmpty = rowSeeds(pos, Side::South) == 0;
  const bool northEmpty = rowSeeds(pos, Side::North) == 0;
  Side emptied;
  if (rules_.end == EndRule::Immediate) {
    if (!southEmpty && !northEmpty) {
      if (slamsBarred && legalMask(pos) == 0) endToOwners();
      return;
    }
    emptied = southEmpty ? Side::South : Side::North;
  } else {
    if (rowSeeds(pos, next) != 0) {
      if (slamsBarred && legalMask(pos) == 0) endToOwners();
      return;
    }
    emptied = next;
  }
  // "Emptied by a capture": the row still had seeds after the sowing and the capture took them.
  const bool byCapture = ((emptyAfterSowing >> index(emptied)) & 1U) == 0;
  const bool toEmptier = rules_.leftovers == Leftovers::Emptier && (rules_.emptierByCapture || !byCapture);
  for (Side row : {Side::South, Side::North}) sweep(pos, toEmptier ? emptied : row, row, sink);
  end();
}

template <class Sink>
void Board::sowAndCapture(Position& pos, int house, MoveInfo& info, unsigned& emptyAfterSowing,
                          const Sink& sink) const {
  const Side mover = pos.toMove;
  unsigned rowsBefore = 0;  // bit per side: the row held seeds before the move (for grand slams)
  if (rules_.chainCapture) {
    for (Side s : {Side::South, Side::North}) {
      if (rowSeeds(pos, s) != 0) rowsBefore |= 1U << index(s);
    }
  }
  const int last = sow(pos, housePit(mover, house), mover, sink, info.relayCut);
  // bit per side; only leftovers=emptier,emptier_by_capture=false reads it
  if (rules_.leftovers == Leftovers::Emptier && !rules_.emptierByCapture) {
    for (Side s : {Side::South, Side::North}) {
      if (rowSeeds(pos, s) == 0) emptyAfterSowing |= 1U << index(s);
    }
  }
  if (isStore(last)) {
    info.extraTurn = rules_.extraTurn && last == storePit(mover) && !info.relayCut;
  } else if (!info.relayCut && castleOwnerOf(pos, last) < 0) {
    const int count = pos.pits[static_cast<std::size_t>(last)];
    const int before = pos.pits[static_cast<std::size_t>(storePit(mover))];
    if (ownerOf(last) == mover) {
      const int opp = opposite(last);
      if (rules_.capture != Capture::None && count == 1 &&
          (pos.pits[static_cast<std::size_t>(opp)] > 0 || rules_.capture == Capture::Empty)) {
        take(pos, opp, mover, EventKind::Capture, sink);
        take(pos, last, mover, EventKind::Capture, sink);
      }
    } else if (rules_.evenCapture && count % 2 == 0) {
      take(pos, last, mover, EventKind::Capture, sink);
    } else if (rules_.castle && count == 3 && pos.castle[static_cast<std::size_t>(index(mover))] == kNoCastle &&
               houseNumber(last) != n_) {
      pos.castle[static_cast<std::size_t>(index(mover))] = static_cast<std::int8_t>(last);
      info.castleMade = true;
      sink(Event{EventKind::Castle, static_cast<std::uint8_t>(last), 3, 0, mover});
      if (rules_.castleCapture) take(pos, last, mover, EventKind::Capture, sink);
    }
    info.captured = pos.pits[static_cast<std::size_t>(storePit(mover))] - before;
    if (rules_.chainCapture && pos.pits[static_cast<std::size_t>(last)] != 0) {
      info.captured += captureChain(pos, last, mover, rowsBefore, info, sink);
    }
  }
}

template <class Sink>
MoveInfo Board::apply(Position& pos, int house, const Sink& sink) const {
  const Side mover = pos.toMove;
  MoveInfo info;
  unsigned emptyAfterSowing = 0;
  sowAndCapture(pos, house, info, emptyAfterSowing, sink);
  finishTurn(pos, mover, info, emptyAfterSowing, sink);
  return info;
}

}  // namespace semis
