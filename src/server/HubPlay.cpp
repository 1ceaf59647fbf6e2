// The hub's game actions: moves, AI seats, resignation, draws and splits, the pie swap, rematches.

#include <boost/asio/post.hpp>

#include "server/Hub.hpp"
#include "server/Log.hpp"
#include "server/Room.hpp"

namespace semis::server {

namespace {

Json positionJson(const Board& board, const Position& pos) {
  Json castle = Json::array();
  for (auto c : pos.castle) castle.push_back(c == kNoCastle ? Json(nullptr) : Json(c));
  return Json{{"houses", protocol::housesJson(board, pos)},
              {"stores", protocol::storesJson(board, pos)},
              {"to_move", pos.over ? Json(nullptr) : Json(protocol::sideName(pos.toMove))},
              {"castle", castle}};
}

Json legalJson(const Board& board, const Position& pos) {
  Json legal = Json::array();
  const std::uint32_t mask = board.legalMask(pos);
  for (int h = 1; h <= board.houses(); ++h) {
    if (((mask >> (h - 1)) & 1U) != 0) legal.push_back(h);
  }
  return legal;
}

std::string letter(Side s) { return std::string(1, sideLetter(s)); }

}  // namespace

Json hubPositionJson(const Board& board, const Position& pos) { return positionJson(board, pos); }
Json hubLegalJson(const Board& board, const Position& pos) { return legalJson(board, pos); }

std::optional<Side> Hub::seatOf(const Room& room, const std::string& token) const {
  const bool south = room.seat[0] == token;
  const bool north = room.seat[1] == token;
  if (south && north) return room.game->position().toMove;
  if (south) return Side::South;
  if (north) return Side::North;
  return std::nullopt;
}

void Hub::move(Peer& peer, const protocol::ClientMessage& msg) {
  Room* found = find(msg.game);
  if (found == nullptr) return sendError(peer, "not_found", "no game '" + msg.game + "'", msg.id);
  Room& room = *found;
  if (room.over()) return sendError(peer, "game_over", "the game is over", msg.id);
  const auto side = seatOf(room, peer.token());
  if (!side) return sendError(peer, "not_a_player", "you are watching this game: spectators cannot move", msg.id);
  if (!room.full()) return sendError(peer, "not_your_turn", "waiting for an opponent to join", msg.id);
  const Position& pos = room.game->position();
  if (pos.toMove != *side) return sendError(peer, "not_your_turn", "it is the other player's turn", msg.id);
  const std::string key = letter(*side) + msg.id.dump();
  if (auto it = room.moveIds.find(key); it != room.moveIds.end()) {
    metrics_.errors++;
    Json e = protocol::errorMessage(
        "stale", "move id " + msg.id.dump() + " was already played (event " + std::to_string(it->second) + ")", msg.id);
    e["n"] = it->second;
    return peer.send(std::make_shared<const std::string>(e.dump()));
  }
  if (msg.after && *msg.after < room.lastPositionEvent) {
    return sendError(peer, "stale",
                     "the position changed at event " + std::to_string(room.lastPositionEvent) +
                         ": you have seen only up to event " + std::to_string(*msg.after),
                     msg.id);
  }
  if (!room.game->board().isLegal(pos, msg.house)) {
    return sendError(
        peer, "illegal_move",
        "house " + std::to_string(msg.house) + " is not legal; legal: " + room.game->board().legalList(pos), msg.id);
  }
  auto n = applyMove(room, *side, msg.house, msg.id);
  if (!n) return sendError(peer, "internal", "the move could not be saved: " + n.error().message, msg.id);
  peer.send(std::make_shared<const std::string>(Json{{"type", "ack"}, {"id", msg.id}, {"n", *n}}.dump()));
}

Result<long long> Hub::applyMove(Room& room, Side side, int house, const Json& clientId) {
  const auto now = Clock::now();
  const Board& board = room.game->board();
  const std::size_t si = static_cast<std::size_t>(index(side));
  const auto savedRemaining = room.remaining;
  if (room.clockRunning) room.remaining[si] = clockLeft(room, side, now);
  const int setBefore = room.game->currentSet();
  auto played = room.game->play(house);
  if (!played) {
    room.remaining = savedRemaining;
    return tl::unexpected(played.error());
  }
  const Ply& ply = **played;
  const bool over = room.game->over();
  const bool turnPassed = over || ply.setEnded || room.game->position().toMove != side;
  if (room.clockRunning && turnPassed) room.remaining[si] += room.spec.clock.increment * 1000LL;
  const auto savedTurnStart = room.turnStart;
  room.turnStart = now;  // the next turn's time runs from here
  const long long n = static_cast<long long>(room.events.size()) + 1;
  store::MoveRow row{room.id, static_cast<int>(room.actions.size()) + 1,
                     "move",  index(side),
                     house,   clientId.is_null() ? std::string() : clientId.dump(),
                     -1,      -1,
                     n};
  if (room.spec.clock.enabled()) {
    row.clockS = room.remaining[0];
    row.clockN = room.remaining[1];
  }
  std::vector<Json> events;
  Json ev{{"kind", "move"},
          {"side", letter(side)},
          {"house", house},
          {"set", setBefore},
          {"trace", protocol::traceJson(ply.trace)},
          {"position", positionJson(board, room.game->position())},
          {"legal", legalJson(board, room.game->position())}};
  if (ply.setEnded) ev["set_end_position"] = positionJson(board, ply.after);
  if (room.spec.clock.enabled()) ev["clock"] = clockJson(room, now);
  events.push_back(std::move(ev));
  if (ply.setEnded) {
    const Outcome& o = room.game->setResults().back().outcome;
    Json so{{"kind", "set_over"}, {"set", setBefore}, {"result", protocol::outcomeJson(o)}};
    const auto pts = room.game->doubledPoints();
    so["points"] = Json::array({pts[0] / 2.0, pts[1] / 2.0});
    events.push_back(std::move(so));
  }
  if (over) events.push_back(Json{{"kind", "game_over"}, {"result", resultJson(room)}});
  const auto drawOffer = room.drawOffer;
  room.drawOffer.reset();
  if (auto r = commit(room, row, std::move(events), over); !r) {
    room.remaining = savedRemaining;
    room.turnStart = savedTurnStart;
    room.drawOffer = drawOffer;
    rebuild(room);
    return tl::unexpected(r.error());
  }
  if (!clientId.is_null()) room.moveIds[letter(side) + clientId.dump()] = n;
  room.lastPositionEvent = n;
  metrics_.moves++;
  if (over) {
    room.clockRunning = false;
    logInfo("game_over", {{"game", room.id}, {"plies", room.game->plies().size()}});
  }
  maybeAi(room);
  return n;
}

Result<void> Hub::adjudicate(Room& room, std::optional<Side> winner, std::string_view reason, std::string_view kind,
                             Side actor, Json extraEvent) {
  const auto now = Clock::now();
  if (room.clockRunning) {
    const Side toMove = room.game->position().toMove;
    room.remaining[static_cast<std::size_t>(index(toMove))] = std::max(0LL, clockLeft(room, toMove, now));
  }
  room.adjudication = Json{{"winner", winner ? protocol::sideName(*winner) : "draw"}, {"reason", reason}};
  store::MoveRow row{room.id, static_cast<int>(room.actions.size()) + 1,     std::string(kind), index(actor), 0, "", -1,
                     -1,      static_cast<long long>(room.events.size()) + 1};
  if (room.spec.clock.enabled()) {
    row.clockS = room.remaining[0];
    row.clockN = room.remaining[1];
  }
  std::vector<Json> events;
  if (!extraEvent.is_null()) events.push_back(std::move(extraEvent));
  events.push_back(Json{{"kind", "game_over"}, {"result", resultJson(room)}});
  if (auto r = commit(room, row, std::move(events), true); !r) {
    room.adjudication.reset();
    return r;
  }
  room.clockRunning = false;
  room.drawOffer.reset();
  logInfo("game_over", {{"game", room.id}, {"reason", reason}});
  return {};
}

void Hub::resign(Peer& peer, Room& room) {
  if (room.over()) return sendError(peer, "game_over", "the game is over");
  const auto side = seatOf(room, peer.token());
  if (!side) return sendError(peer, "not_a_player", "only a player can resign");
  if (auto r = adjudicate(room, other(*side), "resign", "resign", *side,
                          Json{{"kind", "resigned"}, {"side", letter(*side)}});
      !r) {
    sendError(peer, "internal", r.error().message);
  }
}

void Hub::offerDraw(Peer& peer, Room& room) {
  if (room.over()) return sendError(peer, "game_over", "the game is over");
  const auto side = seatOf(room, peer.token());
  if (!side) return sendError(peer, "not_a_player", "only a player can offer a draw");
  if (!room.full()) return sendError(peer, "not_your_turn", "waiting for an opponent to join");
  if (room.drawOffer) return sendError(peer, "bad_message", "a draw is already offered");
  room.drawOffer = *side;
  (void)commit(room, std::nullopt, {Json{{"kind", "draw_offered"}, {"side", letter(*side)}}}, false);
  if (room.seat[static_cast<std::size_t>(index(other(*side)))] == kAiSeat) {
    // The built-in AI plays on: it declines at once.
    room.drawOffer.reset();
    (void)commit(room, std::nullopt, {Json{{"kind", "draw_declined"}, {"side", letter(other(*side))}}}, false);
  }
}

void Hub::answerDraw(Peer& peer, Room& room, bool accept) {
  if (room.over()) return sendError(peer, "game_over", "the game is over");
  const std::string& token = peer.token();
  if (!seatOf(room, token)) return sendError(peer, "not_a_player", "only a player can answer a draw offer");
  if (!room.drawOffer) return sendError(peer, "stale", "there is no draw offer to answer");
  const Side offerer = *room.drawOffer;
  const Side answerer = other(offerer);
  if (room.seat[static_cast<std::size_t>(index(answerer))] != token) {
    return sendError(peer, "not_your_turn", "the other player answers your offer");
  }
  if (!accept) {
    room.drawOffer.reset();
    (void)commit(room, std::nullopt, {Json{{"kind", "draw_declined"}, {"side", letter(answerer)}}}, false);
    return;
  }
  if (!room.spec.rules.stores) {
    // Al-manqala: the players share the seeds left; the set ends, a match goes on.
    const Board& board = room.game->board();
    const int setBefore = room.game->currentSet();
    if (auto r = room.game->agreeSplit(); !r) return sendError(peer, "bad_message", r.error().message);
    room.drawOffer.reset();
    const bool over = room.game->over();
    const long long n = static_cast<long long>(room.events.size()) + 1;
    store::MoveRow row{room.id, static_cast<int>(room.actions.size()) + 1, "split", index(answerer), 0, "", -1, -1, n};
    if (room.spec.clock.enabled()) {
      row.clockS = room.remaining[0];
      row.clockN = room.remaining[1];
    }
    std::vector<Json> events{Json{{"kind", "split"},
                                  {"set", setBefore},
                                  {"result", protocol::outcomeJson(room.game->setResults().back().outcome)},
                                  {"position", positionJson(board, room.game->position())},
                                  {"legal", legalJson(board, room.game->position())}}};
    if (over) events.push_back(Json{{"kind", "game_over"}, {"result", resultJson(room)}});
    if (auto r = commit(room, row, std::move(events), over); !r) {
      rebuild(room);
      return sendError(peer, "internal", r.error().message);
    }
    room.lastPositionEvent = n;
    if (over)
      room.clockRunning = false;
    else if (room.clockRunning)
      room.turnStart = Clock::now();
    maybeAi(room);
    return;
  }
  if (auto r = adjudicate(room, std::nullopt, "agreement", "draw", answerer, Json{{"kind", "draw_agreed"}}); !r) {
    sendError(peer, "internal", r.error().message);
  }
}

void Hub::swap(Peer& peer, Room& room) {
  if (room.over()) return sendError(peer, "game_over", "the game is over");
  const auto side = seatOf(room, peer.token());
  if (!side) return sendError(peer, "not_a_player", "only a player can swap");
  if (*side != Side::North || !room.game->canSwap()) {
    return sendError(peer, "illegal_move",
                     "a swap is allowed only with pie=true, for North right after South's first turn");
  }
  (void)room.game->swap();
  std::swap(room.seat[0], room.seat[1]);
  std::swap(room.connected[0], room.connected[1]);
  const long long n = static_cast<long long>(room.events.size()) + 1;
  store::MoveRow row{room.id, static_cast<int>(room.actions.size()) + 1, "swap", index(*side), 0, "", -1, -1, n};
  if (auto r = commit(room, row, {Json{{"kind", "swapped"}, {"seats", seatsJson(room)}}}, true); !r) {
    std::swap(room.seat[0], room.seat[1]);
    std::swap(room.connected[0], room.connected[1]);
    rebuild(room);
    return sendError(peer, "internal", r.error().message);
  }
  room.lastPositionEvent = n;
  maybeAi(room);
}

void Hub::rematch(Peer& peer, Room& room) {
  if (!room.over()) return sendError(peer, "bad_message", "a rematch is offered once the game is over");
  const std::string& token = peer.token();
  if (room.seat[0] != token && room.seat[1] != token)
    return sendError(peer, "not_a_player", "only a player can ask for a rematch");
  if (!room.rematchId.empty()) return sendError(peer, "stale", "the rematch is already game " + room.rematchId);
  for (int s = 0; s < 2; ++s) {
    const auto& seat = room.seat[static_cast<std::size_t>(s)];
    if (seat == token || seat == kAiSeat) room.rematchAsked[static_cast<std::size_t>(s)] = true;
  }
  if (!(room.rematchAsked[0] && room.rematchAsked[1])) {
    (void)commit(room, std::nullopt, {Json{{"kind", "rematch_offered"}, {"side", letter(*seatOf(room, token))}}},
                 false);
    return;
  }
  // Sides swapped: the new South is the old North.
  protocol::GameSpec spec = room.spec;
  const std::string newSouth = room.seat[1];
  const std::string newNorth = room.seat[0];
  const std::string creator = newSouth == kAiSeat ? newNorth : newSouth;
  spec.side = newSouth == creator ? "S" : "N";
  auto created = createLocked(creator, spec);
  if (!created) return sendError(peer, "internal", created.error().message);
  const std::string id = (*created)["id"].get<std::string>();
  if (Room* fresh = find(id); fresh != nullptr && spec.mode == protocol::Mode::Friend) {
    fresh->seat = {newSouth, newNorth};
    (void)store_.updateGame(id, fresh->seat[0], fresh->seat[1], status(*fresh), "");
    startClock(*fresh);
    maybeAi(*fresh);
  }
  room.rematchId = id;
  (void)commit(room, std::nullopt, {Json{{"kind", "rematch"}, {"new_game", id}}}, false);
}

void Hub::maybeAi(Room& room) {
  if (room.over() || !room.full() || room.aiThinking || stopping_) return;
  const Side toMove = room.game->position().toMove;
  if (room.seat[static_cast<std::size_t>(index(toMove))] != kAiSeat) return;
  room.aiThinking = true;
  // The search's time budget by level: the stronger levels think longer (a source may stop sooner).
  const std::string& level = room.spec.level;
  const int budgetMs = level == "easy" ? 200 : level == "medium" ? 500 : level == "hard" ? 1000 : 3000;
  MoveRequest request{room.spec.rules, room.game->position(), level, budgetMs};
  const std::size_t plies = room.game->plies().size();
  boost::asio::post(aiPool_, [this, request = std::move(request), id = room.id, plies] {
    const auto start = Clock::now();
    ai_->choose(request, [this, id, plies, start](int house) {
      const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
      aiMoved(id, plies, house, micros);
    });
  });
}

void Hub::aiMoved(const std::string& gameId, std::size_t plies, int house, long long micros) {
  metrics_.aiMicros += micros;
  std::lock_guard lock(mu_);
  Room* room = find(gameId);
  if (room == nullptr) return;
  room->aiThinking = false;
  // The game moved on while the AI thought (a resignation, a flag, a swap): drop the answer.
  if (room->over() || room->game->plies().size() != plies) return maybeAi(*room);
  const Side toMove = room->game->position().toMove;
  if (room->seat[static_cast<std::size_t>(index(toMove))] != kAiSeat) return;
  if (!room->game->board().isLegal(room->game->position(), house)) {
    logWarn("ai_illegal_move", {{"game", gameId}, {"house", house}});
    return;
  }
  metrics_.aiMoves++;
  if (auto r = applyMove(*room, toMove, house, nullptr); !r) logWarn("ai_move_failed", {{"game", gameId}});
}

}  // namespace semis::server
