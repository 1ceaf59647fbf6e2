// Fair play in games between two people (docs/club.md): aborting before both sides have moved, and
// claiming the win from a rated opponent who left. Both are ordinary adjudications: one action row,
// its events, the game row's result; the store's event numbers keep only one of two at once.

#include "room/Room.hpp"

namespace semis::room {

namespace {

tl::unexpected<Refusal> refuse(std::string code, std::string message) {
  return tl::unexpected(Refusal{std::move(code), std::move(message), std::nullopt});
}

bool human(const Seat& s) { return !s.player.empty() && s.player != kAiSeat; }

}  // namespace

bool Room::canAbort(std::optional<Side> alsoMoved) const {
  if (over() || spec_.mode == protocol::Mode::Local || !human(seats_[0]) || !human(seats_[1])) return false;
  std::array<bool, 2> moved{false, false};
  if (alsoMoved) moved[static_cast<std::size_t>(index(*alsoMoved))] = true;
  for (const store::MoveRow& m : actions_) {
    if (m.kind == "move") moved[static_cast<std::size_t>(m.side)] = true;
  }
  return !(moved[0] && moved[1]);
}

Outcome<Change> Room::abort(const std::string& who, TimePoint now) {
  auto side = player(who, "abort");
  if (!side) return tl::unexpected(side.error());
  if (!canAbort()) return refuse("too_late", "both sides have moved: resign or offer a draw instead");
  return adjudicate(std::nullopt, "aborted", "abort", *side,
                    Json{{"kind", "aborted"}, {"side", protocol::sideName(*side)}}, now);
}

std::optional<long long> Room::claimAt(std::size_t seat) const {
  if (!spec_.rated || over() || seat > 1) return std::nullopt;
  const Seat& s = seats_[seat];
  if (!human(s) || !human(seats_[1 - seat]) || s.connected > 0) return std::nullopt;
  return (s.awaySinceMs > 0 ? s.awaySinceMs : created_) + claimDelayMs_;
}

Outcome<Change> Room::claim(const std::string& who, long long nowMs, TimePoint now) {
  auto side = player(who, "claim");
  if (!side) return tl::unexpected(side.error());
  if (!spec_.rated) return refuse("bad_message", "only a rated game can be claimed");
  const auto opponent = static_cast<std::size_t>(1 - static_cast<int>(index(*side)));
  const auto at = claimAt(opponent);
  if (!at) return refuse("too_early", "your opponent is connected");
  if (nowMs < *at) return refuse("too_early", "your opponent may still come back");
  return adjudicate(*side, "left", "claim", *side, Json{{"kind", "claimed"}, {"side", protocol::sideName(*side)}},
                    now);
}

}  // namespace semis::room
