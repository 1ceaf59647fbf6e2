// A bot's connection: KGP lines in, the bot's games played through the hub (docs/bots.md).

#include "gateway/BotConnection.hpp"

#include <boost/asio/post.hpp>

#include "gateway/Gateway.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"

namespace semis::server {

namespace net = boost::asio;

namespace {
// The most unfinished games a bot's connection takes up at once (the hub's own limit is per player).
constexpr std::size_t kMaxGames = 64;
constexpr long long kScanEveryMs = 2000;  // the store read for games made elsewhere
constexpr long long kPresenceMs = 10000;  // the lease the other instances see, renewed every scan
// Lines a second a bot may send (bursts of twice that); past it lines are dropped, and a bot
// that goes on flooding is closed, as a page's WebSocket is.
constexpr double kLinesPerSecond = 50;
constexpr int kMaxDropped = 200;
}  // namespace

namespace {
kgp::Session::Config sessionConfig(const GatewayOptions& o) {
  kgp::Session::Config c;
  c.pingIntervalMs = o.pingEveryMs;
  c.pongTimeoutMs = o.pingWaitMs;
  return c;
}
}  // namespace

BotConnection::BotConnection(KgpGateway& gateway, net::any_io_executor strand, std::string address)
    : lines_(TokenBucket::full(2 * kLinesPerSecond)),
      gateway_(gateway),
      strand_(strand),
      timer_(strand),
      address_(std::move(address)),
      session_(sessionConfig(gateway.options())) {}

BotConnection::~BotConnection() = default;

void BotConnection::send(Message) {
  // The hub's JSON (events, states) is for pages. A bot's game is read typed (Hub::turnOf) when
  // the gateway says it changed; nothing to do here.
}

void BotConnection::closeSoon() {
  net::post(strand_, [self = shared_from_this()] {
    if (!self->open_) return;
    self->apply(self->session_.close("the server is shutting down"));
  });
}

void BotConnection::look(const std::string& gameId) {
  net::post(strand_, [self = shared_from_this(), gameId] {
    if (!self->open_ || !self->signedIn_) return;
    if (std::find(self->toLook_.begin(), self->toLook_.end(), gameId) == self->toLook_.end()) {
      self->toLook_.push_back(gameId);
    }
    self->next();
  });
}

void BotConnection::opened() {
  open_ = true;
  apply(session_.start(nowMs()));
  watchTimer();
}

void BotConnection::received(std::string_view bytes) {
  if (!open_) return;
  // No exception leaves a network handler: a failure is logged and the connection ends.
  try {
    for (auto& line : reader_.feed(bytes)) {
      if (!open_) return;
      if (!lines_.take(2 * kLinesPerSecond, kLinesPerSecond)) {
        gateway_.hub().metrics().rateLimited++;
        if (++dropped_ > kMaxDropped) {
          logWarn("bot_flood", {{"bot", me_.id}, {"address", address_}});
          return apply(session_.close("too many lines: at most 50 a second"));
        }
        continue;
      }
      dropped_ = 0;
      apply(line ? session_.onLine(*line, nowMs()) : session_.onLineError(line.error(), nowMs()));
    }
  } catch (const std::exception& e) {
    logLine("error", "kgp_handler_failed", {{"what", e.what()}, {"bot", me_.id}});
    finish();
  }
}

void BotConnection::apply(kgp::Output out) {
  // The actions first: what the bot is told next (`ok` to its mode) holds once it reads it (it
  // is signed in, listed online on every instance).
  for (const kgp::Action& action : out.actions) {
    if (!open_) break;
    act(action);
  }
  // Gone everywhere before the bot reads its `goodbye`: no instance lists it or seats it after.
  if (out.close) leave();
  for (std::string& line : out.lines) writeLine(std::move(line));
  if (out.close) finish();
}

void BotConnection::leave() {
  if (left_) return;
  left_ = true;
  if (claimed_) gateway_.release(me_.id, this);
  if (ready_) gateway_.hub().announceAbsent(me_.id);
}

void BotConnection::act(const kgp::Action& action) {
  if (const auto* a = std::get_if<kgp::Authenticate>(&action)) return authenticate(a->token);
  if (const auto* r = std::get_if<kgp::Ready>(&action)) return ready(r->authenticated);
  if (const auto* d = std::get_if<kgp::Decided>(&action)) return decided(d->gameId, d->house);
  if (std::holds_alternative<kgp::Unresponsive>(action)) return unresponsive();
}

void BotConnection::authenticate(const std::string& token) {
  auto bot = signedIn_ ? tl::unexpected(Refusal{ErrorCode::Conflict, "already signed in", {}})
                       : gateway_.accounts().authenticate(token);
  if (bot) {
    me_ = Identity{};
    me_.id = bot->id;
    me_.name = bot->name;
    me_.address = address_;
    if (auto claimed = gateway_.claim(me_.id, shared_from_this()); !claimed) {
      bot = tl::unexpected(claimed.error());
    } else if (gateway_.hub().presentElsewhere(me_.id)) {
      // One connection a bot on a cluster too (a crashed instance's lease lapses in kPresenceMs).
      gateway_.release(me_.id, this);
      bot = tl::unexpected(Refusal{ErrorCode::Conflict, "this bot is already connected: one connection a bot", {}});
    } else {
      claimed_ = true;
      signedIn_ = true;
    }
  }
  if (!bot)
    logInfo("bot_refused", {{"address", address_}, {"why", bot.error().message}});
  else
    logInfo("bot_connected", {{"bot", me_.id}, {"name", me_.name}, {"address", address_}});
  apply(session_.authenticated(bot.has_value(), nowMs()));
}

void BotConnection::ready(bool authenticated) {
  if (!authenticated) {
    // KGP lets a bot play without a token: it plays as a guest, in the pool only, unrated.
    me_ = gateway_.guest(address_);
    anonymous_ = true;
    if (auto claimed = gateway_.claim(me_.id, shared_from_this()); !claimed) return finish();
    claimed_ = true;
    signedIn_ = true;
    logInfo("bot_connected", {{"guest", me_.id}, {"address", address_}});
  }
  if (!signedIn_) return;
  ready_ = true;
  gateway_.hub().attach(shared_from_this());
  gateway_.hub().announcePresent(me_.id, kPresenceMs, /*wait=*/true);
  nextScan_ = nowMs() + kScanEveryMs;
  scan();
}

void BotConnection::scan() {
  if (!anonymous_) {
    // A token revoked or replaced on another instance ends the connection here within a scan
    // (a store that does not answer ends nothing).
    auto still = gateway_.accounts().authenticate(session_.token());
    if (!still && still.error().code == ErrorCode::BadToken)
      return apply(session_.close("this bot's token no longer opens it"));
  }
  auto open = gateway_.openGames(me_.id, kMaxGames);
  if (!open) {
    logWarn("bot_scan_failed", {{"bot", me_.id}, {"what", open.error().message}});
    return;
  }
  // Every unfinished game, new or held: one held here is looked at when it changes (the gateway's
  // word), and again here for what changes without a move (its opponent gone, a claim due).
  for (const std::string& id : *open) {
    if (std::find(toLook_.begin(), toLook_.end(), id) == toLook_.end()) toLook_.push_back(id);
  }
  next();
}

void BotConnection::next() {
  idle();
  if (offered_) return;
  while (!toLook_.empty() && open_) {
    const std::string id = toLook_.front();
    toLook_.pop_front();
    auto turn = gateway_.hub().turnOf(id);
    if (!turn) continue;
    const int mine = turn->players[0] == me_.id ? 0 : turn->players[1] == me_.id ? 1 : -1;
    if (mine < 0) continue;
    if (turn->over) {
      absent_.erase(id);
      if (joined_.erase(id) > 0) gateway_.leaveGame(shared_from_this(), id);
      continue;
    }
    if (joined_.insert(id).second) gateway_.joinGame(shared_from_this(), id);
    const auto theirs = static_cast<std::size_t>(1 - mine);
    if (static_cast<int>(turn->position.toMove) != mine) {
      // Waiting for an opponent who left: the game does not keep the bot from the pool, and a
      // rated one is claimed once the claim is due, as a person would (docs/club.md).
      if (turn->present[theirs]) {
        absent_.erase(id);
      } else {
        absent_.insert(id);
        if (turn->rated && turn->claimAt[theirs] && nowMs() >= *turn->claimAt[theirs]) gateway_.claimWin(shared_from_this(), id);
      }
      continue;
    }
    absent_.erase(id);
    kgp::Turn t;
    t.gameId = id;
    t.rules = turn->rules;
    t.position = turn->position;
    t.opponent = turn->names[static_cast<std::size_t>(1 - mine)];
    t.uri = "/g/" + id;
    t.moveTimeMs = gateway_.moveMsOf(id);
    auto offered = session_.offerTurn(t, nowMs());
    if (!offered) {
      logWarn("bot_turn_refused", {{"bot", me_.id}, {"game", id}, {"why", offered.error().message}});
      continue;
    }
    offered_ = id;
    idle();
    apply(std::move(*offered));
    return;
  }
  idle();
}

void BotConnection::idle() {
  // Ready, signed in, no game left: the pool may pair it (the time it began to wait is kept).
  const bool waiting = ready_ && open_ && joined_.size() == absent_.size() && !offered_ && toLook_.empty();
  if (!waiting) {
    idleSince_ = 0;
  } else if (idleSince_.load() == 0) {
    idleSince_ = nowMs();
  }
}

void BotConnection::decided(const std::string& gameId, int house) {
  if (offered_ != gameId) return;
  offered_.reset();
  gateway_.move(shared_from_this(), gameId, house);
  // The move changes the game: the gateway's word brings it back here (an extra turn, the next).
  toLook_.push_back(gameId);
  next();
}

void BotConnection::unresponsive() {
  // A bot that stops answering `ping` loses its games (docs/bots.md).
  logInfo("bot_unresponsive", {{"bot", me_.id}});
  // (The session's output closes the connection once its `goodbye` is written.)
  for (const std::string& id : joined_) gateway_.resign(shared_from_this(), id);
}

void BotConnection::watchTimer() {
  timer_.expires_after(std::chrono::milliseconds(100));
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || !self->open_) return;
    try {
      const long long now = nowMs();
      if (self->ready_ && now >= self->nextScan_) {
        // A game made on another instance (a cluster) is found in the store; the other
        // instances learn that the bot is connected here.
        self->nextScan_ = now + kScanEveryMs;
        self->gateway_.hub().announcePresent(self->me_.id, kPresenceMs);
        self->scan();
      }
      self->apply(self->session_.tick(nowMs()));
    } catch (const std::exception& e) {
      logLine("error", "kgp_tick_failed", {{"what", e.what()}, {"bot", self->me_.id}});
      self->finish();
      return;
    }
    if (self->open_) self->watchTimer();
  });
}

void BotConnection::finish() { close(/*byServer=*/true); }

void BotConnection::ended() { close(/*byServer=*/false); }

void BotConnection::close(bool byServer) {
  if (!open_) return;
  open_ = false;
  timer_.cancel();
  if (signedIn_) gateway_.hub().detach(this);
  leave();
  if (byServer) {
    shutdown();
  } else if (signedIn_) {
    logInfo("bot_disconnected", {{"bot", me_.id}});
  }
}

}  // namespace semis::server
