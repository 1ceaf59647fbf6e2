// The hub among several instances (docs/scaling.md). The store is the authority: an instance that
// stores a game's action publishes it on the game's channel; every other instance holding the game
// follows it (the action appended to its copy, or the game reloaded from the store when it missed
// one), and sends the new events to its own watchers. Presence is summed from each instance's
// announced connections, each instance's under a lease: one that stops beating is suspended (its
// connections stop counting until it is heard again), and the AI turns it may have been thinking
// about are taken up by the instances holding those games (the store's event numbers let only one
// of them play the move). Without a bus none of this runs: the embedded default.

#include <algorithm>
#include <tuple>

#include "hub/ClusterLink.hpp"
#include "hub/Hub.hpp"
#include "hub/Live.hpp"
#include "hub/RoomRows.hpp"
#include "ops/Log.hpp"

namespace semis::server {

namespace {

constexpr long long kSilentMs = 3500;  // an instance not heard for this long is gone (beats: 1 s)
constexpr long long kBeatMs = 1000;
constexpr int kSweepEvery = 3;               // cluster ticks (1 s) between two catch-ups of quiet games
constexpr std::size_t kBusBacklog = 200000;  // bus messages waiting for the worker; past it: resync
constexpr auto kClaimCheck = std::chrono::milliseconds(1500);  // answers to a claim's `ask`

}  // namespace

void Hub::joinCluster(cluster::Bus& bus, const std::string& instance, const std::string& site) {
  link_ = std::make_unique<ClusterLink>(bus, instance, site);
  busWork_ = std::make_unique<BusWork>();
  busWork_->thread = std::thread([this] { busWorker(); });
  bus.subscribe(ClusterLink::instancesChannel(site));
  bus.start({[this](const std::string& channel, const std::string& payload) { onBus(channel, payload); },
             [this] { post([this] { resync(); }); },
             [this](const std::string& channel) { post([this, channel] { subscribedTo(channel); }); },
             [this](std::string_view where, std::string_view what) { busFailed(where, what); }});
  link_->heartbeat(0);
  link_->startBeating(
      [this] {
        std::lock_guard lock(peersMu_);
        return static_cast<long long>(peers_.size());
      },
      [this] { post([this] { reannounce(); }); }, kBeatMs, kSilentMs,
      [this](std::string_view what) { busFailed("heartbeat", what); });
}

// An exception caught on a bus thread or the heartbeat's: logged and counted, the thread goes on.
void Hub::busFailed(std::string_view where, std::string_view what) {
  metrics_.busFailures++;
  logWarn("bus_failed", {{"thread", where}, {"what", what}});
}

void Hub::post(std::function<void()> work) {
  if (!busWork_) return;
  std::lock_guard lock(busWork_->mu);
  if (busWork_->stop) return;
  if (busWork_->queue.size() >= kBusBacklog) {
    // Too far behind to catch up message by message: the record and a fresh announcement instead.
    busWork_->queue.clear();
    metrics_.busRefused++;
    busWork_->queue.push_back([this] { resync(); });
  }
  busWork_->queue.push_back(std::move(work));
  busWork_->wake.notify_one();
}

void Hub::busWorker() {
  std::unique_lock lock(busWork_->mu);
  while (true) {
    busWork_->wake.wait(lock, [this] { return busWork_->stop || !busWork_->queue.empty(); });
    if (busWork_->stop) return;
    auto work = std::move(busWork_->queue.front());
    busWork_->queue.pop_front();
    lock.unlock();
    try {
      work();
    } catch (const std::exception& e) {
      logLine("error", "bus_handler_failed", {{"what", e.what()}});
    }
    lock.lock();
  }
}

void Hub::stopCluster() {
  if (link_) link_->stopBeating();
  if (!busWork_) return;
  {
    std::lock_guard lock(busWork_->mu);
    busWork_->stop = true;
  }
  busWork_->wake.notify_all();
  if (busWork_->thread.joinable()) busWork_->thread.join();
}

void Hub::held(const std::string& id) {
  if (!link_) return;
  link_->watch(id);
  link_->publishAsk(id);  // the others answer with their connections to it
}

std::size_t Hub::watcherCount(const Live& live) const {
  std::size_t n = live.watchers.size();
  for (const auto& [instance, counts] : live.remote) {
    if (!link_->alive(instance)) continue;  // its lease lapsed: counted again when it is heard
    for (const auto& [player, c] : counts) n += static_cast<std::size_t>(c);
  }
  return n;
}

void Hub::onBus(const std::string& channel, const std::string& payload) {
  // On the bus's reader thread: nothing may escape it, and nothing here waits on a game. What
  // concerns the instances is handled at once; a game's messages go to the worker, in order.
  try {
    if (channel != ClusterLink::instancesChannel(link_->site()))
      return post([this, channel, payload] { onGameMessage(channel, payload); });
    auto m = decodeBusMessage(link_->site(), channel, payload);
    if (!m) {
      metrics_.busRefused++;
      logWarn("bus_message_refused", {{"channel", channel.substr(0, 64)}});
      return;
    }
    if (m->instance == link_->instance()) return;  // our own, back from Redis
    if (m->kind == BusMessage::Kind::Heartbeat) {
      link_->heard(m->instance, m->peers, m->boot, nowMs());
      return;
    }
    link_->touched(m->instance, nowMs());
    if (m->kind == BusMessage::Kind::Notify) return sendLocal(m->player, text(m->message));
    if (m->kind == BusMessage::Kind::Forget) return forgetHere(m->tokenHash, m->player);
  } catch (const std::exception& e) {
    logLine("error", "bus_handler_failed", {{"what", e.what()}});
  }
}

void Hub::onGameMessage(const std::string& channel, const std::string& payload) {
  auto m = decodeBusMessage(link_->site(), channel, payload);
  if (!m) {
    metrics_.busRefused++;
    logWarn("bus_message_refused", {{"channel", channel.substr(0, 64)}});
    return;
  }
  if (m->instance == link_->instance()) return;
  // Whoever speaks lives: its presence counts again (a heartbeat read late must not withdraw it).
  link_->touched(m->instance, nowMs());
  LivePtr live = inMemory(m->game);
  if (!live) return;
  std::lock_guard lock(live->mu);
  if (live->gone) return;
  switch (m->kind) {
    case BusMessage::Kind::Action:
      return followRemote(*live, m->action);
    case BusMessage::Kind::Connections:
      if (m->counts.empty())
        live->remote.erase(m->instance);
      else
        live->remote[m->instance] = std::move(m->counts);
      recount(*live);
      return afterChange(*live);
    case BusMessage::Kind::Ask:
      if (!live->watchers.empty()) announce(*live);
      // The asker evicted its copy and dropped the shared line: listed here, it is written again.
      if (m->dropped) relist(live->room->id(), live->room->created());
      return;
    default:
      return;
  }
}

void Hub::subscribedTo(const std::string& channel) {
  // What another instance stored between our load and this moment came before the subscription:
  // read the record once more (nothing is replaced when it holds nothing new).
  const std::string prefix = ClusterLink::gameChannel(link_->site(), "");
  if (channel.rfind(prefix, 0) != 0) return;
  LivePtr live = inMemory(channel.substr(prefix.size()));
  if (!live) return;
  std::lock_guard lock(live->mu);
  if (live->gone) return;
  refresh(*live);
  // Asked again now: answers to held()'s ask may have been published before we were subscribed.
  link_->publishAsk(live->room->id());
}

void Hub::followRemote(Live& live, const store::Action& action) {
  room::Room& room = *live.room;
  const long long had = room.lastEvent();
  if (action.events.back().n <= had) return;                     // held already (a reload brought it)
  if (action.events.front().n != had + 1) return refresh(live);  // missed one: reload
  std::array<std::string, 2> names;
  if (action.update) {
    store::GameRow seats;
    seats.seatS = action.update->seatS;
    seats.seatN = action.update->seatN;
    names = seatNames(seats, &room);
  }
  auto remote = remoteAction(action);
  if (!remote) {
    logWarn("follow_failed", {{"game", room.id()}, {"why", remote.error().message}});
    return refresh(live);
  }
  if (auto r = room.follow(*remote, names, std::chrono::steady_clock::now(), nowMs() - action.at); !r) {
    logWarn("follow_failed", {{"game", room.id()}, {"why", r.error().message}});
    return refresh(live);
  }
  metrics_.busFollowed++;
  delivered(live, had);
}

void Hub::refresh(Live& live) {
  const std::string id = live.room->id();
  auto log = store_.loadGame(id);
  if (!log || !*log) {
    logWarn("reload_failed", {{"game", id}, {"what", log ? "no such game" : log.error().message}});
    return;
  }
  const store::GameLog& g = **log;
  auto stored = roomLog(g);
  auto fresh = stored ? room::Room::fromLog(*stored, seatNames(g.game, live.room.get()), std::chrono::steady_clock::now(),
                                            nowMs() - g.game.updated)
                      : tl::unexpected(stored.error());
  if (!fresh) {
    logWarn("load_failed", {{"game", id}, {"why", fresh.error().message}});
    return;
  }
  metrics_.busReloads++;
  const long long had = live.room->lastEvent();
  adopt(live, std::move(*fresh));
  // Quiet since the record's last action, not since this read: an AI turn found late is late.
  if (live.room->lastEvent() != had) {
    live.lastActivity = std::chrono::steady_clock::now() -
                        std::chrono::milliseconds(std::clamp(nowMs() - g.game.updated, 0LL, 3600'000LL));
  }
}

void Hub::adopt(Live& live, std::unique_ptr<room::Room> fresh) {
  // Every change has events: the same number is the same game. Never go back in time.
  if (fresh->lastEvent() <= live.room->lastEvent()) return;
  const long long had = live.room->lastEvent();
  // Presence is this instance's knowledge, not the record's: carried over by recount().
  live.room = std::move(fresh);
  delivered(live, had);
}

void Hub::delivered(Live& live, long long had) {
  // The events this instance's watchers have not had, in order.
  for (long long n = had; n < live.room->lastEvent(); ++n) {
    const Message& m = live.room->events()[static_cast<std::size_t>(n)];
    for (auto& [raw, weak] : live.watchers) {
      if (auto p = weak.lock()) p->send(m);
    }
  }
  live.lastActivity = std::chrono::steady_clock::now();
  recount(live);
  afterChange(live);
}

void Hub::recount(Live& live) {
  std::map<std::string, int> total;
  for (auto& [raw, weak] : live.watchers) {
    if (auto p = weak.lock()) ++total[p->playerId()];
  }
  for (const auto& [instance, counts] : live.remote) {
    if (!link_->alive(instance)) continue;  // silent: suspended, not forgotten (it may be paused)
    for (const auto& [player, n] : counts) total[player] += n;
  }
  room::Room& room = *live.room;
  bool changed = false;
  for (std::size_t s = 0; s < 2; ++s) {
    const room::Seat& seat = room.seats()[s];
    if (s == 1 && seat.player == room.seats()[0].player) break;  // a local game: one player, counted once
    const int want = total[seat.player];
    if (want != seat.connected) changed = room.connect(seat.player, want - seat.connected, nowMs()) || changed;
  }
  if (changed) presence(live);
}

void Hub::announce(Live& live) {
  if (!link_) return;
  std::map<std::string, int> counts;
  for (auto& [raw, weak] : live.watchers) {
    if (auto p = weak.lock()) ++counts[p->playerId()];
  }
  link_->publishConnections(live.room->id(), counts);
}

void Hub::clusterTick() {
  // (The heartbeats have a thread of their own: ClusterLink::startBeating.)
  const auto gone = link_->lapsed();
  const auto back = link_->returned();
  if (!gone.empty()) logInfo("instances_gone", {{"instances", gone}});
  if (!back.empty()) {
    Json names = Json::array();
    for (const auto& [name, restarted] : back) names.push_back(Json{{"instance", name}, {"restarted", restarted}});
    logInfo("instances_back", {{"instances", names}});
  }
  std::vector<LivePtr> games;
  {
    std::lock_guard lock(gamesMu_);
    for (auto& [id, live] : games_) games.push_back(live);
  }
  const auto now = std::chrono::steady_clock::now();
  if (gone.empty() && ticks_ % (10 * kSweepEvery) == 0) catchUp(games, now);
  for (const LivePtr& live : games) {
    std::lock_guard lock(live->mu);
    if (live->gone) continue;
    // What a silent instance stored last may have died in its publish queue: read the record.
    if (!gone.empty()) refresh(*live);
    // A silent instance's connections are suspended (recount() leaves them out); one heard again
    // has them back, unless it is a new process, whose old connections are gone for good.
    bool lapsedHere = false;
    for (const std::string& instance : gone) lapsedHere = live->remote.count(instance) > 0 || lapsedHere;
    bool changed = lapsedHere;
    for (const auto& [instance, restarted] : back) {
      if (restarted)
        changed = live->remote.erase(instance) > 0 || changed;
      else
        changed = live->remote.count(instance) > 0 || changed;
    }
    if (changed) {
      recount(*live);
      afterChange(*live);
    }
    // An AI turn another instance took may have died with it: when that instance went silent, or
    // when the AI is late by its whole budget and a margin (an instance dead before it was ever
    // heard), whoever holds the game thinks again; the store keeps one move.
    const room::Room& room = *live->room;
    if (!room.aiToMove() || live->aiQueued) continue;
    const int budget = aiBudgetMs(room.spec().level, room.clockLeftToMove(now), room.spec().clock.increment);
    if (lapsedHere || now - live->lastActivity > std::chrono::milliseconds(budget + kSilentMs)) maybeAi(live);
  }
}

void Hub::reannounce() {
  // This instance was not heard for a while (stopped, starved): the others suspended its
  // connections, and may have reloaded games meanwhile. Say again who watches what from here.
  std::vector<LivePtr> games;
  {
    std::lock_guard lock(gamesMu_);
    for (auto& [id, live] : games_) games.push_back(live);
  }
  long long announced = 0;
  for (const LivePtr& live : games) {
    std::lock_guard lock(live->mu);
    if (live->gone || live->watchers.empty()) continue;
    announce(*live);
    ++announced;
  }
  logInfo("presence_announced_again", {{"games", announced}});
}

bool Hub::checkClaim(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg, Live& live) {
  // A claim in a cluster is decided on the truth, not on this copy's idea of the opponent's
  // presence: the instances holding the game are asked who is connected (their answers update the
  // copy), and the claim is run once they have had the time to answer.
  if (!link_) return false;
  const room::Room& room = *live.room;
  const auto side = room.seatOf(peer->playerId());
  if (!side || !room.spec().rated || room.over()) return false;
  const auto at = room.claimAt(static_cast<std::size_t>(1 - index(*side)));
  if (!at || nowMs() < *at) return false;  // refused anyway, at once
  std::lock_guard lock(claimsMu_);
  for (const PendingClaim& c : claims_) {
    // The same claim asked again meanwhile: the one waiting answers it.
    if (c.msg.game == msg.game && c.peer.lock() == peer) return true;
  }
  if (claims_.size() >= 10000) return false;  // (bounded: past it, decided on the copy)
  link_->publishAsk(room.id());
  claims_.push_back(PendingClaim{peer, msg, std::chrono::steady_clock::now() + kClaimCheck});
  return true;
}

void Hub::dueClaims() {
  std::vector<PendingClaim> due;
  {
    std::lock_guard lock(claimsMu_);
    const auto now = std::chrono::steady_clock::now();
    for (auto it = claims_.begin(); it != claims_.end();) {
      if (it->due <= now) {
        due.push_back(std::move(*it));
        it = claims_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const PendingClaim& c : due) {
    if (auto p = c.peer.lock()) act(p, c.msg, true);
  }
}

void Hub::catchUp(const std::vector<LivePtr>& games, std::chrono::steady_clock::time_point now) {
  // The bus delivers at most once: an action whose publish died with its instance (one that died
  // before it was ever heard, so never found silent) or fell out of a full queue leaves a copy
  // behind for good unless another action comes. The quiet games are compared with the record.
  std::vector<LivePtr> quiet;
  for (const LivePtr& live : games) {
    std::lock_guard lock(live->mu);
    if (live->gone || live->room->over() || now - live->lastActivity < std::chrono::milliseconds(kSilentMs)) continue;
    quiet.push_back(live);
  }
  reloadBehind(quiet);
}

void Hub::reloadBehind(const std::vector<LivePtr>& copies) {
  // The copies' last events are compared with the record's in one read, and only the copies
  // behind it are reloaded.
  std::vector<std::string> ids;
  std::vector<long long> had;
  for (const LivePtr& live : copies) {
    std::lock_guard lock(live->mu);
    ids.push_back(live->room->id());
    had.push_back(live->room->lastEvent());
  }
  if (ids.empty()) return;
  auto last = store_.lastEvents(ids);  // no game's lock is held across the read
  if (!last || last->size() != ids.size()) {
    if (!last) logWarn("catch_up_failed", {{"what", last.error().message}});
    return;
  }
  for (std::size_t i = 0; i < copies.size(); ++i) {
    if ((*last)[i] <= had[i]) continue;
    std::lock_guard lock(copies[i]->mu);
    if (copies[i]->gone || copies[i]->room->lastEvent() >= (*last)[i]) continue;
    metrics_.busCaughtUp++;
    refresh(*copies[i]);
  }
}

Outcome<Hub::LivePtr> Hub::findCurrent(const std::string& id) {
  auto live = find(id);
  if (!live || !link_) return live;
  // A watcher's copy may lag the bus by a moment (or for good, while Redis is away) and the
  // watcher still gets every event in order. An HTTP read has no follow-up: it is answered from
  // the record (one cheap read of its last event number), as a move from a copy behind is refused
  // by the record's conflict and reloaded.
  reloadBehind({*live});
  return live;
}

void Hub::resync() {
  logInfo("bus_resync", {});
  std::vector<LivePtr> games;
  {
    std::lock_guard lock(gamesMu_);
    for (auto& [id, live] : games_) games.push_back(live);
  }
  for (const LivePtr& live : games) {
    std::lock_guard lock(live->mu);
    if (live->gone) continue;
    refresh(*live);
    link_->publishAsk(live->room->id());
    if (!live->watchers.empty()) announce(*live);
  }
  // A Redis that restarted has lost the shared live list: write every line listed here again,
  // changed or not (afterChange() writes a line only when it changes, so a quiet game would stay
  // out of every instance's list, lobby counts and friends' `playing` until its next move).
  std::vector<std::tuple<std::string, long long, Json>> lines;
  {
    std::lock_guard lock(liveMu_);
    for (const auto& [key, line] : live_) lines.emplace_back(key.second, key.first, line.view);
  }
  for (const auto& [id, created, line] : lines) link_->setLiveLine(id, created, line);
}

}  // namespace semis::server
