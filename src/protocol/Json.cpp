#include "protocol/Json.hpp"

namespace semis::protocol {

std::string dumpJson(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string clipUtf8(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return std::string(text);
  std::size_t end = maxBytes;
  // Back off over continuation bytes (10xxxxxx) to the start of the character the cut falls in.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

const char* sideName(Side s) { return s == Side::South ? "S" : "N"; }

Json housesJson(const Board& board, const Position& pos) {
  Json houses = Json::array();
  for (Side s : {Side::South, Side::North}) {
    for (int h = 1; h <= board.houses(); ++h) houses.push_back(pos.pits[static_cast<std::size_t>(board.housePit(s, h))]);
  }
  return houses;
}

Json storesJson(const Board& board, const Position& pos) {
  return Json::array({pos.pits[static_cast<std::size_t>(board.storePit(Side::South))],
                      pos.pits[static_cast<std::size_t>(board.storePit(Side::North))]});
}

Json outcomeJson(const Outcome& o) {
  const char* winner = o.winner == Winner::South ? "S" : o.winner == Winner::North ? "N" : "draw";
  Json j{{"winner", winner}, {"score", Json::array({o.south, o.north})}};
  // Why it ended, when it is not the usual empty row: the clients word the code.
  if (o.cause != EndCause::Rows) j["end"] = endCauseName(o.cause);
  if (o.cause == EndCause::Target) j["target"] = o.target;
  return j;
}

std::string_view endCauseName(EndCause cause) {
  switch (cause) {
    case EndCause::Target: return "target";
    case EndCause::Repetition: return "repetition";
    case EndCause::IdleLimit: return "idle_limit";
    case EndCause::Rows: break;
  }
  return "rows";
}

Json eventJson(const Event& e) {
  Json j{{"kind", std::string(eventName(e.kind))}};
  switch (e.kind) {
    case EventKind::Lift:
    case EventKind::Relay: j["pit"] = e.pit; j["count"] = e.count; break;
    case EventKind::Drop: j["pit"] = e.pit; if (e.target != e.pit) j["to"] = e.target; break;
    case EventKind::RelayCut: j["pit"] = e.pit; break;
    case EventKind::Capture:
    case EventKind::Sweep:
    case EventKind::Split: j["pit"] = e.pit; j["count"] = e.count; j["to"] = e.target; break;
    case EventKind::Castle:
    case EventKind::GrandSlam: j["pit"] = e.pit; j["side"] = sideName(e.side); break;
    case EventKind::ExtraTurn:
    case EventKind::Pass:
    case EventKind::MustFeed: j["side"] = sideName(e.side); break;
    case EventKind::GameEnd: break;
  }
  return j;
}

Json traceJson(const Trace& trace) {
  Json out = Json::array();
  for (const Event& e : trace) out.push_back(eventJson(e));
  return out;
}

Json positionJson(const Board& board, const Position& pos) {
  Json castle = Json::array();
  for (auto c : pos.castle) castle.push_back(c == kNoCastle ? Json(nullptr) : Json(c));
  Json j{{"houses", housesJson(board, pos)},
         {"stores", storesJson(board, pos)},
         {"to_move", pos.over ? Json(nullptr) : Json(sideName(pos.toMove))},
         {"castle", castle}};
  // rounds=traditional: the round's burnt houses, as ring pits (as "castle" names them).
  if (board.rules().rounds == Rounds::Traditional) {
    Json burnt = Json::array();
    for (int pit = 0; pit < board.rules().ringSize(); ++pit) {
      if (Board::isBurnt(pos, pit)) burnt.push_back(pit);
    }
    j["burnt"] = burnt;
  }
  return j;
}

Json replayLine(const Game& game, int ply) {
  const Board& board = game.board();
  const Ply* p = ply > 0 ? &game.plies()[static_cast<std::size_t>(ply - 1)] : nullptr;
  const Position& pos = p != nullptr ? p->after : game.initial();
  Json j{{"ply", ply}};
  if (p != nullptr) {
    j["mover"] = sideName(p->mover);
    j["move"] = p->move;
  }
  j["houses"] = housesJson(board, pos);
  j["stores"] = storesJson(board, pos);
  j["to_move"] = pos.over ? Json(nullptr) : Json(sideName(pos.toMove));
  // A ply that ended its set: the game's result of that set, which also says why it ended.
  const auto& sets = game.setResults();
  const bool known = p != nullptr && p->set >= 1 && static_cast<std::size_t>(p->set) <= sets.size();
  j["result"] = !pos.over ? Json(nullptr)
                : known   ? outcomeJson(sets[static_cast<std::size_t>(p->set - 1)].outcome)
                          : outcomeJson(board.outcome(pos));
  if (game.setCount() > 1) j["set"] = p != nullptr ? p->set : 1;
  return j;
}

}  // namespace semis::protocol
