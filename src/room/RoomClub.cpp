// Fair play in games between two people (docs/club.md): aborting before both sides have moved, and
// claiming the win from a rated opponent who left. Both are ordinary adjudications: one action row,
// its events, the game row's result; the store's event numbers keep only one of two at once.

#include "room/Room.hpp"

#include <algorithm>

namespace semis::room {

namespace {

tl::unexpected<Refusal> refuse(ErrorCode code, std::string message) {
  return tl::unexpected(Refusal{code, std::move(message), std::nullopt});
}

bool human(const Seat& s) { return !s.player.empty() && s.player != kAiSeat; }

}  // namespace

bool Room::hasPlayed(std::size_t seat) const {
  return std::any_of(actions_.begin(), actions_.end(), [seat](const ActionRecord& m) {
    return static_cast<std::size_t>(index(m.side)) == seat && (m.kind == ActionKind::Move || m.kind == ActionKind::Swap);
  });
}

bool Room::canAbort(std::optional<Side> alsoMoved) const {
  if (over() || spec_.mode == protocol::Mode::Local || !human(seats_[0]) || !human(seats_[1])) return false;
  const auto played = [&](std::size_t seat) {
    return hasPlayed(seat) || (alsoMoved && static_cast<std::size_t>(index(*alsoMoved)) == seat);
  };
  return !(played(0) && played(1));
}

std::optional<TimePoint> Room::noShowAt() const {
  if (over() || !full() || spec_.mode == protocol::Mode::Local || !human(seats_[0]) || !human(seats_[1])) return std::nullopt;
  if (hasPlayed(static_cast<std::size_t>(index(game_->position().toMove)))) return std::nullopt;
  return turnStart_ + std::chrono::milliseconds(noShowDelayMs_);
}

std::optional<TimePoint> Room::deadline() const {
  const auto flag = flagAt();
  const auto noShow = noShowAt();
  if (flag && noShow) return std::min(*flag, *noShow);
  return flag ? flag : noShow;
}

std::optional<Change> Room::expire(TimePoint now) {
  if (auto flagged = flag(now)) return flagged;
  const auto due = noShowAt();
  if (!due || *due > now) return std::nullopt;
  const Side absent = game_->position().toMove;
  auto change = adjudicate(std::nullopt, "aborted", ActionKind::NoShow, absent,
                           Json{{"kind", "aborted"}, {"side", protocol::sideName(absent)}, {"why", "no_show"}}, now);
  return change ? std::optional<Change>(std::move(*change)) : std::nullopt;
}

Outcome<Change> Room::abort(const std::string& who, TimePoint now) {
  auto side = player(who, "abort");
  if (!side) return tl::unexpected(side.error());
  if (!canAbort()) return refuse(ErrorCode::TooLate, "both sides have moved: resign or offer a draw instead");
  return adjudicate(std::nullopt, "aborted", ActionKind::Abort, *side,
                    Json{{"kind", "aborted"}, {"side", protocol::sideName(*side)}}, now);
}

std::optional<long long> Room::claimAt(std::size_t seat) const {
  if (!spec_.rated || over() || seat > 1) return std::nullopt;
  const Seat& s = seats_[seat];
  if (!human(s) || !human(seats_[1 - seat]) || s.connected > 0 || !hasPlayed(seat)) return std::nullopt;
  return (s.awaySinceMs > 0 ? s.awaySinceMs : created_) + claimDelayMs_;
}

Outcome<Change> Room::claim(const std::string& who, long long nowMs, TimePoint now) {
  auto side = player(who, "claim");
  if (!side) return tl::unexpected(side.error());
  if (!spec_.rated) return refuse(ErrorCode::BadMessage, "only a rated game can be claimed");
  const auto opponent = static_cast<std::size_t>(1 - static_cast<int>(index(*side)));
  if (!over() && !hasPlayed(opponent))
    return refuse(ErrorCode::TooEarly, "your opponent has not played yet: the game is aborted if his first move does not come");
  const auto at = claimAt(opponent);
  if (!at) return refuse(ErrorCode::TooEarly, "your opponent is connected");
  if (nowMs < *at) return refuse(ErrorCode::TooEarly, "your opponent may still come back");
  return adjudicate(*side, "left", ActionKind::Claim, *side, Json{{"kind", "claimed"}, {"side", protocol::sideName(*side)}},
                    now);
}

Outcome<Change> Room::forfeit(Side loser, std::string_view why, TimePoint now) {
  if (over()) return refuse(ErrorCode::Stale, "the game is over");
  if (!full()) return refuse(ErrorCode::NotYourTurn, "waiting for an opponent to join");
  return adjudicate(other(loser), "forfeit", ActionKind::Forfeit, loser,
                    Json{{"kind", "forfeited"}, {"side", protocol::sideName(loser)}, {"why", why}}, now);
}

bool Room::renameSeat(const std::string& who, const std::string& name) {
  bool changed = false;
  for (Seat& s : seats_) {
    if (s.player == who && s.name != name) {
      s.name = name;
      changed = true;
    }
  }
  return changed;
}

}  // namespace semis::room
