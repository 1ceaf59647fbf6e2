// The hub's game actions: each message runs the room's transition under the game's own lock, the
// change is stored, and only then published and acknowledged. AI turns and hints go to the pool.

#include "accounts/Tokens.hpp"
#include "hub/ClusterLink.hpp"
#include "hub/Hub.hpp"
#include "hub/Live.hpp"
#include "hub/RoomRows.hpp"
#include "ops/Log.hpp"
#include "views/Hints.hpp"

namespace semis::server {

namespace {

// A conflict still there after the one retry is, to the client, the server being busy.
Refusal retryable(Refusal r) {
  if (r.code == ErrorCode::Conflict) r.code = ErrorCode::Busy;
  return r;
}

}  // namespace

void Hub::sendError(Peer& peer, const Refusal& refusal, const Json& id) {
  metrics_.errors++;
  Metrics::refused("ws", refusal.code);
  Json e = protocol::errorMessage(refusal.code, refusal.message, id);
  if (refusal.n) e["n"] = *refusal.n;
  peer.send(text(e));
}

void Hub::onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  using protocol::MsgType;
  switch (msg.type) {
    case MsgType::Join:
      return join(peer, msg);
    case MsgType::Leave: {
      {
        std::lock_guard lock(peersMu_);
        if (auto it = watching_.find(peer.get()); it != watching_.end()) it->second.erase(msg.game);
      }
      return leave(*peer, msg.game);
    }
    case MsgType::Create: {
      Identity me = players_.identify(peer->token(), peer->address());
      auto created = createGame(me, *msg.spec);
      if (!created) return sendError(*peer, created.error());
      Json j{{"type", "created"}};
      for (auto& [k, v] : created->items()) j[k] = v;
      return peer->send(text(j));
    }
    case MsgType::Hello:
      return peer->send(
          text(Json{{"type", "hello"}, {"id", peer->playerId()}, {"name", players_.nameOf(peer->playerId())}}));
    case MsgType::Ping:
      return;
    case MsgType::Seek:
    case MsgType::CancelSeek:
    case MsgType::AcceptSeek:
    case MsgType::Lobby:
    case MsgType::Invite:
    case MsgType::Decline:
      if (!club_) return sendError(*peer, Refusal{ErrorCode::Unavailable, "this server has no club", {}});
      return club_->onMessage(peer, msg);
    default:
      return act(peer, msg);
  }
}

Outcome<void> Hub::commit(Live& live, const room::Room::Saved& saved, const room::Change& change,
                          std::optional<store::GameRow> created) {
  room::Room& room = *live.room;
  const store::Action action = storeAction(room, change, std::move(created), nowMs());
  if (auto r = store_.apply(action); !r) {
    room.restore(saved);
    if (r.error().fault == store::Fault::Conflict) {
      // Another instance stored this game's next action first: the record wins. Reload it (its
      // watchers here get what they missed) and let the caller try once more on the fresh game.
      metrics_.conflicts++;
      refresh(live);
      return tl::unexpected(Refusal{ErrorCode::Conflict, "the game changed meanwhile: try again", {}});
    }
    metrics_.storeErrors++;
    logWarn("store_error",
            {{"game", room.id()}, {"fault", store::faultName(r.error().fault)}, {"what", r.error().message}});
    Refusal refusal{ErrorCode::Internal, "the game store failed: nothing was changed (" + r.error().message + ")", {}};
    if (r.error().fault == store::Fault::Busy) refusal.code = ErrorCode::Busy;
    return tl::unexpected(refusal);
  }
  live.lastActivity = std::chrono::steady_clock::now();
  if (link_) link_->publishAction(action);
  publish(live, change);
  afterChange(live);
  return {};
}

void Hub::publish(Live& live, const room::Change& change) {
  const auto& events = live.room->events();
  for (const room::EventRecord& e : change.events) {
    const Message& m = events[static_cast<std::size_t>(e.n - 1)];
    for (auto it = live.watchers.begin(); it != live.watchers.end();) {
      if (auto p = it->second.lock()) {
        p->send(m);
        ++it;
      } else {
        it = live.watchers.erase(it);
      }
    }
  }
}

void Hub::presence(Live& live) {
  auto msg = text(Json{{"type", "presence"}, {"game", live.room->id()}, {"seats", live.room->seatsJson()}});
  for (auto& [raw, weak] : live.watchers) {
    if (auto p = weak.lock()) p->send(msg);
  }
}

void Hub::afterChange(Live& live) {
  live.room->setClaimDelay(options_.claimDelayMs);  // not in the record: every room, however it came
  live.room->setNoShowDelay(options_.noShowDelayMs);
  const room::Room& room = *live.room;
  if (club_ && room.over() && room.spec().rated && !live.ratedSeen) {
    live.ratedSeen = true;
    club_->ratedGameOver(room.id());
  }
  // The live list: games being played, never a friend's game still waiting for him (its link is
  // his invitation), nor one its players have left (nothing to watch: it waits to be abandoned).
  Json line = room.summaryJson(watcherCount(live));
  bool someoneHere = false;
  for (const auto& [side, seat] : line["seats"].items()) {
    if (seat["kind"] == "human" && seat["connected"] == true) someoneHere = true;
  }
  const bool listed = !room.over() && room.full() && room.spec().mode != protocol::Mode::Local && someoneHere;
  {
    std::lock_guard lock(liveMu_);
    const auto key = std::make_pair(room.created(), room.id());
    auto it = live_.find(key);
    if (listed) {
      // In a cluster the list is shared: written when a line changes, not on every call.
      if (link_ && (it == live_.end() || it->second.view != line)) link_->setLiveLine(room.id(), room.created(), line);
      // Typed once here, not on every read of the list.
      if (auto typed = liveLineOf(std::move(line))) live_[key] = std::move(*typed);
    } else if (it != live_.end()) {
      live_.erase(it);
      if (link_) link_->dropLiveLine(room.id());
    }
  }
  {
    std::lock_guard lock(clockMu_);
    if (room.deadline())
      clocked_.insert(room.id());
    else
      clocked_.erase(room.id());
  }
  if (room.over()) pool_.cancel(room.id());
  if (bots_ && room.spec().mode != protocol::Mode::Local)
    bots_->gameChanged(room.id(), {room.seats()[0].player, room.seats()[1].player});
}

void Hub::join(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  auto found = findCurrent(msg.game);  // a joiner's first state is the record's, whatever the bus did
  if (!found) return sendError(*peer, found.error());
  LivePtr live = *found;
  const std::string& player = peer->playerId();
  std::lock_guard lock(live->mu);
  if (live->gone) return join(peer, msg);  // evicted meanwhile: load it again
  for (int attempt = 0;; ++attempt) {
    room::Room& room = *live->room;
    if (room.holdsSeat(player) || room.over() || room.spec().mode != protocol::Mode::Friend || room.full()) break;
    // The friend with the link takes the free seat (the link is shared by the creator only: a
    // waiting game is in no list).
    Identity me = players_.identify(peer->token(), peer->address());
    if (auto r = players_.ensureStored(me); !r) return sendError(*peer, r.error());
    auto saved = room.save();
    auto change = room.take(player, players_.nameOf(player), std::chrono::steady_clock::now());
    if (!change) break;
    if (auto r = commit(*live, *saved, *change); !r) {
      if (r.error().code == ErrorCode::Conflict && attempt == 0) continue;  // reloaded: look again
      return sendError(*peer, retryable(r.error()));
    }
    maybeAi(live);
    break;
  }
  room::Room& room = *live->room;
  if (live->watchers.count(peer.get()) == 0) {
    live->watchers[peer.get()] = peer;
    {
      std::lock_guard plock(peersMu_);
      watching_[peer.get()].insert(room.id());
    }
    if (room.connect(player, +1, nowMs())) presence(*live);
    announce(*live);
    afterChange(*live);
  }
  const long long last = room.lastEvent();
  if (msg.lastEvent && *msg.lastEvent <= last && last - *msg.lastEvent <= 256) {
    for (long long n = *msg.lastEvent; n < last; ++n) peer->send(room.events()[static_cast<std::size_t>(n)]);
    return peer->send(text(Json{{"type", "caught_up"}, {"game", room.id()}, {"last_event", last}}));
  }
  Json state = room.stateJson(player, watcherCount(*live), std::chrono::steady_clock::now());
  // (this game's lock only: its players' ratings are read)
  if (club_) writeClubView(state, club_->clubView(clubGameOf(room)));
  peer->send(text(Json{{"type", "state"}, {"game", std::move(state)}}));
}

void Hub::leave(Peer& peer, const std::string& gameId) {
  LivePtr live;
  {
    std::lock_guard lock(gamesMu_);
    auto it = games_.find(gameId);
    if (it == games_.end()) return;
    live = it->second;
  }
  std::lock_guard lock(live->mu);
  if (live->watchers.erase(&peer) == 0) return;
  live->lastActivity = std::chrono::steady_clock::now();
  if (live->room->connect(peer.playerId(), -1, nowMs())) presence(*live);
  announce(*live);
  afterChange(*live);
}

void Hub::act(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg, bool claimChecked) {
  using protocol::MsgType;
  auto found = find(msg.game);
  if (!found) return sendError(*peer, found.error(), msg.id);
  LivePtr live = *found;
  std::lock_guard lock(live->mu);
  if (live->gone) return act(peer, msg, claimChecked);
  if (msg.type == MsgType::Claim && !claimChecked && checkClaim(peer, msg, *live)) return;  // decided in a moment
  if (msg.type == MsgType::Rematch) return rematch(*peer, live);
  if (msg.type == MsgType::Hint) return hint(peer, live);
  for (int attempt = 0;; ++attempt) {
    auto r = actOnce(*peer, live, msg);
    if (r) return;
    bool again = attempt == 0 && r.error().code == ErrorCode::Conflict;  // reloaded already
    if (attempt == 0 && link_ && (r.error().code == ErrorCode::NotYourTurn || r.error().code == ErrorCode::Stale)) {
      // In a cluster, a copy that missed a bus message (Redis restarting) refuses what the record
      // allows: look at the record once before saying no.
      const long long had = live->room->lastEvent();
      refresh(*live);
      again = live->room->lastEvent() != had;
    }
    if (!again) return sendError(*peer, retryable(r.error()), msg.id);
  }
}

Outcome<std::string> Hub::declineInvitation(const std::shared_ptr<Peer>& peer, const std::string& gameId) {
  auto found = findCurrent(gameId);
  if (!found) return tl::unexpected(Refusal{ErrorCode::NotFound, "no such game", {}});
  std::string inviter;
  {
    std::lock_guard lock((*found)->mu);
    const auto& seats = (*found)->room->seats();
    const int mine = seats[0].player == peer->playerId() ? 0 : seats[1].player == peer->playerId() ? 1 : -1;
    if (mine < 0) return tl::unexpected(Refusal{ErrorCode::NotAPlayer, "not your invitation", {}});
    inviter = seats[static_cast<std::size_t>(1 - mine)].player;
    if (inviter == room::kAiSeat) inviter.clear();
  }
  protocol::ClientMessage abort;
  abort.type = protocol::MsgType::Abort;
  abort.game = gameId;
  act(peer, abort);
  return inviter;
}

Outcome<void> Hub::actOnce(Peer& peer, const LivePtr& live, const protocol::ClientMessage& msg) {
  using protocol::MsgType;
  room::Room& room = *live->room;
  const std::string& player = peer.playerId();
  const auto now = std::chrono::steady_clock::now();
  auto saved = room.save();
  Outcome<room::Change> change = tl::unexpected(Refusal{ErrorCode::BadMessage, "unknown action", {}});
  switch (msg.type) {
    case MsgType::Move:
      change = room.move(player, msg.house, msg.id, msg.after, now);
      break;
    case MsgType::Resign:
      change = room.resign(player, now);
      break;
    case MsgType::OfferDraw:
      change = room.offerDraw(player, now);
      break;
    case MsgType::AcceptDraw:
      change = room.answerDraw(player, true, now);
      break;
    case MsgType::DeclineDraw:
      change = room.answerDraw(player, false, now);
      break;
    case MsgType::Swap:
      change = room.swap(player, now);
      break;
    case MsgType::Abort:
      change = room.abort(player, now);
      break;
    case MsgType::Claim:
      change = room.claim(player, nowMs(), now);
      break;
    case MsgType::TakeBack:
      change = room.takeBack(player, now);
      break;
    default:
      break;
  }
  if (!change) return tl::unexpected(change.error());
  if (auto r = commit(*live, *saved, *change); !r) return r;
  if (msg.type == MsgType::Move) {
    metrics_.moves++;
    peer.send(text(Json{{"type", "ack"}, {"id", msg.id}, {"n", *change->ack}}));
  }
  maybeAi(live);
  return {};
}

void Hub::rematch(Peer& peer, const LivePtr& live) {
  // Both players may ask at the same moment on two instances: the second write meets the first
  // (conflict), the game is reloaded with the other's request in it, and this one is tried again.
  for (int attempt = 0;; ++attempt) {
    auto r = rematchOnce(peer, live);
    if (r) return;
    if (r.error().code != ErrorCode::Conflict || attempt > 0) return sendError(peer, retryable(r.error()));
  }
}

Outcome<void> Hub::rematchOnce(Peer& peer, const LivePtr& live) {
  room::Room& room = *live->room;
  const std::string newId = accounts::randomId(10);
  auto saved = room.save();
  auto change = room.rematch(peer.playerId(), newId);
  if (!change) return tl::unexpected(change.error());
  if (change->rematch.empty()) return commit(*live, *saved, *change);
  auto fresh = std::make_shared<Live>();
  fresh->room = std::make_unique<room::Room>(newId, room.rematchSpec(), nowMs());
  fresh->room->seatPlayers(room.rematchSeats(), std::chrono::steady_clock::now());
  fresh->lastActivity = std::chrono::steady_clock::now();
  // The new game is created in the same transaction as the event that announces it.
  if (auto r = commit(*live, *saved, *change, gameRow(fresh->room->header())); !r) return r;
  // The `rematch` event is out (commit sent it): a player may already have joined the new game,
  // loading it from the record into the map. That copy is the game his socket watches: never
  // replace it (the replaced copy would get the events and he none of them).
  metrics_.gamesCreated++;
  {
    std::lock_guard lock(gamesMu_);
    if (!games_.try_emplace(newId, fresh).second) return {};
  }
  held(newId);
  std::lock_guard lock(fresh->mu);
  afterChange(*fresh);
  maybeAi(fresh);
  return {};
}

void Hub::maybeAi(const LivePtr& live) {
  room::Room& room = *live->room;
  if (!room.aiToMove() || live->aiQueued || stopping_) return;
  const auto now = std::chrono::steady_clock::now();
  const int budget = aiBudgetMs(room.spec().level, room.clockLeftToMove(now), room.spec().clock.increment);
  MoveRequest request{room.spec().rules, room.game().position(), room.spec().level, budget};
  const std::size_t plies = room.game().plies().size();
  const std::string id = room.id();
  const auto queued =
      pool_.submit(room.aiOwner(), id, [this, id, request, plies, now](const std::atomic<bool>& cancelled) {
        // The clock ran while the job waited: the search gets what is left of its budget.
        MoveRequest timed = request;
        const auto waited =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - now);
        timed.budgetMs = std::max(kMinAiBudgetMs, request.budgetMs - static_cast<int>(waited.count()));
        const int house = ai_->choose(timed, cancelled);
        if (cancelled || house <= 0) {
          // Cancelled (the game ended or the server stops): the game may be asked to think again.
          LivePtr l;
          {
            std::lock_guard lock(gamesMu_);
            if (auto it = games_.find(id); it != games_.end()) l = it->second;
          }
          if (l) {
            std::lock_guard lock(l->mu);
            l->aiQueued = false;
          }
          return;
        }
        aiMoved(id, plies, house);
      });
  if (queued == Queued::Yes) {
    live->aiQueued = true;
  } else if (queued != Queued::Stopped) {
    logWarn("ai_queue_full", {{"game", id}});
    std::lock_guard lock(clockMu_);
    aiRetry_.insert(id);
  }
}

void Hub::aiMoved(const std::string& gameId, std::size_t plies, int house) {
  auto found = find(gameId);
  if (!found) return;
  LivePtr live = *found;
  std::lock_guard lock(live->mu);
  live->aiQueued = false;
  room::Room& room = *live->room;
  auto saved = room.save();
  auto change = room.aiMove(plies, house, std::chrono::steady_clock::now());
  if (!change) {
    // The game moved on while the AI thought (a resignation, a flag, a swap): think again if needed.
    if (change.error().code != ErrorCode::Stale)
      logWarn("ai_move_refused", {{"game", gameId}, {"why", change.error().message}});
    return maybeAi(live);
  }
  if (auto r = commit(*live, *saved, *change); !r) {
    // Another instance played this turn first: the game was reloaded; think again if needed.
    if (r.error().code == ErrorCode::Conflict) return maybeAi(live);
    // Not stored: the AI's turn is still to play; tick() asks again in a second.
    std::lock_guard clock(clockMu_);
    aiRetry_.insert(gameId);
    return;
  }
  metrics_.aiMoves++;
  metrics_.moves++;
  maybeAi(live);
}

void Hub::hint(const std::shared_ptr<Peer>& peer, const LivePtr& live) {
  room::Room& room = *live->room;
  if (room.over()) return sendError(*peer, {ErrorCode::GameOver, "the game is over", {}});
  const auto side = room.seatOf(peer->playerId());
  if (!side) return sendError(*peer, {ErrorCode::NotAPlayer, "hints are for the players", {}});
  if (room.game().position().toMove != *side || !room.full())
    return sendError(*peer, {ErrorCode::NotYourTurn, "a hint is for your own turn", {}});
  // AI turns come first: while more jobs wait than the pool has threads twice over, a hint is
  // refused, so hints from many addresses cannot make every AI seat wait behind them (40 addresses
  // keeping 8 hints each made a bystander's easy AI answer after 20 s).
  HintRequest request{room.spec().rules, room.game().position(), options_.hintBudgetMs};
  const std::string id = room.id();
  const long long n = room.lastEvent();
  std::weak_ptr<Peer> weak = peer;
  // Hints are owned by the asker's address, not his player: a guest is free, so one address with
  // many cookies would otherwise hold 8 one-second jobs per cookie and make every AI seat wait
  // behind them (40 cookies: a bystander's AI answered after 21 s). Per address, the pool's
  // fairness and its bound of 8 apply to all of that address's hints together.
  const auto queued = pool_.submit(
      "hint " + peer->address(), id,
      [this, weak, request, id, n](const std::atomic<bool>& cancelled) {
        auto p = weak.lock();
        if (!p) return;
        auto h = ai_->hint(request, cancelled);
        if (!h) return sendError(*p, {ErrorCode::Busy, "no hint now: the game moved on or the server is busy", {}});
        Json j = views::hintJson(id, *h);
        j["n"] = n;
        p->send(text(j));
      },
      2 * static_cast<std::size_t>(std::max(1, options_.aiThreads)));
  if (queued != Queued::Yes) {
    sendError(*peer, {ErrorCode::Busy,
                      queued == Queued::OwnerFull ? "earlier hints from your address are still being worked on"
                                                  : "the AI is busy: try again in a moment",
                      {}});
  }
}

}  // namespace semis::server
