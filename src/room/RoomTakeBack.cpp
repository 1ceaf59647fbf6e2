// Take back against the computer: a casual game against the AI lets the player undo his own last
// turn and the computer's reply. It is an action like any other (one `takeback` row naming how many
// plies it undid, one event with the position now), so a reload, another instance or a restart
// replays the same game: the moves left, as if the undone ones had never been played.

#include "protocol/GameJson.hpp"
#include "room/Room.hpp"

namespace semis::room {

namespace {

tl::unexpected<Refusal> refuse(std::string code, std::string message) {
  return tl::unexpected(Refusal{std::move(code), std::move(message), std::nullopt});
}

}  // namespace

int Room::takeBackPlies(Side side) const {
  if (over() || spec_.mode != protocol::Mode::Ai || spec_.rated) return 0;
  if (seats_[static_cast<std::size_t>(index(other(side)))].player != kAiSeat) return 0;
  if (game_->position().toMove != side) return 0;
  // From the end of the current set: the computer's reply (its extra turns included), then the
  // player's whole turn before it. A set already decided stays decided.
  const std::vector<Ply>& plies = game_->plies();
  const int set = game_->currentSet();
  std::size_t end = plies.size();
  while (end > 0 && plies[end - 1].set == set && plies[end - 1].mover != side) --end;
  const std::size_t replyStart = end;
  while (end > 0 && plies[end - 1].set == set && plies[end - 1].mover == side) --end;
  if (end == replyStart) return 0;  // no move of his own in this set
  const int n = static_cast<int>(plies.size() - end);
  // Only sowings are undone: a swap or a split among them stops it.
  const auto kept = standing();
  if (kept.size() < static_cast<std::size_t>(n)) return 0;
  for (std::size_t i = kept.size() - static_cast<std::size_t>(n); i < kept.size(); ++i) {
    if (kept[i]->kind != ActionKind::Move) return 0;
  }
  return n;
}

Outcome<Change> Room::takeBack(const std::string& who, TimePoint now) {
  auto side = player(who, "take back a move");
  if (!side) return tl::unexpected(side.error());
  if (spec_.mode != protocol::Mode::Ai || spec_.rated) {
    return refuse("not_allowed", "a move can be taken back only in a casual game against the computer");
  }
  if (game_->position().toMove != *side) return refuse("not_your_turn", "wait for the computer's reply");
  const int n = takeBackPlies(*side);
  if (n == 0) return refuse("nothing_to_take_back", "you have no move to take back in this set");
  const std::size_t si = static_cast<std::size_t>(index(*side));
  // The player's clock goes on from where it is: a take back gives no time back.
  if (clockRunning_) remaining_[si] = clockLeft(*side, now);
  turnStart_ = now;
  drawOffer_.reset();
  ActionRecord row = action(ActionKind::TakeBack, *side, n, "");
  actions_.push_back(row);
  const bool ok = rebuild();
  actions_.pop_back();  // stage() appends it again with its events
  if (!ok) {
    (void)rebuild();
    return refuse("internal", "the moves left do not replay");
  }
  const Board& board = game_->board();
  Json ev{{"kind", "takeback"},
          {"side", std::string(1, sideLetter(*side))},
          {"plies", n},
          {"set", game_->currentSet()},
          {"position", protocol::positionJson(board, game_->position())},
          {"legal", protocol::legalJson(board, game_->position())}};
  if (spec_.clock.enabled()) ev["clock"] = clockJson(now);
  Change change = stage(row, {std::move(ev)}, false);
  lastPositionEvent_ = row.eventN;
  return change;
}

}  // namespace semis::room
