// The room's JSON views: the `state` object, seats, result, clock, the live list's line, and the
// game record.

#include "protocol/GameJson.hpp"
#include "room/Room.hpp"
#include "rules/Notation.hpp"

namespace semis::room {

Json Room::seatsJson() const {
  Json seats = Json::object();
  for (Side s : {Side::South, Side::North}) {
    const Seat& seat = seats_[static_cast<std::size_t>(index(s))];
    Json j;
    if (seat.player.empty()) {
      j = Json{{"name", nullptr}, {"kind", "free"}, {"connected", false}};
    } else if (seat.player == kAiSeat) {
      j = Json{{"name", "Computer (" + spec_.level + ")"}, {"kind", "ai"}, {"level", spec_.level}, {"connected", true}};
    } else {
      j = Json{{"name", seat.name}, {"kind", "human"}, {"id", seat.player}, {"connected", seat.connected > 0}};
      if (spec_.rated) {
        const auto at = claimAt(static_cast<std::size_t>(index(s)));
        j["claim_at"] = at ? Json(*at) : Json(nullptr);
      }
    }
    seats[protocol::sideName(s)] = j;
  }
  return seats;
}

Json Room::resultJson() const {
  if (!over()) return nullptr;
  Json points = protocol::pointsJson(*game_);
  if (adjudication_) {
    Json j = *adjudication_;
    j["points"] = points;
    return j;
  }
  const Game& g = *game_;
  Json j = protocol::outcomeJson(g.setResults().back().outcome);
  if (g.setCount() > 1) {
    j["winner"] = protocol::matchWinnerName(g);
  }
  j["reason"] = g.setResults().back().agreedSplit ? "split" : "normal";
  j["points"] = points;
  return j;
}

Json Room::clockJson(TimePoint now) const {
  if (!spec_.clock.enabled()) return nullptr;
  return Json{{"S", std::max(0LL, clockLeft(Side::South, now))},
              {"N", std::max(0LL, clockLeft(Side::North, now))},
              {"running", clockRunning_ && !over()},
              {"seconds", spec_.clock.seconds},
              {"increment", spec_.clock.increment}};
}

Json Room::stateJson(const std::string& player, std::size_t spectators, TimePoint now) const {
  const Game& g = *game_;
  const Board& board = g.board();
  const bool south = !player.empty() && seats_[0].player == player;
  const bool north = !player.empty() && seats_[1].player == player;
  // (one initialization: GCC 12 warns falsely, -Wrestrict, on assigning short literals)
  const char* you = south && north ? "both" : south ? "S" : north ? "N" : "spectator";
  return Json{{"id", id_},
              {"rules", rulesText_},
              {"mode", protocol::modeName(spec_.mode)},
              {"houses_per_side", board.houses()},
              {"seats", seatsJson()},
              {"you", you},
              {"position", protocol::positionJson(board, g.position())},
              {"legal", over() ? Json::array() : protocol::legalJson(board, g.position())},
              {"status", status()},
              {"result", resultJson()},
              {"set", g.currentSet()},
              {"sets", g.setCount()},
              {"set_results", protocol::setResultsJson(g)},
              {"points", protocol::pointsJson(g)},
              {"clock", clockJson(now)},
              {"can_swap", !over() && g.canSwap()},
              {"can_abort", canAbort()},
              {"can_take_back", south != north && takeBackPlies(south ? Side::South : Side::North) > 0},
              {"rated", spec_.rated},
              {"draw_offer", drawOffer_ ? Json(protocol::sideName(*drawOffer_)) : Json(nullptr)},
              {"rematch", rematchId_.empty() ? Json(nullptr) : Json(rematchId_)},
              {"rematch_asked", Json::array({rematchAsked_[0], rematchAsked_[1]})},
              {"spectators", spectators},
              {"plies", protocol::pliesJson(g)},
              {"last_event", events_.size()}};
}

Json Room::summaryJson(std::size_t spectators) const {
  return Json{{"id", id_},
              {"rules", rulesText_},
              {"mode", protocol::modeName(spec_.mode)},
              {"seats", seatsJson()},
              {"status", status()},
              {"plies", game_->plies().size()},
              {"spectators", spectators}};
}

std::string Room::record() const {
  Record rec{{}, *game_, ""};
  for (Side s : {Side::South, Side::North}) {
    const Seat& seat = seats_[static_cast<std::size_t>(index(s))];
    rec.tags.emplace_back(s == Side::South ? "South" : "North", seat.player == kAiSeat ? "Computer (" + spec_.level + ")"
                                                                : seat.player.empty()  ? "?"
                                                                                       : seat.name);
  }
  if (adjudication_) {
    const std::string w = (*adjudication_)["winner"].get<std::string>();
    rec.adjudicated = w == "S" ? "1-0" : w == "N" ? "0-1" : "1/2-1/2";
  }
  return printRecord(rec);
}

}  // namespace semis::room
