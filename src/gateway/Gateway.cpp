// The bots' gateway: who is connected, the games against bots, the TCP port (docs/bots.md).

#include "gateway/Gateway.hpp"

#include <boost/asio/strand.hpp>

#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "protocol/GameJson.hpp"
#include "protocol/Messages.hpp"

namespace semis::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

bool kgpPlayable(const Rules& rules) {
  return rules.preset == Preset::Kalah && rules.sets == 1 && !rules.pie && rules.stores && !rules.relay &&
         rules.first == FirstPlayer::South;
}

KgpGateway::KgpGateway(Hub& hub, store::Store& store, Players& players, BotService& accounts, GatewayOptions options)
    : hub_(hub), store_(store), players_(players), accounts_(accounts), options_(options) {
  // A revoked or replaced token ends its bot's connection at once.
  accounts_.onTokenEnded([this](const std::string& botId) {
    std::shared_ptr<BotConnection> held;
    {
      std::lock_guard lock(mu_);
      if (auto it = bots_.find(botId); it != bots_.end()) held = it->second.lock();
    }
    if (held) held->closeSoon();
  });
}

Identity KgpGateway::guest(const std::string& address) { return players_.identify("", address); }

KgpGateway::~KgpGateway() = default;

Outcome<std::string> KgpGateway::playable(const std::string& name, const Rules& rules) {
  if (!kgpPlayable(rules)) {
    return tl::unexpected(
        Refusal{ErrorCode::BadMessage, "bots play Kalah (kalah, any houses and seeds), one set, no swap", {}});
  }
  auto bot = accounts_.byName(name);
  if (!bot || bot->revoked) return tl::unexpected(Refusal{ErrorCode::NotFound, "no bot called " + name, {}});
  if (!connected(bot->id) && !hub_.presentElsewhere(bot->id))
    return tl::unexpected(Refusal{ErrorCode::Unavailable, "the bot " + bot->name + " is not connected", {}});
  return bot->id;
}

void KgpGateway::gameChanged(const std::string& gameId, const std::array<std::string, 2>& seats) {
  std::vector<std::shared_ptr<BotConnection>> lookers;
  {
    std::lock_guard lock(mu_);
    if (bots_.empty()) return;
    for (std::size_t s = 0; s < 2; ++s) {
      if (s == 1 && seats[1] == seats[0]) break;
      if (auto it = bots_.find(seats[s]); it != bots_.end()) {
        if (auto c = it->second.lock()) lookers.push_back(std::move(c));
      }
    }
  }
  for (auto& c : lookers) c->look(gameId);
}

Outcome<void> KgpGateway::claim(const std::string& botId, const std::shared_ptr<BotConnection>& connection) {
  std::lock_guard lock(mu_);
  auto& slot = bots_[botId];
  if (auto other = slot.lock(); other && other.get() != connection.get()) {
    return tl::unexpected(Refusal{ErrorCode::Conflict, "this bot is already connected: one connection a bot", {}});
  }
  slot = connection;
  return {};
}

void KgpGateway::release(const std::string& botId, const BotConnection* connection) {
  std::lock_guard lock(mu_);
  if (auto it = bots_.find(botId); it != bots_.end()) {
    auto held = it->second.lock();
    if (!held || held.get() == connection) bots_.erase(it);
  }
}

bool KgpGateway::connected(const std::string& botId) {
  std::lock_guard lock(mu_);
  auto it = bots_.find(botId);
  return it != bots_.end() && !it->second.expired();
}

std::vector<BotInfo> KgpGateway::online() {
  std::vector<std::string> ids = hub_.presentEverywhere(500);  // a cluster's other instances
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, weak] : bots_) {
      if (!weak.expired()) ids.push_back(id);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<BotInfo> bots;
  for (const std::string& id : ids) {
    if (auto info = accounts_.byId(id)) bots.push_back(*info);
  }
  std::sort(bots.begin(), bots.end(), [](const BotInfo& a, const BotInfo& b) { return a.name < b.name; });
  return bots;
}

Outcome<std::vector<std::string>> KgpGateway::openGames(const std::string& botId, std::size_t limit) {
  auto ids = store_.openGameIdsOf(botId, limit);
  if (!ids) return tl::unexpected(storeRefusal(ids.error()));
  return *ids;
}

namespace {
protocol::ClientMessage gameMessage(protocol::MsgType type, const std::string& gameId) {
  protocol::ClientMessage m;
  m.type = type;
  m.game = gameId;
  return m;
}
}  // namespace

void KgpGateway::joinGame(const std::shared_ptr<Peer>& peer, const std::string& gameId) {
  hub_.onMessage(peer, gameMessage(protocol::MsgType::Join, gameId));
}

void KgpGateway::leaveGame(const std::shared_ptr<Peer>& peer, const std::string& gameId) {
  hub_.onMessage(peer, gameMessage(protocol::MsgType::Leave, gameId));
}

void KgpGateway::move(const std::shared_ptr<Peer>& peer, const std::string& gameId, int house) {
  auto m = gameMessage(protocol::MsgType::Move, gameId);
  m.house = house;
  hub_.onMessage(peer, m);
}

void KgpGateway::resign(const std::shared_ptr<Peer>& peer, const std::string& gameId) {
  hub_.onMessage(peer, gameMessage(protocol::MsgType::Resign, gameId));
}

void KgpGateway::claimWin(const std::shared_ptr<Peer>& peer, const std::string& gameId) {
  hub_.onMessage(peer, gameMessage(protocol::MsgType::Claim, gameId));
}

bool KgpGateway::enter() {
  if (connections_.fetch_add(1) >= options_.maxConnections) {
    connections_--;
    return false;
  }
  return true;
}

void KgpGateway::leave() { connections_--; }

}  // namespace semis::server

namespace semis::server {

void KgpGateway::tick() {
  if (options_.poolAfterMs <= 0) return;
  const long long now = nowMs();
  if (now - lastPool_ < 1000) return;  // once a second is enough for a queue of bots
  lastPool_ = now;
  std::vector<std::shared_ptr<BotConnection>> waiting;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, weak] : bots_) {
      auto c = weak.lock();
      if (c && c->idleSince() > 0 && now - c->idleSince() >= options_.poolAfterMs) waiting.push_back(std::move(c));
    }
  }
  // The longest waiting first; two by two, as go-kgp's queue pairs its bots. A bot without a token
  // (a guest not stored until it plays) meets the built-in levels only.
  std::sort(waiting.begin(), waiting.end(), [](const auto& a, const auto& b) {
    if (a->anonymous() != b->anonymous()) return b->anonymous();
    return a->idleSince() < b->idleSince();
  });
  std::size_t named = 0;
  while (named < waiting.size() && !waiting[named]->anonymous()) ++named;
  protocol::GameSpec spec;
  spec.rules = presetRules(Preset::Kalah);
  spec.mode = protocol::Mode::Friend;
  std::size_t i = 0;
  for (; i + 1 < named; i += 2) {
    // Sides by the clock's parity: neither bot always opens.
    const bool flip = (now / 1000) % 2 == 1;
    const std::array<std::string, 2> players{waiting[i + (flip ? 1 : 0)]->playerId(),
                                             waiting[i + (flip ? 0 : 1)]->playerId()};
    auto created =
        hub_.createPaired(spec, players, [this](const store::GameRow& row) { return store_.createGame(row, {}); });
    if (!created) {
      logWarn("bot_pool_failed", {{"what", created.error().message}});
      continue;
    }
    waiting[i]->paired();
    waiting[i + 1]->paired();
    logInfo("bot_pool_paired", {{"game", *created}, {"south", players[0]}, {"north", players[1]}});
  }
  // A bot left alone long enough meets the built-in levels in turn.
  for (; i < waiting.size(); ++i) {
    if (!waiting[i]->anonymous() && now - waiting[i]->idleSince() < 2 * options_.poolAfterMs) continue;
    static constexpr std::array<const char*, 3> kLevels{"easy", "medium", "hard"};
    protocol::GameSpec ai = spec;
    ai.mode = protocol::Mode::Ai;
    ai.level = kLevels[static_cast<std::size_t>(poolLevel_++ % 3)];
    ai.side = (now / 1000) % 2 == 1 ? "N" : "S";
    auto created = hub_.createGame(waiting[i]->identity(), ai);
    if (created) {
      waiting[i]->paired();
    } else {
      logWarn("bot_pool_failed", {{"what", created.error().message}});
    }
  }
}

void addGatewayRoutes(Router& routes, KgpGateway& gateway) {
  routes.add("GET", "/api/bots/online", [&gateway](const ApiRequest&) {
    Json bots = Json::array();
    for (const BotInfo& b : gateway.online()) {
      bots.push_back(Json{{"id", b.id}, {"name", b.name}, {"owner", Json{{"id", b.ownerId}, {"name", b.ownerName}}}});
    }
    return ApiResponse{200, "application/json", protocol::dumpJson(Json{{"bots", bots}})};
  });
}

}  // namespace semis::server
