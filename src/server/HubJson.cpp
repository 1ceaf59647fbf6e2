// The hub's JSON views of a game: the `state` object, seats, result, clock, and the game record.

#include "rules/Notation.hpp"
#include "server/Hub.hpp"
#include "server/Room.hpp"

namespace semis::server {

Json hubPositionJson(const Board& board, const Position& pos);
Json hubLegalJson(const Board& board, const Position& pos);

Json Hub::seatsJson(const Room& room) const {
  Json seats = Json::object();
  for (Side s : {Side::South, Side::North}) {
    const std::size_t i = static_cast<std::size_t>(index(s));
    const std::string& seat = room.seat[i];
    Json j;
    if (seat.empty()) {
      j = Json{{"name", nullptr}, {"kind", "free"}, {"connected", false}};
    } else if (seat == kAiSeat) {
      j = Json{
          {"name", "AI (" + room.spec.level + ")"}, {"kind", "ai"}, {"level", room.spec.level}, {"connected", true}};
    } else {
      auto it = players_.find(seat);
      j = Json{{"name", playerName(seat)},
               {"kind", "human"},
               {"id", it != players_.end() ? it->second.id : ""},
               {"connected", room.connected[i] > 0}};
    }
    seats[protocol::sideName(s)] = j;
  }
  return seats;
}

Json Hub::resultJson(const Room& room) const {
  if (!room.over()) return nullptr;
  const auto pts = room.game->doubledPoints();
  Json points = Json::array({pts[0] / 2.0, pts[1] / 2.0});
  if (room.adjudication) {
    Json j = *room.adjudication;
    j["points"] = points;
    return j;
  }
  const Game& g = *room.game;
  Json j = protocol::outcomeJson(g.setResults().back().outcome);
  if (g.setCount() > 1) {
    const auto w = g.matchWinner();
    j["winner"] = !w || *w == Winner::Draw ? "draw" : *w == Winner::South ? "S" : "N";
  }
  j["reason"] = g.setResults().back().agreedSplit ? "split" : "normal";
  j["points"] = points;
  return j;
}

Json Hub::clockJson(const Room& room, Clock::time_point now) const {
  if (!room.spec.clock.enabled()) return nullptr;
  return Json{{"S", std::max(0LL, clockLeft(room, Side::South, now))},
              {"N", std::max(0LL, clockLeft(room, Side::North, now))},
              {"running", room.clockRunning && !room.over()},
              {"seconds", room.spec.clock.seconds},
              {"increment", room.spec.clock.increment}};
}

Json Hub::stateJson(const Room& room, const std::string& token) const {
  const Game& g = *room.game;
  const Board& board = g.board();
  std::string you = "spectator";
  if (room.seat[0] == token && room.seat[1] == token)
    you = "both";
  else if (room.seat[0] == token)
    you = "S";
  else if (room.seat[1] == token)
    you = "N";
  Json plies = Json::array();
  for (const Ply& p : g.plies())
    plies.push_back(Json{{"mover", protocol::sideName(p.mover)}, {"move", p.move}, {"set", p.set}});
  const auto pts = g.doubledPoints();
  Json sets = Json::array();
  for (const SetResult& s : g.setResults()) sets.push_back(protocol::outcomeJson(s.outcome));
  return Json{{"id", room.id},
              {"rules", room.rulesText},
              {"mode", protocol::modeName(room.spec.mode)},
              {"houses_per_side", board.houses()},
              {"seats", seatsJson(room)},
              {"you", you},
              {"position", hubPositionJson(board, g.position())},
              {"legal", room.over() ? Json::array() : hubLegalJson(board, g.position())},
              {"status", status(room)},
              {"result", resultJson(room)},
              {"set", g.currentSet()},
              {"sets", g.setCount()},
              {"set_results", sets},
              {"points", Json::array({pts[0] / 2.0, pts[1] / 2.0})},
              {"clock", clockJson(room)},
              {"can_swap", !room.over() && g.canSwap()},
              {"draw_offer", room.drawOffer ? Json(protocol::sideName(*room.drawOffer)) : Json(nullptr)},
              {"rematch", room.rematchId.empty() ? Json(nullptr) : Json(room.rematchId)},
              {"spectators", room.watchers.size()},
              {"plies", plies},
              {"last_event", room.events.size()}};
}

std::optional<std::string> Hub::record(const std::string& gameId) {
  std::lock_guard lock(mu_);
  Room* room = find(gameId);
  if (room == nullptr) return std::nullopt;
  Record rec{{}, *room->game, ""};
  for (Side s : {Side::South, Side::North}) {
    const std::string& seat = room->seat[static_cast<std::size_t>(index(s))];
    rec.tags.emplace_back(s == Side::South ? "South" : "North", seat == kAiSeat ? "AI (" + room->spec.level + ")"
                                                                : seat.empty()  ? "?"
                                                                                : playerName(seat));
  }
  if (room->adjudication) {
    const std::string w = (*room->adjudication)["winner"].get<std::string>();
    rec.adjudicated = w == "S" ? "1-0" : w == "N" ? "0-1" : "1/2-1/2";
  }
  return printRecord(rec);
}

}  // namespace semis::server
