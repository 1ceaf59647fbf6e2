#include "hub/RoomRows.hpp"

namespace semis::server {

namespace {

Result<room::GameHeader> gameHeader(const store::GameRow& g) {
  auto rules = parseRules(g.rules);
  if (!rules) return fail("game " + g.id + ": " + rules.error().message);
  protocol::GameSpec spec;
  spec.rules = *rules;
  if (g.mode == "friend") {
    spec.mode = protocol::Mode::Friend;
  } else if (g.mode == "local") {
    spec.mode = protocol::Mode::Local;
  } else if (g.mode == "ai") {
    spec.mode = protocol::Mode::Ai;
  } else {
    return fail("game " + g.id + ": unknown mode '" + g.mode + "'");
  }
  spec.level = g.level;
  spec.clock = {g.clockSeconds, g.clockIncrement};
  spec.rated = g.rated;
  return room::GameHeader{g.id, std::move(spec), {g.seatS, g.seatN}, g.status, g.result, g.created, g.updated};
}

Result<room::ActionRecord> actionRecord(const store::MoveRow& m) {
  const auto kind = room::parseActionKind(m.kind);
  if (!kind) return fail("unknown action '" + m.kind + "'");
  return room::ActionRecord{m.seq,    *kind,   m.side == 0 ? Side::South : Side::North, m.house, m.clientId, m.clockS,
                            m.clockN, m.eventN};
}

std::vector<room::EventRecord> eventRecords(const std::vector<store::EventRow>& rows) {
  std::vector<room::EventRecord> out;
  out.reserve(rows.size());
  for (const store::EventRow& e : rows) out.push_back({e.n, e.json});
  return out;
}

}  // namespace

store::GameRow gameRow(const room::GameHeader& h) {
  const protocol::GameSpec& spec = h.spec;
  return store::GameRow{h.id,
                        toString(spec.rules),
                        protocol::modeName(spec.mode),
                        spec.level,
                        spec.clock.seconds,
                        spec.clock.increment,
                        h.seats[0],
                        h.seats[1],
                        h.status,
                        h.result,
                        h.created,
                        h.updated,
                        spec.rated};
}

store::MoveRow moveRow(const room::ActionRecord& a) {
  return store::MoveRow{
      a.seq,   std::string(room::actionKindName(a.kind)), index(a.side), a.house, a.clientId, a.clockS, a.clockN,
      a.eventN};
}

store::Action storeAction(const room::Room& room, const room::Change& change, std::optional<store::GameRow> created,
                          long long at) {
  store::Action action{room.id(), std::nullopt, {}, std::nullopt, std::move(created), at};
  if (change.move) action.move = moveRow(*change.move);
  action.events.reserve(change.events.size());
  for (const room::EventRecord& e : change.events) action.events.push_back({e.n, e.json});
  if (change.gameRow) {
    const auto& seats = room.seats();
    action.update = store::GameUpdate{seats[0].player, seats[1].player, room.status(),
                                      room.over() ? room.resultJson().dump() : std::string()};
  }
  return action;
}

Result<room::GameLog> roomLog(const store::GameLog& log) {
  auto header = gameHeader(log.game);
  if (!header) return tl::unexpected(header.error());
  room::GameLog out{std::move(*header), {}, eventRecords(log.events)};
  out.moves.reserve(log.moves.size());
  for (const store::MoveRow& m : log.moves) {
    auto a = actionRecord(m);
    if (!a) return fail("game " + log.game.id + ": " + a.error().message);
    out.moves.push_back(std::move(*a));
  }
  return out;
}

Result<room::RemoteAction> remoteAction(const store::Action& action) {
  room::RemoteAction out{std::nullopt, eventRecords(action.events), std::nullopt, action.at};
  if (action.move) {
    auto a = actionRecord(*action.move);
    if (!a) return fail("game " + action.game + ": " + a.error().message);
    out.move = std::move(*a);
  }
  if (action.update) out.seats = std::array<std::string, 2>{action.update->seatS, action.update->seatN};
  return out;
}

}  // namespace semis::server
