// The room's transitions. Each checks everything first and refuses without a change; once it
// changes the room it stages the action row and the numbered events for the hub to store.

#include "room/Room.hpp"

#include <algorithm>

#include "protocol/GameJson.hpp"

namespace semis::room {

namespace {

std::string letter(Side s) { return std::string(1, sideLetter(s)); }

tl::unexpected<Refusal> refuse(std::string code, std::string message, std::optional<long long> n = std::nullopt) {
  return tl::unexpected(Refusal{std::move(code), std::move(message), n});
}

using protocol::legalJson;
using protocol::positionJson;

long long ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

struct Room::Saved {
  std::size_t actions = 0;
  std::size_t events = 0;
  std::array<Seat, 2> seats;
  std::optional<Json> adjudication;
  std::optional<Side> drawOffer;
  std::array<bool, 2> rematchAsked{};
  std::string rematchId;
  long long lastPositionEvent = 0;
  std::array<long long, 2> remaining{};
  TimePoint turnStart{};
  bool clockRunning = false;
};

Room::Room(std::string id, protocol::GameSpec spec, long long createdMs)
    : id_(std::move(id)), spec_(std::move(spec)), rulesText_(toString(spec_.rules)), created_(createdMs) {
  game_ = std::make_unique<Game>(spec_.rules);
  const long long full = spec_.clock.seconds * 1000LL;
  remaining_ = {full, full};
}

void Room::seatPlayers(std::array<Seat, 2> seats, TimePoint now) {
  seats_ = std::move(seats);
  for (Seat& s : seats_) s.awaySinceMs = created_;  // a player who never comes is away from the start
  startClock(now);
}

GameHeader Room::header() const {
  return GameHeader{id_, spec_, {seats_[0].player, seats_[1].player}, status(),
                    over() ? resultJson().dump() : std::string(), created_, created_};
}

std::string Room::status() const {
  if (over()) return "over";
  return full() ? "playing" : "waiting";
}

std::optional<Side> Room::seatOf(const std::string& player) const {
  if (player.empty() || player == kAiSeat) return std::nullopt;
  const bool south = seats_[0].player == player;
  const bool north = seats_[1].player == player;
  if (south && north) return game_->position().toMove;
  if (south) return Side::South;
  if (north) return Side::North;
  return std::nullopt;
}

bool Room::holdsSeat(const std::string& player) const { return seatOf(player).has_value(); }

Outcome<Side> Room::player(const std::string& player, const char* what) const {
  if (over()) return refuse("game_over", "the game is over");
  const auto side = seatOf(player);
  if (!side) return refuse("not_a_player", std::string("only a player can ") + what);
  return *side;
}

ActionRecord Room::action(ActionKind kind, Side side, int house, const std::string& clientId) const {
  ActionRecord row{static_cast<int>(actions_.size()) + 1, kind, side, house, clientId,
                   -1, -1, static_cast<long long>(events_.size()) + 1};
  if (spec_.clock.enabled()) {
    row.clockS = remaining_[0];
    row.clockN = remaining_[1];
  }
  return row;
}

Change Room::stage(std::optional<ActionRecord> move, std::vector<Json> events, bool gameRow) {
  Change change;
  long long n = static_cast<long long>(events_.size());
  for (Json& e : events) {
    Json msg{{"type", "event"}, {"game", id_}, {"n", ++n}, {"event", std::move(e)}};
    change.events.push_back({n, msg.dump(-1, ' ', false, Json::error_handler_t::replace)});
  }
  for (const auto& e : change.events) events_.push_back(std::make_shared<const std::string>(e.json));
  if (move) actions_.push_back(*move);
  change.move = std::move(move);
  change.gameRow = gameRow;
  return change;
}

std::shared_ptr<Room::Saved> Room::save() const {
  return std::make_shared<Saved>(Saved{actions_.size(), events_.size(), seats_, adjudication_, drawOffer_,
                                       rematchAsked_, rematchId_, lastPositionEvent_, remaining_, turnStart_,
                                       clockRunning_});
}

void Room::restore(const Saved& s) {
  const bool replay = actions_.size() != s.actions || seats_[0].player != s.seats[0].player;
  actions_.resize(std::min(actions_.size(), s.actions));
  events_.resize(std::min(events_.size(), s.events));
  const auto connected = std::array<int, 2>{seats_[0].connected, seats_[1].connected};
  const bool swappedBack = seats_[0].player != s.seats[0].player;
  seats_ = s.seats;
  seats_[0].connected = swappedBack ? connected[1] : connected[0];
  seats_[1].connected = swappedBack ? connected[0] : connected[1];
  drawOffer_ = s.drawOffer;
  rematchAsked_ = s.rematchAsked;
  rematchId_ = s.rematchId;
  lastPositionEvent_ = s.lastPositionEvent;
  remaining_ = s.remaining;
  turnStart_ = s.turnStart;
  clockRunning_ = s.clockRunning;
  for (auto it = moveIds_.begin(); it != moveIds_.end();) {
    it = it->second > static_cast<long long>(s.events) ? moveIds_.erase(it) : std::next(it);
  }
  if (replay) (void)rebuild();  // the saved actions replayed before: they still do
  adjudication_ = s.adjudication;
}

void Room::startClock(TimePoint now) {
  if (over() || !full()) return;
  turnStart_ = now;  // the side to move's turn began: his clock runs, his first move is due
  if (spec_.clock.enabled()) clockRunning_ = true;
}

long long Room::clockLeft(Side s, TimePoint now) const {
  long long left = remaining_[static_cast<std::size_t>(index(s))];
  if (clockRunning_ && game_->position().toMove == s) left -= ms(now - turnStart_);
  return left;
}

std::optional<TimePoint> Room::flagAt() const {
  if (!clockRunning_ || over()) return std::nullopt;
  return turnStart_ + std::chrono::milliseconds(remaining_[static_cast<std::size_t>(index(game_->position().toMove))]);
}

Outcome<Change> Room::take(const std::string& player, const std::string& name, TimePoint now) {
  if (holdsSeat(player)) return refuse("stale", "you already hold a seat in this game");
  if (over() || spec_.mode != protocol::Mode::Friend || full()) return refuse("not_a_player", "no free seat");
  const Side free = seats_[0].player.empty() ? Side::South : Side::North;
  seats_[static_cast<std::size_t>(index(free))] = {player, name, 0};
  startClock(now);
  return stage(std::nullopt, {Json{{"kind", "joined"}, {"side", letter(free)}, {"name", name}}}, true);
}

Outcome<Change> Room::move(const std::string& player, int house, const Json& clientId, std::optional<long long> after,
                           TimePoint now) {
  if (over()) return refuse("game_over", "the game is over");
  const auto side = seatOf(player);
  if (!side) return refuse("not_a_player", "you are watching this game: spectators cannot move");
  // A replayed id is answered before the turn is checked: the move it names was played already.
  const std::string key = player + '\n' + clientId.dump();
  if (auto it = moveIds_.find(key); it != moveIds_.end()) {
    return refuse("stale", "move id " + clientId.dump() + " was already played (event " + std::to_string(it->second) + ")",
                  it->second);
  }
  if (!full()) return refuse("not_your_turn", "waiting for an opponent to join");
  const Position& pos = game_->position();
  if (pos.toMove != *side) return refuse("not_your_turn", "it is the other player's turn");
  if (after && *after < lastPositionEvent_) {
    return refuse("stale", "the position changed at event " + std::to_string(lastPositionEvent_) +
                               ": you have seen only up to event " + std::to_string(*after));
  }
  if (!game_->board().isLegal(pos, house)) {
    return refuse("illegal_move",
                  "house " + std::to_string(house) + " is not legal; legal: " + game_->board().legalList(pos));
  }
  auto change = play(*side, house, clientId, player, now);
  if (change && !clientId.is_null()) moveIds_[key] = *change->ack;
  return change;
}

Outcome<Change> Room::aiMove(std::size_t plies, int house, TimePoint now) {
  if (over() || game_->plies().size() != plies) return refuse("stale", "the game moved on while the AI thought");
  const Side toMove = game_->position().toMove;
  if (seats_[static_cast<std::size_t>(index(toMove))].player != kAiSeat) return refuse("stale", "not the AI's turn");
  if (!game_->board().isLegal(game_->position(), house)) return refuse("internal", "the AI chose an illegal move");
  return play(toMove, house, nullptr, kAiSeat, now);
}

Outcome<Change> Room::play(Side side, int house, const Json& clientId, const std::string& /*player*/, TimePoint now) {
  const Board& board = game_->board();
  const std::size_t si = static_cast<std::size_t>(index(side));
  if (clockRunning_) remaining_[si] = clockLeft(side, now);
  const int setBefore = game_->currentSet();
  auto played = game_->play(house);
  if (!played) return refuse("illegal_move", played.error().message);
  const Ply& ply = **played;
  const bool ended = game_->over();
  const bool turnPassed = ended || ply.setEnded || game_->position().toMove != side;
  if (clockRunning_ && turnPassed) remaining_[si] += spec_.clock.increment * 1000LL;
  turnStart_ = now;  // the next turn's time runs from here
  if (ended) clockRunning_ = false;
  drawOffer_.reset();
  const ActionRecord row = action(ActionKind::Move, side, house, clientId.is_null() ? std::string() : clientId.dump());
  std::vector<Json> events;
  Json ev{{"kind", "move"},
          {"side", letter(side)},
          {"house", house},
          {"set", setBefore},
          {"trace", protocol::traceJson(ply.trace)},
          {"position", positionJson(board, game_->position())},
          {"legal", legalJson(board, game_->position())}};
  if (ply.setEnded) ev["set_end_position"] = positionJson(board, ply.after);
  if (spec_.clock.enabled()) ev["clock"] = clockJson(now);
  // What the state says after this move, so a page builds the next state from the event alone
  // (its copy may still be animating an earlier move): the game's status, the match's set and
  // points, and what each side may do now.
  const Json points = protocol::pointsJson(*game_);
  ev["status"] = status();
  ev["next_set"] = game_->currentSet();
  ev["points"] = points;
  ev["can_swap"] = !ended && game_->canSwap();
  ev["can_abort"] = canAbort(side);
  events.push_back(std::move(ev));
  if (ply.setEnded) {
    Json so{{"kind", "set_over"}, {"set", setBefore}, {"result", protocol::outcomeJson(game_->setResults().back().outcome)}};
    so["points"] = points;
    events.push_back(std::move(so));
  }
  if (ended) events.push_back(Json{{"kind", "game_over"}, {"result", resultJson()}});
  Change change = stage(row, std::move(events), ended);
  change.ack = row.eventN;
  lastPositionEvent_ = row.eventN;
  return change;
}

Outcome<Change> Room::adjudicate(std::optional<Side> winner, std::string_view reason, ActionKind kind,
                                 Side actor, Json extraEvent, TimePoint now) {
  if (clockRunning_) {
    const Side toMove = game_->position().toMove;
    remaining_[static_cast<std::size_t>(index(toMove))] = std::max(0LL, clockLeft(toMove, now));
  }
  clockRunning_ = false;
  drawOffer_.reset();
  const ActionRecord row = action(kind, actor, 0, "");
  adjudication_ = Json{{"winner", winner ? protocol::sideName(*winner) : "draw"}, {"reason", reason}};
  std::vector<Json> events;
  if (!extraEvent.is_null()) events.push_back(std::move(extraEvent));
  events.push_back(Json{{"kind", "game_over"}, {"result", resultJson()}});
  return stage(row, std::move(events), true);
}

Outcome<Change> Room::resign(const std::string& who, TimePoint now) {
  auto side = player(who, "resign");
  if (!side) return tl::unexpected(side.error());
  return adjudicate(other(*side), "resign", ActionKind::Resign, *side, Json{{"kind", "resigned"}, {"side", letter(*side)}}, now);
}

std::optional<Change> Room::flag(TimePoint now) {
  if (!clockRunning_ || over()) return std::nullopt;
  const Side toMove = game_->position().toMove;
  if (clockLeft(toMove, now) > 0) return std::nullopt;
  auto change = adjudicate(other(toMove), "time", ActionKind::Timeout, toMove,
                           Json{{"kind", "flag"}, {"side", protocol::sideName(toMove)}}, now);
  remaining_[static_cast<std::size_t>(index(toMove))] = 0;
  return change ? std::optional<Change>(std::move(*change)) : std::nullopt;
}

Outcome<Change> Room::offerDraw(const std::string& who, TimePoint /*now*/) {
  auto side = player(who, "offer a draw");
  if (!side) return tl::unexpected(side.error());
  if (!full()) return refuse("not_your_turn", "waiting for an opponent to join");
  if (drawOffer_) return refuse("bad_message", "a draw is already offered");
  std::vector<Json> events{Json{{"kind", "draw_offered"}, {"side", letter(*side)}}};
  if (seats_[static_cast<std::size_t>(index(other(*side)))].player == kAiSeat) {
    // The built-in AI plays on: it declines at once, in the same write.
    events.push_back(Json{{"kind", "draw_declined"}, {"side", letter(other(*side))}});
  } else {
    drawOffer_ = *side;
  }
  return stage(std::nullopt, std::move(events), false);
}

Outcome<Change> Room::answerDraw(const std::string& who, bool accept, TimePoint now) {
  auto side = player(who, "answer a draw offer");
  if (!side) return tl::unexpected(side.error());
  if (!drawOffer_) return refuse("stale", "there is no draw offer to answer");
  const Side answerer = other(*drawOffer_);
  if (seats_[static_cast<std::size_t>(index(answerer))].player != who) {
    return refuse("not_your_turn", "the other player answers your offer");
  }
  if (!accept) {
    drawOffer_.reset();
    return stage(std::nullopt, {Json{{"kind", "draw_declined"}, {"side", letter(answerer)}}}, false);
  }
  if (!spec_.rules.stores) return split(answerer, now);
  return adjudicate(std::nullopt, "agreement", ActionKind::Draw, answerer, Json{{"kind", "draw_agreed"}}, now);
}

Outcome<Change> Room::split(Side answerer, TimePoint now) {
  // Al-manqala: the players share the seeds left; the set ends, a match goes on.
  const Board& board = game_->board();
  const int setBefore = game_->currentSet();
  if (auto r = game_->agreeSplit(); !r) return refuse("bad_message", r.error().message);
  drawOffer_.reset();
  const bool ended = game_->over();
  if (ended) clockRunning_ = false;
  if (clockRunning_) turnStart_ = now;
  const ActionRecord row = action(ActionKind::Split, answerer, 0, "");
  std::vector<Json> events{Json{{"kind", "split"},
                                {"set", setBefore},
                                {"result", protocol::outcomeJson(game_->setResults().back().outcome)},
                                {"position", positionJson(board, game_->position())},
                                {"legal", legalJson(board, game_->position())}}};
  if (ended) events.push_back(Json{{"kind", "game_over"}, {"result", resultJson()}});
  Change change = stage(row, std::move(events), ended);
  lastPositionEvent_ = row.eventN;
  return change;
}

Outcome<Change> Room::swap(const std::string& who, TimePoint /*now*/) {
  auto side = player(who, "swap");
  if (!side) return tl::unexpected(side.error());
  if (*side != Side::North || !game_->canSwap()) {
    return refuse("illegal_move", "a swap is allowed only with pie=true, for North right after South's first turn");
  }
  (void)game_->swap();
  std::swap(seats_[0], seats_[1]);
  const ActionRecord row = action(ActionKind::Swap, *side, 0, "");
  Change change = stage(row, {Json{{"kind", "swapped"}, {"seats", seatsJson()}}}, true);
  lastPositionEvent_ = row.eventN;
  return change;
}

Outcome<Change> Room::rematch(const std::string& who, const std::string& newId) {
  if (!over()) return refuse("bad_message", "a rematch is offered once the game is over");
  if (!holdsSeat(who) && !(seats_[0].player == who || seats_[1].player == who))
    return refuse("not_a_player", "only a player can ask for a rematch");
  if (!rematchId_.empty()) return refuse("stale", "the rematch is already game " + rematchId_);
  std::vector<Json> events;
  for (std::size_t s = 0; s < 2; ++s) {
    const std::string& seat = seats_[s].player;
    if ((seat == who || seat == kAiSeat) && !rematchAsked_[s]) {
      rematchAsked_[s] = true;
      if (seat != kAiSeat) events.push_back(Json{{"kind", "rematch_offered"}, {"side", s == 0 ? "S" : "N"}});
    }
  }
  if (!(rematchAsked_[0] && rematchAsked_[1])) {
    if (events.empty()) return refuse("stale", "you already asked for a rematch");
    return stage(std::nullopt, std::move(events), false);
  }
  rematchId_ = newId;
  events.push_back(Json{{"kind", "rematch"}, {"new_game", newId}});
  Change change = stage(std::nullopt, std::move(events), false);
  change.rematch = newId;
  return change;
}

protocol::GameSpec Room::rematchSpec() const { return spec_; }

std::array<Seat, 2> Room::rematchSeats() const {
  // Sides swapped: the new South is the old North.
  return {Seat{seats_[1].player, seats_[1].name, 0}, Seat{seats_[0].player, seats_[0].name, 0}};
}

bool Room::connect(const std::string& player, int delta, long long nowMs) {
  bool changed = false;
  for (Seat& s : seats_) {
    if (s.player != player || player.empty() || player == kAiSeat) continue;
    const int before = s.connected;
    s.connected = std::max(0, s.connected + delta);
    if (before > 0 && s.connected == 0 && nowMs > 0) s.awaySinceMs = nowMs;
    changed = changed || (before == 0) != (s.connected == 0);
  }
  return changed;
}

bool Room::aiToMove() const {
  if (over() || !full()) return false;
  return seats_[static_cast<std::size_t>(index(game_->position().toMove))].player == kAiSeat;
}

long long Room::clockLeftToMove(TimePoint now) const {
  if (!spec_.clock.enabled()) return -1;
  return std::max(0LL, clockLeft(game_->position().toMove, now));
}

std::string Room::aiOwner() const {
  for (const Seat& s : seats_) {
    if (!s.player.empty() && s.player != kAiSeat) return s.player;
  }
  return id_;
}

}  // namespace semis::room
