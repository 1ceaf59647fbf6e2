// A room and its stored log: rebuilt from it (a load, a reload), written back as a log, and
// following the actions another instance stored (docs/scaling.md).

#include <algorithm>

#include "room/Room.hpp"

namespace semis::room {

Result<std::unique_ptr<Room>> Room::fromLog(const GameLog& log, std::array<std::string, 2> names, TimePoint now,
                                            long long sinceLastMs) {
  const GameHeader& g = log.game;
  auto room = std::make_unique<Room>(g.id, g.spec, g.created);
  // Loaded now: a player not (yet) counted connected gets the whole claim delay from now.
  const long long loadedMs = g.updated + std::max(0LL, sinceLastMs);
  room->seats_[0] = {g.seats[0], std::move(names[0]), 0, loadedMs};
  room->seats_[1] = {g.seats[1], std::move(names[1]), 0, loadedMs};
  room->actions_ = log.moves;
  if (!room->rebuild()) return fail("game " + g.id + ": its stored actions do not replay");
  for (const ActionRecord& m : room->actions_) room->noteAction(m);
  for (const EventRecord& e : log.events) room->absorb(e.json);
  room->startClock(now - std::chrono::milliseconds(std::max(0LL, sinceLastMs)));
  return room;
}

Outcome<void> Room::follow(const RemoteAction& action, const std::array<std::string, 2>& names, TimePoint now,
                           long long sinceLastMs) {
  if (action.events.empty() || action.events.front().n != lastEvent() + 1)
    return tl::unexpected(Refusal{ErrorCode::Stale, "not the next action of this game", lastEvent()});
  if (action.seats) {
    for (std::size_t s = 0; s < 2; ++s) {
      const std::string& holder = (*action.seats)[s];
      if (seats_[s].player != holder) seats_[s] = {holder, names[s], 0, action.at};
    }
  }
  if (action.move) {
    actions_.push_back(*action.move);
    if (!replay(*action.move)) return tl::unexpected(Refusal{ErrorCode::Internal, "the action does not replay here", {}});
    noteAction(*action.move);
  }
  for (const EventRecord& e : action.events) absorb(e.json);
  clockRunning_ = false;
  startClock(now - std::chrono::milliseconds(std::max(0LL, sinceLastMs)));
  return {};
}

GameLog Room::log() const {
  GameLog out{header(), actions_, {}};
  out.events.reserve(events_.size());
  for (std::size_t i = 0; i < events_.size(); ++i) out.events.push_back({static_cast<long long>(i + 1), *events_[i]});
  return out;
}

std::vector<const ActionRecord*> Room::standing(bool* whole) const {
  std::vector<const ActionRecord*> kept;
  for (const ActionRecord& m : actions_) {
    if (m.kind != ActionKind::TakeBack) {
      kept.push_back(&m);
      continue;
    }
    for (int i = 0; i < m.house; ++i) {
      if (kept.empty() || kept.back()->kind != ActionKind::Move) {
        if (whole != nullptr) *whole = false;  // a take back of more than was played: a damaged log
        break;
      }
      kept.pop_back();
    }
  }
  return kept;
}

bool Room::rebuild() {
  game_ = std::make_unique<Game>(spec_.rules);
  adjudication_.reset();
  bool ok = true;
  for (const ActionRecord* m : standing(&ok)) ok = replayOne(*m) && ok;
  return ok;
}

bool Room::replay(const ActionRecord& m) {
  // A take back undoes plies: the game is replayed from its start without them (a few hundred
  // sowings at most, far less than one AI move).
  if (m.kind == ActionKind::TakeBack) return rebuild();
  return replayOne(m);
}

bool Room::replayOne(const ActionRecord& m) {
  const Side side = m.side;
  switch (m.kind) {
    case ActionKind::Move:
      return game_->play(m.house).has_value();
    case ActionKind::Swap:
      return game_->swap().has_value();
    case ActionKind::Split:
      return game_->agreeSplit().has_value();
    case ActionKind::Resign:
    case ActionKind::Timeout:
      adjudication_ = Json{{"winner", protocol::sideName(other(side))},
                           {"reason", m.kind == ActionKind::Resign ? "resign" : "time"}};
      return true;
    case ActionKind::Draw:
      adjudication_ = Json{{"winner", "draw"}, {"reason", "agreement"}};
      return true;
    case ActionKind::Abort:
    case ActionKind::NoShow:
      adjudication_ = Json{{"winner", "draw"}, {"reason", "aborted"}};
      return true;
    case ActionKind::Claim:
      adjudication_ = Json{{"winner", protocol::sideName(side)}, {"reason", "left"}};
      return true;
    case ActionKind::Forfeit:
      adjudication_ = Json{{"winner", protocol::sideName(other(side))}, {"reason", "forfeit"}};
      return true;
    case ActionKind::TakeBack:
      return true;  // standing() left out the moves it undid
  }
  return false;
}

void Room::noteAction(const ActionRecord& m) {
  if (m.kind == ActionKind::Move && !m.clientId.empty()) {
    const std::string& holder = seats_[static_cast<std::size_t>(index(m.side))].player;
    moveIds_[holder + '\n' + m.clientId] = m.eventN;
  }
  if (m.kind == ActionKind::Move || m.kind == ActionKind::Swap || m.kind == ActionKind::Split ||
      m.kind == ActionKind::TakeBack)
    lastPositionEvent_ = std::max(lastPositionEvent_, m.eventN);
  if (m.clockS >= 0) remaining_ = {m.clockS, m.clockN};
}

void Room::absorb(const std::string& eventJson) {
  events_.push_back(std::make_shared<const std::string>(eventJson));
  // Asked rematches and pending draw offers are not actions: they live in the events.
  Json j = Json::parse(eventJson, nullptr, false);
  if (j.is_discarded() || !j.contains("event")) return;
  const std::string kind = j["event"].value("kind", "");
  const std::string side = j["event"].value("side", "");
  if (kind == "draw_offered") drawOffer_ = side == "S" ? Side::South : Side::North;
  if (kind == "draw_declined" || kind == "draw_agreed" || kind == "split" || kind == "move") drawOffer_.reset();
  if (kind == "rematch_offered") rematchAsked_[side == "S" ? 0 : 1] = true;
  if (kind == "rematch") rematchId_ = j["event"].value("new_game", "");
}

}  // namespace semis::room
