// The hub's bookkeeping: the games map (loading on demand, eviction), game creation,
// the live list, the clock ticker and shutdown. The game actions are in HubPlay.cpp.

#include "hub/Hub.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "accounts/Tokens.hpp"
#include "hub/ClusterLink.hpp"
#include "hub/Live.hpp"
#include "hub/RoomRows.hpp"
#include "limits/Buckets.hpp"
#include "ops/Log.hpp"

namespace semis::server {

Hub::Hub(store::Store& store, Players& players, Metrics& metrics, std::unique_ptr<MoveSource> ai, HubOptions options)
    : store_(store),
      players_(players),
      metrics_(metrics),
      ai_(std::move(ai)),
      options_(options),
      pool_(AiPoolOptions{std::max(1, options.aiThreads), options.aiQueue, options.aiPerPlayer, &metrics}) {}

Hub::~Hub() {
  stopCluster();
  pool_.stop();
}

Hub::LivePtr Hub::inMemory(const std::string& id) {
  std::lock_guard lock(gamesMu_);
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : it->second;
}

std::array<std::string, 2> Hub::seatNames(const store::GameRow& row, const room::Room* before) {
  std::array<std::string, 2> names;
  for (std::size_t s = 0; s < 2; ++s) {
    const std::string& seat = s == 0 ? row.seatS : row.seatN;
    if (seat.empty() || seat == room::kAiSeat) continue;
    names[s] = before && before->seats()[s].player == seat ? before->seats()[s].name : players_.nameOf(seat);
  }
  return names;
}

void Hub::stopAi() {
  stopping_ = true;
  stopCluster();
  pool_.stop();
}

Result<long long> Hub::resume() {
  const long long before =
      nowMs() - std::chrono::duration_cast<std::chrono::milliseconds>(options_.abandonAfter).count();
  auto abandoned = store_.abandonIdle(before);
  if (!abandoned) return fail("cannot read the games: " + abandoned.error().message);
  return *abandoned;
}

Outcome<Identity> Hub::rename(const Identity& me, const std::string& name) {
  auto renamed = players_.rename(me, name);
  if (!renamed) return renamed;
  renameSeats(me.id, name);
  // The other instances cached the old name (and this session's row with it): they read it again.
  if (link_) link_->publishForget(accounts::hashToken(me.token), me.id);
  return renamed;
}

bool Hub::allowCreate(const std::string& address) {
  // A token bucket per address: bursts of createBurst games, then createPerSecond.
  std::lock_guard lock(createMu_);
  return takeToken(createBuckets_, address, options_.createBurst, options_.createPerSecond);
}

Outcome<Json> Hub::createGame(const Identity& me, const protocol::GameSpec& spec) {
  if (stopping_) return tl::unexpected(Refusal{ErrorCode::Unavailable, "the server is shutting down", {}});
  if (!allowCreate(me.address)) {
    return tl::unexpected(Refusal{ErrorCode::RateLimited, "too many new games from your address: wait a minute", {}});
  }
  if (auto r = players_.ensureStored(me); !r) return tl::unexpected(r.error());
  auto open = store_.openGamesOf(me.id);
  if (!open) return tl::unexpected(storeRefusal(open.error()));
  if (*open >= options_.maxOpenGames) {
    return tl::unexpected(Refusal{
        ErrorCode::TooManyGames, "you have " + std::to_string(*open) + " unfinished games: finish or resign one first", {}});
  }
  const std::string id = accounts::randomId(10);
  Side mine = spec.side == "N" ? Side::North : Side::South;
  if (spec.side == "random") mine = accounts::randomId(1)[0] < 'a' ? Side::South : Side::North;
  auto room = std::make_unique<room::Room>(id, spec, nowMs());
  std::array<room::Seat, 2> seats;
  const room::Seat creator{me.id, players_.nameOf(me.id), 0};
  if (spec.mode == protocol::Mode::Local) {
    seats = {creator, creator};
  } else {
    seats[static_cast<std::size_t>(index(mine))] = creator;
    if (spec.mode == protocol::Mode::Ai) seats[static_cast<std::size_t>(index(other(mine)))].player = room::kAiSeat;
  }
  if (!spec.bot.empty()) {
    // A game against a bot: the bot takes the other seat at once (it must be connected).
    if (!bots_) return tl::unexpected(Refusal{ErrorCode::NotFound, "this server has no bots", {}});
    auto bot = bots_->playable(spec.bot, spec.rules);
    if (!bot) return tl::unexpected(bot.error());
    if (*bot == me.id) return tl::unexpected(Refusal{ErrorCode::BadMessage, "a bot does not play itself", {}});
    seats[static_cast<std::size_t>(index(other(mine)))] = room::Seat{*bot, players_.nameOf(*bot), 0};
  }
  room->seatPlayers(seats, Clock::now());
  if (auto r = store_.createGame(gameRow(room->header()), {}); !r) {
    metrics_.storeErrors++;
    return tl::unexpected(storeRefusal(r.error()));
  }
  adoptNew(std::move(room));
  const char* seat = spec.mode == protocol::Mode::Local ? "both" : protocol::sideName(mine);
  return Json{{"id", id}, {"link", "/g/" + id}, {"seat", seat}};
}

void Hub::adoptNew(std::unique_ptr<room::Room> room) {
  const std::string id = room->id();
  const protocol::GameSpec& spec = room->spec();
  logInfo(
      "game_created",
      {{"game", id}, {"rules", toString(spec.rules)}, {"mode", protocol::modeName(spec.mode)}, {"rated", spec.rated}});
  auto live = std::make_shared<Live>();
  live->room = std::move(room);
  live->lastActivity = Clock::now();
  metrics_.gamesCreated++;
  {
    // A player told of the game (a pairing, an invitation) may have loaded it first: keep his copy.
    std::lock_guard lock(gamesMu_);
    if (!games_.try_emplace(id, live).second) return;
  }
  held(id);
  countGames();
  std::lock_guard lock(live->mu);
  afterChange(*live);
  maybeAi(live);
}

Outcome<std::string> Hub::createPaired(const protocol::GameSpec& spec, const std::array<std::string, 2>& players,
                                       const GameWriter& write) {
  if (stopping_) return tl::unexpected(Refusal{ErrorCode::Unavailable, "the server is shutting down", {}});
  const std::string id = accounts::randomId(10);
  auto room = std::make_unique<room::Room>(id, spec, nowMs());
  room->seatPlayers(
      {room::Seat{players[0], players_.nameOf(players[0]), 0}, room::Seat{players[1], players_.nameOf(players[1]), 0}},
      Clock::now());
  if (auto r = write(gameRow(room->header())); !r) {
    if (r.error().fault != store::Fault::Conflict) metrics_.storeErrors++;
    return tl::unexpected(r.error().fault == store::Fault::Conflict
                              ? Refusal{ErrorCode::Conflict, "one of the players was paired meanwhile", {}}
                              : storeRefusal(r.error()));
  }
  adoptNew(std::move(room));
  return id;
}

void Hub::sendLocal(const std::string& player, const Message& message) {
  std::vector<std::shared_ptr<Peer>> targets;
  {
    std::lock_guard lock(peersMu_);
    for (auto& [raw, weak] : peers_) {
      if (auto p = weak.lock(); p && p->playerId() == player) targets.push_back(std::move(p));
    }
  }
  for (auto& p : targets) p->send(message);
}

void Hub::notify(const std::string& player, const Json& message) {
  sendLocal(player, text(message));
  if (link_) link_->publishNotify(player, message);
}

long long Hub::online() {
  long long n = 0;
  {
    std::lock_guard lock(peersMu_);
    n = static_cast<long long>(peers_.size());
  }
  return n + (link_ ? link_->otherPeers() : 0);
}

bool Hub::connectedHere(const std::string& player) {
  std::lock_guard lock(peersMu_);
  for (auto& [raw, weak] : peers_) {
    if (auto p = weak.lock(); p && p->playerId() == player) return true;
  }
  return false;
}

void Hub::forgetPlayer(const std::string& tokenHash, const std::string& playerId) {
  forgetHere(tokenHash, playerId);
  if (link_) link_->publishForget(tokenHash, playerId);
}

void Hub::forgetHere(const std::string& tokenHash, const std::string& playerId) {
  players_.forget(tokenHash, playerId);
  // His name may have changed (renamed, deleted): the games held here show the stored one at once.
  if (!playerId.empty()) renameSeats(playerId, players_.nameOf(playerId));
}

void Hub::renameSeats(const std::string& playerId, const std::string& name) {
  std::vector<LivePtr> held;
  {
    std::lock_guard lock(gamesMu_);
    for (const auto& [id, live] : games_) held.push_back(live);
  }
  for (const LivePtr& live : held) {
    std::lock_guard lock(live->mu);
    if (live->gone || !live->room->renameSeat(playerId, name)) continue;
    presence(*live);
    afterChange(*live);
  }
}

Outcome<Hub::LivePtr> Hub::find(const std::string& id) {
  {
    std::lock_guard lock(gamesMu_);
    if (auto it = games_.find(id); it != games_.end()) return it->second;
  }
  // Not in memory: read it from the store with no lock held, then keep the first copy made.
  auto log = store_.loadGame(id);
  if (!log) {
    metrics_.storeErrors++;
    return tl::unexpected(storeRefusal(log.error()));
  }
  if (!*log) return tl::unexpected(Refusal{ErrorCode::NotFound, "no game '" + id + "'", {}});
  const store::GameLog& g = **log;
  const std::array<std::string, 2> names = seatNames(g.game, nullptr);
  auto stored = roomLog(g);
  auto room = stored ? room::Room::fromLog(*stored, names, Clock::now(), nowMs() - g.game.updated)
                     : tl::unexpected(stored.error());
  if (!room) {
    logWarn("load_failed", {{"game", id}, {"why", room.error().message}});
    return tl::unexpected(Refusal{ErrorCode::Internal, "game '" + id + "' cannot be loaded", {}});
  }
  auto live = std::make_shared<Live>();
  live->room = std::move(*room);
  live->lastActivity = Clock::now();
  bool evicting = false;
  {
    std::lock_guard lock(gamesMu_);
    auto [it, inserted] = games_.try_emplace(id, live);
    if (!inserted) return it->second;
    evicting = unwatching_.count(id) > 0;
  }
  // Evicted a moment ago, its unwatch still on its way: watched once that is through (unheld()),
  // or the late unwatch would cut this copy's subscription.
  if (!evicting) held(id);
  countGames();
  std::lock_guard lock(live->mu);
  afterChange(*live);
  maybeAi(live);
  return live;
}

void Hub::evict() {
  // Games nobody watches and nothing waits on leave memory; find() brings them back. A game whose
  // clock runs stays until its flag falls (at most the clock's length), so leaving does not stop it.
  const auto now = Clock::now();
  std::vector<std::pair<std::string, long long>> evicted;  // id, created
  {
    std::lock_guard lock(gamesMu_);
    for (auto it = games_.begin(); it != games_.end();) {
      Live& l = *it->second;
      std::unique_lock guard(l.mu, std::try_to_lock);
      const bool idle = guard.owns_lock() && l.watchers.empty() && !l.aiQueued && !l.room->deadline() &&
                        now - l.lastActivity > (l.room->over() ? std::chrono::minutes(1) : options_.evictAfter);
      if (idle) {
        l.gone = true;
        {
          // Unlisted before a reload can list it again (the line's key is the game's, not the copy's).
          std::lock_guard liveLock(liveMu_);
          live_.erase({l.room->created(), l.room->id()});
        }
        if (link_) unwatching_.insert(it->first);
        evicted.emplace_back(it->first, l.room->created());
        it = games_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // The bus is told with no lock held; a reload meanwhile waits for unheld() to watch it.
  if (link_) {
    for (const auto& [id, created] : evicted) unheld(id, created);
  }
  countGames();
}

void Hub::unheld(const std::string& id, long long created) {
  // The line is shared: an instance still holding the game writes it again when asked (after
  // the drop: one connection keeps the order), so a game played elsewhere stays listed.
  link_->unwatch(id);
  link_->dropLiveLine(id);
  link_->publishAsk(id, /*dropped=*/true);
  {
    std::lock_guard lock(gamesMu_);
    unwatching_.erase(id);
    // Not loaded again meanwhile: a reload from now on watches it itself, after this unwatch.
    if (games_.count(id) == 0) return;
  }
  // Loaded again while the unwatch was on its way (find() left the watch to us): watched now, and
  // its line, which the drop above may have followed, written again.
  held(id);
  relist(id, created);
}

void Hub::relist(const std::string& id, long long created) {
  std::lock_guard lock(liveMu_);
  if (auto it = live_.find({created, id}); it != live_.end()) link_->setLiveLine(id, created, it->second.view);
}

void Hub::countGames() {
  long long inMemory = 0;
  {
    std::lock_guard lock(gamesMu_);
    inMemory = static_cast<long long>(games_.size());
  }
  metrics_.gamesInMemory = inMemory;
  std::lock_guard lock(liveMu_);
  metrics_.gamesActive = static_cast<long long>(live_.size());
}

std::size_t Hub::gamesInMemory() {
  std::lock_guard lock(gamesMu_);
  return games_.size();
}

LiveList Hub::liveGames() {
  // "online": the connections of every instance (the others' from their last heartbeat).
  long long online = 0;
  {
    std::lock_guard lock(peersMu_);
    online = static_cast<long long>(peers_.size());
  }
  if (link_) {
    online += link_->otherPeers();
    if (auto lines = link_->liveLines(100)) return LiveList{std::move(*lines), online};
  }
  LiveList list{{}, online};
  std::lock_guard lock(liveMu_);
  for (auto it = live_.rbegin(); it != live_.rend() && list.games.size() < 100; ++it) {
    list.games.push_back(it->second);
  }
  return list;
}

std::optional<Json> Hub::state(const std::string& gameId, const std::string& playerId) {
  auto live = findCurrent(gameId);
  if (!live) return std::nullopt;
  Json state;
  std::optional<ClubGame> game;
  {
    std::lock_guard lock((*live)->mu);
    state = (*live)->room->stateJson(playerId, watcherCount(**live), Clock::now());
    if (club_) game = clubGameOf(*(*live)->room);
  }
  if (game) writeClubView(state, club_->clubView(*game));  // (off the game's lock: ratings are read)
  return state;
}

std::optional<std::string> Hub::record(const std::string& gameId) {
  auto live = findCurrent(gameId);
  if (!live) return std::nullopt;
  std::lock_guard lock((*live)->mu);
  return (*live)->room->record();
}

void Hub::attach(const std::shared_ptr<Peer>& peer) {
  std::lock_guard lock(peersMu_);
  peers_[peer.get()] = peer;
}

void Hub::detach(Peer* peer) {
  std::set<std::string> games;
  {
    std::lock_guard lock(peersMu_);
    peers_.erase(peer);
    if (auto it = watching_.find(peer); it != watching_.end()) {
      games = std::move(it->second);
      watching_.erase(it);
    }
  }
  for (const std::string& id : games) leave(*peer, id);
  if (club_) club_->detached(peer);
}

void Hub::tick() {
  const auto now = Clock::now();
  if (++ticks_ % 600 == 0) evict();
  if (link_ && ticks_ % 10 == 0) clusterTick();
  if (link_) dueClaims();
  std::vector<std::string> clocked;
  std::vector<std::string> retry;
  {
    std::lock_guard lock(clockMu_);
    clocked.assign(clocked_.begin(), clocked_.end());
    if (ticks_ % 10 == 0) retry.assign(aiRetry_.begin(), aiRetry_.end());
    if (ticks_ % 10 == 0) aiRetry_.clear();
  }
  for (const std::string& id : clocked) {
    LivePtr live;
    {
      std::lock_guard lock(gamesMu_);
      auto it = games_.find(id);
      if (it == games_.end()) continue;
      live = it->second;
    }
    std::lock_guard lock(live->mu);
    const auto deadline = live->room->deadline();
    if (deadline && *deadline <= now) {
      auto saved = live->room->save();
      if (auto change = live->room->expire(now); change && commit(*live, *saved, *change)) {
        pool_.cancel(id);
        if (change->move && change->move->kind == room::ActionKind::NoShow) noShow(*live, index(change->move->side));
      }
    }
    afterChange(*live);
  }
  for (const std::string& id : retry) {
    auto live = find(id);
    if (!live) continue;
    std::lock_guard lock((*live)->mu);
    maybeAi(*live);
  }
}

void Hub::noShow(Live& live, int side) {
  // He never opened the game (an invitation, a pairing he missed): told wherever he is, and why.
  metrics_.noShows++;
  const room::Seat& seat = live.room->seats()[static_cast<std::size_t>(side)];
  logInfo("no_show", {{"game", live.room->id()}, {"player", seat.player}});
  notify(seat.player, Json{{"type", "aborted"}, {"game", live.room->id()}, {"why", "no_show"}});
}

void Hub::shutdown(int retryMs) {
  stopping_ = true;
  auto msg = std::make_shared<const std::string>(
      Json{{"type", "shutdown"}, {"message", "the server is restarting"}, {"retry_ms", retryMs}}.dump());
  std::lock_guard lock(peersMu_);
  for (auto& [raw, weak] : peers_) {
    if (auto p = weak.lock()) {
      p->send(msg);
      p->closeSoon();
    }
  }
}

}  // namespace semis::server
