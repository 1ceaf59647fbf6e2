#include "rules/Game.hpp"

#include <algorithm>

namespace semis {

Game::Game(const Rules& rules)
    : board_(rules),
      // A traditional match of rounds ends when a player cannot fill a house, or after kMaxRounds.
      setCount_(rules.rounds == Rounds::Traditional ? kMaxRounds : rules.sets),
      initial_(board_.start()),
      setStart_(initial_),
      pos_(initial_),
      setFirst_(pos_.toMove) {
  seen_[key(pos_)] = 1;
}

Game::Game(const Rules& rules, const Position& start)
    : board_(rules), setCount_(1), initial_(start), setStart_(start), pos_(start), setFirst_(start.toMove) {
  seen_[key(pos_)] = 1;
  if (pos_.over) sets_.push_back(SetResult{board_.outcome(pos_), false});
}

std::string Game::key(const Position& pos) const {
  // The exact bytes that define the position: a hash collision must never end a game.
  std::string k;
  // Two bytes a pit: a big board's pit may hold more than 255 seeds (kMaxTotalSeeds).
  for (int pit = 0; pit < board_.rules().ringSize(); ++pit) {
    const Seeds c = pos.pits[static_cast<std::size_t>(pit)];
    k += static_cast<char>(c & 0xFF);
    k += static_cast<char>(c >> 8);
  }
  k += static_cast<char>(pos.toMove);
  k += static_cast<char>(pos.castle[0]);
  k += static_cast<char>(pos.castle[1]);
  for (int shift = 0; shift < 32; shift += 8) k += static_cast<char>((pos.burnt >> shift) & 0xFFU);
  return k;
}

Result<const Ply*> Game::play(int house) {
  if (over()) return fail("the game is over: no move is legal");
  Ply ply;
  ply.set = currentSet();
  ply.mover = pos_.toMove;
  ply.move = house;
  Position next = pos_;
  auto info = board_.play(next, house, &ply.trace);
  if (!info) return tl::unexpected(info.error());
  ply.info = *info;
  idle_ = info->captured > 0 ? 0 : idle_ + 1;
  const Rules& r = board_.rules();
  EndCause cause = EndCause::Rows;
  if (!next.over) {
    const int seen = ++seen_[key(next)];
    const bool repeated = r.repetitions > 0 && seen >= r.repetitions;
    if (repeated || (r.idleLimit > 0 && idle_ >= r.idleLimit)) {
      board_.split(next, &ply.trace);
      ply.autoSplit = true;
      cause = repeated ? EndCause::Repetition : EndCause::IdleLimit;
    }
  }
  // A captured count reached the rules' target: the game stops there, seeds still on the board
  // (a starved player's final sweep may pass the target too, but that end is the row's).
  const auto swept = [&] {
    for (const Event& e : ply.trace) {
      if (e.kind == EventKind::Sweep || e.kind == EventKind::Split) return true;
    }
    return false;
  };
  if (next.over && cause == EndCause::Rows && r.winAt > 0 && !swept()) {
    const Outcome o = board_.outcome(next);
    if (std::max(o.south, o.north) >= r.winAt) cause = EndCause::Target;
  }
  pos_ = next;
  ply.after = next;
  ply.setEnded = next.over;
  plies_.push_back(std::move(ply));
  if (next.over) {
    endSet(false);
    // The set's result says why it ended where the position alone cannot tell.
    sets_.back().outcome.cause = cause;
    if (cause == EndCause::Target) sets_.back().outcome.target = r.winAt;
  }
  return &plies_.back();
}

void Game::endSet(bool agreed) {
  sets_.push_back(SetResult{board_.outcome(pos_), agreed});
  if (over()) return;
  // The next set starts afresh; the first player alternates between sets unless the rules say not.
  if (board_.rules().alternateFirst) setFirst_ = other(setFirst_);
  if (board_.rules().rounds == Rounds::Traditional) {
    // The next round starts from the seeds each player won; one who cannot fill a house has lost.
    const std::optional<Position> next = board_.nextRound(pos_, setFirst_);
    if (!next) {
      lastRound_ = true;
      return;
    }
    setStart_ = *next;
  } else {
    setStart_ = board_.start(setFirst_);
  }
  pos_ = setStart_;
  seen_.clear();
  seen_[key(pos_)] = 1;
  idle_ = 0;
}

bool Game::canSwap() const {
  if (!board_.rules().pie || swapped_ || plies_.empty() || currentSet() != 1 || pos_.over) return false;
  // Exactly South's first turn has been played: every ply so far is South's and North is to move.
  for (const Ply& p : plies_) {
    if (p.mover != Side::South) return false;
  }
  return pos_.toMove == Side::North;
}

Result<void> Game::swap() {
  if (!canSwap()) return fail("a swap is allowed only with pie=true, right after South's first turn");
  swapped_ = true;
  return {};
}

Result<void> Game::agreeSplit() {
  if (over()) return fail("the game is over");
  board_.split(pos_);
  endSet(true);
  return {};
}

std::array<int, 2> Game::doubledPoints() const {
  std::array<int, 2> points{0, 0};
  for (const SetResult& s : sets_) {
    if (s.outcome.winner == Winner::Draw) {
      points[0] += 1;
      points[1] += 1;
    } else {
      points[s.outcome.winner == Winner::South ? 0 : 1] += 2;
    }
  }
  return points;
}

std::optional<Winner> Game::matchWinner() const {
  if (!over()) return std::nullopt;
  // Rounds: the last round's winner holds more seeds; he wins the match, whether the loser could
  // not fill a house or the last round allowed was played (docs/rules.md, `congkak`).
  if (board_.rules().rounds == Rounds::Traditional) return sets_.back().outcome.winner;
  const auto p = doubledPoints();
  return p[0] > p[1] ? Winner::South : p[1] > p[0] ? Winner::North : Winner::Draw;
}

}  // namespace semis
