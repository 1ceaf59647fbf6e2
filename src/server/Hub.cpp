#include "server/Hub.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <random>

#include "server/Log.hpp"
#include "server/Room.hpp"

namespace semis::server {

namespace {

long long nowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// Unguessable: std::random_device reads the kernel's generator on Linux.
std::string randomString(std::size_t length, std::string_view alphabet) {
  static thread_local std::random_device device;
  std::string out;
  out.reserve(length);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  for (std::size_t i = 0; i < length; ++i) out += alphabet[pick(device)];
  return out;
}

constexpr std::string_view kHex = "0123456789abcdef";
constexpr std::string_view kIdChars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

bool validToken(const std::string& t) {
  return t.size() == 32 &&
         std::all_of(t.begin(), t.end(), [](char c) { return kHex.find(c) != std::string_view::npos; });
}

}  // namespace

Hub::Hub(store::Store& store, Metrics& metrics, std::unique_ptr<MoveSource> ai, int aiThreads)
    : store_(store), metrics_(metrics), ai_(std::move(ai)), aiPool_(static_cast<std::size_t>(std::max(1, aiThreads))) {
  if (auto players = store_.players()) {
    for (auto& p : *players) players_.emplace(p.token, p);
  }
}

Hub::~Hub() { aiPool_.join(); }

void Hub::stopAi() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  aiPool_.join();
}

Identity Hub::identify(const std::string& token) {
  std::lock_guard lock(mu_);
  if (validToken(token)) {
    if (auto it = players_.find(token); it != players_.end())
      return {it->second.token, it->second.id, it->second.name, false};
  }
  store::PlayerRow p{randomString(32, kHex), randomString(10, kIdChars), ""};
  p.name = "Guest-" + p.id.substr(0, 4);
  if (auto r = store_.putPlayer(p); !r) {
    metrics_.storeErrors++;
    logWarn("store_error", {{"what", r.error().message}});
  }
  players_.emplace(p.token, p);
  return {p.token, p.id, p.name, true};
}

Result<Identity> Hub::rename(const std::string& token, const std::string& name) {
  if (name.empty() || name.size() > 24) return fail("a name has 1..24 characters");
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) return fail("a name has printable characters only");
  }
  std::lock_guard lock(mu_);
  auto it = players_.find(token);
  if (it == players_.end()) return fail("unknown player");
  store::PlayerRow p = it->second;
  p.name = name;
  if (auto r = store_.putPlayer(p); !r) return tl::unexpected(r.error());
  it->second = p;
  return Identity{p.token, p.id, p.name, false};
}

std::string Hub::playerName(const std::string& token) const {
  auto it = players_.find(token);
  return it == players_.end() ? std::string("Guest") : it->second.name;
}

Room* Hub::find(const std::string& id) {
  auto it = rooms_.find(id);
  if (it != rooms_.end()) return it->second.get();
  // A finished game evicted from memory (or from before a restart): load it back from the store.
  auto row = store_.game(id);
  if (!row || !*row) return nullptr;
  return load(**row);
}

void Hub::evict() {
  // Finished games nobody watches leave memory after a while; find() brings them back on demand.
  const auto now = Clock::now();
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    const Room& r = *it->second;
    if (r.over() && r.watchers.empty() && !r.aiThinking && now - r.lastActivity > std::chrono::minutes(5)) {
      it = rooms_.erase(it);
    } else {
      ++it;
    }
  }
}

Room& Hub::newRoom(const std::string& id, const protocol::GameSpec& spec) {
  auto room = std::make_unique<Room>();
  room->id = id;
  room->spec = spec;
  room->rulesText = toString(spec.rules);
  room->game = std::make_unique<Game>(spec.rules);
  const long long full = spec.clock.seconds * 1000LL;
  room->remaining = {full, full};
  Room& ref = *room;
  rooms_[id] = std::move(room);
  return ref;
}

void Hub::updateActiveGauge() {
  long long n = 0;
  for (auto& [id, room] : rooms_) n += room->over() ? 0 : 1;
  metrics_.gamesActive = n;
}

Result<Json> Hub::createGame(const std::string& token, const protocol::GameSpec& spec) {
  std::lock_guard lock(mu_);
  return createLocked(token, spec);
}

Result<Json> Hub::createLocked(const std::string& token, const protocol::GameSpec& spec) {
  if (stopping_) return fail("the server is shutting down");
  std::string id = randomString(10, kIdChars);
  while (find(id) != nullptr) id = randomString(10, kIdChars);  // also the games saved on disk
  Side mine = spec.side == "N" ? Side::North : Side::South;
  if (spec.side == "random") mine = randomString(1, "SN") == "S" ? Side::South : Side::North;
  Room& room = newRoom(id, spec);
  room.created = nowMs();
  if (spec.mode == protocol::Mode::Local) {
    room.seat = {token, token};
  } else {
    room.seat[index(mine)] = token;
    room.seat[index(other(mine))] = spec.mode == protocol::Mode::Ai ? kAiSeat : "";
  }
  store::GameRow row{id,           room.rulesText,     protocol::modeName(spec.mode),
                     spec.level,   spec.clock.seconds, spec.clock.increment,
                     room.seat[0], room.seat[1],       status(room),
                     "",           room.created};
  if (auto r = store_.insertGame(row); !r) {
    rooms_.erase(id);
    metrics_.storeErrors++;
    return tl::unexpected(r.error());
  }
  metrics_.gamesCreated++;
  updateActiveGauge();
  if (room.full()) startClock(room);
  logInfo("game_created", {{"game", id}, {"rules", room.rulesText}, {"mode", protocol::modeName(spec.mode)}});
  maybeAi(room);
  const char* seat = spec.mode == protocol::Mode::Local ? "both" : protocol::sideName(mine);
  return Json{{"id", id}, {"link", "/g/" + id}, {"seat", seat}};
}

Result<int> Hub::resume() {
  std::lock_guard lock(mu_);
  auto games = store_.unfinishedGames();
  if (!games) return tl::unexpected(games.error());
  int count = 0;
  for (const store::GameRow& g : *games) count += load(g) != nullptr ? 1 : 0;
  updateActiveGauge();
  for (auto& [id, room] : rooms_) maybeAi(*room);
  return count;
}

Room* Hub::load(const store::GameRow& g) {
  {
    auto rules = parseRules(g.rules);
    if (!rules) {
      logWarn("resume_skipped", {{"game", g.id}, {"why", rules.error().message}});
      return nullptr;
    }
    protocol::GameSpec spec;
    spec.rules = *rules;
    spec.mode = g.mode == "friend"  ? protocol::Mode::Friend
                : g.mode == "local" ? protocol::Mode::Local
                                    : protocol::Mode::Ai;
    spec.level = g.level;
    spec.clock = {g.clockSeconds, g.clockIncrement};
    Room& room = newRoom(g.id, spec);
    room.created = g.created;
    room.seat = {g.seatS, g.seatN};
    auto moves = store_.moves(g.id);
    auto events = store_.events(g.id);
    if (!moves || !events) {
      rooms_.erase(g.id);
      logWarn("resume_skipped", {{"game", g.id}, {"why", "cannot read its moves"}});
      return nullptr;
    }
    room.actions = *moves;
    rebuild(room);
    for (const store::EventRow& e : *events) room.events.push_back(std::make_shared<const std::string>(e.json));
    for (const store::MoveRow& m : room.actions) {
      if (m.kind == "move" && !m.clientId.empty())
        room.moveIds[std::string(1, m.side == 0 ? 'S' : 'N') + m.clientId] = m.eventN;
      room.lastPositionEvent = std::max(room.lastPositionEvent, m.eventN);
      if (m.clockS >= 0) room.remaining = {m.clockS, m.clockN};
    }
    // Time while the server was down is nobody's: the clock restarts now.
    if (room.full() && !room.over()) startClock(room);
    room.lastActivity = Clock::now();
    return &room;
  }
}

void Hub::rebuild(Room& room) {
  room.game = std::make_unique<Game>(room.spec.rules);
  room.adjudication.reset();
  for (const store::MoveRow& m : room.actions) {
    const Side side = m.side == 0 ? Side::South : Side::North;
    if (m.kind == "move") {
      if (auto r = room.game->play(m.house); !r) logWarn("replay_failed", {{"game", room.id}, {"seq", m.seq}});
    } else if (m.kind == "swap") {
      (void)room.game->swap();
    } else if (m.kind == "split") {
      (void)room.game->agreeSplit();
    } else if (m.kind == "resign" || m.kind == "timeout") {
      room.adjudication =
          Json{{"winner", protocol::sideName(other(side))}, {"reason", m.kind == "resign" ? "resign" : "time"}};
    } else if (m.kind == "draw") {
      room.adjudication = Json{{"winner", "draw"}, {"reason", "agreement"}};
    }
  }
}

std::string Hub::status(const Room& room) const {
  if (room.over()) return "over";
  return room.full() ? "playing" : "waiting";
}

void Hub::attach(const std::shared_ptr<Peer>& peer) {
  std::lock_guard lock(mu_);
  peers_[peer.get()] = peer;
}

void Hub::detach(Peer* peer) {
  std::lock_guard lock(mu_);
  peers_.erase(peer);
  for (auto& [id, room] : rooms_) {
    if (room->watchers.count(peer) != 0) leave(*peer, *room);
  }
}

void Hub::sendError(Peer& peer, std::string_view code, std::string_view message, const Json& id) {
  metrics_.errors++;
  peer.send(std::make_shared<const std::string>(protocol::errorMessage(code, message, id).dump()));
}

void Hub::onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  using protocol::MsgType;
  std::lock_guard lock(mu_);
  if (msg.type == MsgType::Join) return join(peer, msg);
  if (msg.type == MsgType::Move) return move(*peer, msg);
  if (msg.type == MsgType::Create) {
    auto created = createLocked(peer->token(), *msg.spec);
    if (!created) return sendError(*peer, "bad_message", created.error().message);
    Json j{{"type", "created"}};
    for (auto& [k, v] : created->items()) j[k] = v;
    return peer->send(std::make_shared<const std::string>(j.dump()));
  }
  if (msg.type == MsgType::Hello) {
    auto it = players_.find(peer->token());
    Json j{{"type", "hello"}, {"id", it != players_.end() ? it->second.id : ""}, {"name", playerName(peer->token())}};
    return peer->send(std::make_shared<const std::string>(j.dump()));
  }
  Room* room = find(msg.game);
  if (room == nullptr) return sendError(*peer, "not_found", "no game '" + msg.game + "'");
  switch (msg.type) {
    case MsgType::Leave:
      return leave(*peer, *room);
    case MsgType::Resign:
      return resign(*peer, *room);
    case MsgType::OfferDraw:
      return offerDraw(*peer, *room);
    case MsgType::AcceptDraw:
      return answerDraw(*peer, *room, true);
    case MsgType::DeclineDraw:
      return answerDraw(*peer, *room, false);
    case MsgType::Swap:
      return swap(*peer, *room);
    case MsgType::Rematch:
      return rematch(*peer, *room);
    default:
      return;
  }
}

void Hub::join(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  Room* found = find(msg.game);
  if (found == nullptr) return sendError(*peer, "not_found", "no game '" + msg.game + "'");
  Room& room = *found;
  const std::string& token = peer->token();
  const bool seated = room.seat[0] == token || room.seat[1] == token;
  if (!seated && !room.over() && room.spec.mode == protocol::Mode::Friend && !room.full()) {
    // The first visitor with the link takes the free seat.
    const Side free = room.seat[0].empty() ? Side::South : Side::North;
    room.seat[index(free)] = token;
    auto r = commit(room, std::nullopt,
                    {Json{{"kind", "joined"}, {"side", protocol::sideName(free)}, {"name", playerName(token)}}}, true);
    if (!r) {
      room.seat[index(free)].clear();
      return sendError(*peer, "internal", r.error().message);
    }
    startClock(room);
    maybeAi(room);
  }
  if (room.watchers.count(peer.get()) == 0) {
    room.watchers[peer.get()] = peer;
    bool arrived = false;
    for (std::size_t s = 0; s < 2; ++s) {
      if (room.seat[s] == token && room.connected[s]++ == 0) arrived = true;
    }
    if (arrived) presence(room);
  }
  const long long last = static_cast<long long>(room.events.size());
  if (msg.lastEvent && *msg.lastEvent <= last && last - *msg.lastEvent <= 256) {
    for (long long n = *msg.lastEvent; n < last; ++n) peer->send(room.events[static_cast<std::size_t>(n)]);
    Json caught{{"type", "caught_up"}, {"game", room.id}, {"last_event", last}};
    return peer->send(std::make_shared<const std::string>(caught.dump()));
  }
  peer->send(std::make_shared<const std::string>(Json{{"type", "state"}, {"game", stateJson(room, token)}}.dump()));
}

void Hub::leave(Peer& peer, Room& room) {
  if (room.watchers.erase(&peer) == 0) return;
  bool gone = false;
  for (std::size_t s = 0; s < 2; ++s) {
    if (room.seat[s] == peer.token() && --room.connected[s] == 0) gone = true;
  }
  if (gone) presence(room);
}

void Hub::presence(Room& room) {
  auto msg = std::make_shared<const std::string>(
      Json{{"type", "presence"}, {"game", room.id}, {"seats", seatsJson(room)}}.dump());
  for (auto& [raw, weak] : room.watchers) {
    if (auto p = weak.lock()) p->send(msg);
  }
}

Result<void> Hub::commit(Room& room, std::optional<store::MoveRow> action, std::vector<Json> events, bool gameRow) {
  std::vector<store::EventRow> rows;
  long long n = static_cast<long long>(room.events.size());
  for (Json& e : events) {
    Json msg{{"type", "event"}, {"game", room.id}, {"n", ++n}, {"event", std::move(e)}};
    rows.push_back({n, msg.dump()});
  }
  auto write = [&]() -> Result<void> {
    if (auto r = store_.begin(); !r) return r;
    if (action) {
      if (auto r = store_.insertMove(*action); !r) return r;
    }
    for (const auto& row : rows) {
      if (auto r = store_.insertEvent(room.id, row); !r) return r;
    }
    if (gameRow) {
      const std::string result = room.over() ? resultJson(room).dump() : std::string();
      if (auto r = store_.updateGame(room.id, room.seat[0], room.seat[1], status(room), result); !r) return r;
    }
    return store_.commit();
  };
  if (auto r = write(); !r) {
    store_.rollback();
    metrics_.storeErrors++;
    logWarn("store_error", {{"game", room.id}, {"what", r.error().message}});
    return r;
  }
  if (action) room.actions.push_back(*action);
  room.lastActivity = Clock::now();
  for (auto& row : rows) publish(room, std::make_shared<const std::string>(std::move(row.json)));
  if (gameRow) updateActiveGauge();
  return {};
}

void Hub::publish(Room& room, const Message& message) {
  room.events.push_back(message);
  for (auto it = room.watchers.begin(); it != room.watchers.end();) {
    if (auto p = it->second.lock()) {
      p->send(message);
      ++it;
    } else {
      it = room.watchers.erase(it);
    }
  }
}

void Hub::startClock(Room& room) {
  if (!room.spec.clock.enabled() || room.over() || !room.full()) return;
  room.clockRunning = true;
  room.turnStart = Clock::now();
}

long long Hub::clockLeft(const Room& room, Side s, Clock::time_point now) const {
  long long left = room.remaining[static_cast<std::size_t>(index(s))];
  if (room.clockRunning && room.game->position().toMove == s) {
    left -= std::chrono::duration_cast<std::chrono::milliseconds>(now - room.turnStart).count();
  }
  return left;
}

void Hub::tick() {
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  if (++ticks_ % 600 == 0) evict();
  for (auto& [id, room] : rooms_) {
    if (!room->clockRunning || room->over()) continue;
    const Side toMove = room->game->position().toMove;
    if (clockLeft(*room, toMove, now) > 0) continue;
    room->remaining[static_cast<std::size_t>(index(toMove))] = 0;
    (void)adjudicate(*room, other(toMove), "time", "timeout", toMove,
                     Json{{"kind", "flag"}, {"side", protocol::sideName(toMove)}});
  }
}

void Hub::shutdown(int retryMs) {
  std::lock_guard lock(mu_);
  stopping_ = true;
  auto msg = std::make_shared<const std::string>(
      Json{{"type", "shutdown"}, {"message", "the server is restarting"}, {"retry_ms", retryMs}}.dump());
  for (auto& [raw, weak] : peers_) {
    if (auto p = weak.lock()) {
      p->send(msg);
      p->closeSoon();
    }
  }
}

Json Hub::liveGames() {
  std::lock_guard lock(mu_);
  std::vector<const Room*> live;
  for (auto& [id, room] : rooms_) {
    if (!room->over()) live.push_back(room.get());
  }
  std::sort(live.begin(), live.end(), [](const Room* a, const Room* b) { return a->created > b->created; });
  if (live.size() > 100) live.resize(100);
  Json games = Json::array();
  for (const Room* r : live) {
    games.push_back(Json{{"id", r->id},
                         {"rules", r->rulesText},
                         {"mode", protocol::modeName(r->spec.mode)},
                         {"seats", seatsJson(*r)},
                         {"status", status(*r)},
                         {"plies", r->game->plies().size()},
                         {"spectators", r->watchers.size()}});
  }
  return Json{{"games", games}};
}

std::optional<Json> Hub::state(const std::string& gameId, const std::string& token) {
  std::lock_guard lock(mu_);
  Room* room = find(gameId);
  if (room == nullptr) return std::nullopt;
  return stateJson(*room, token);
}

}  // namespace semis::server
