#include "club/Matchmaker.hpp"

#include <algorithm>
#include <cmath>

#include "accounts/Tokens.hpp"
#include "club/Ratings.hpp"
#include "lobby/Pairing.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "rating/Glicko2.hpp"
#include "rating/RatedKey.hpp"

namespace semis::server {

namespace {

constexpr long long kSeekLifeMs = 10 * 60 * 1000;
constexpr std::size_t kSeeksPerPlayer = 4;
constexpr std::size_t kLobbyList = 100;

// Seeks pair only with the same game, clock and rated flag.
std::string poolOf(const store::SeekRow& s) {
  return s.rules + '|' + std::to_string(s.clockSeconds) + '+' + std::to_string(s.clockIncrement) +
         (s.rated ? "|r" : "|c");
}

protocol::GameSpec specOf(const store::SeekRow& s) {
  protocol::GameSpec spec;
  spec.rules = *parseRules(s.rules);  // written by seek() from parsed rules
  spec.mode = protocol::Mode::Friend;
  spec.clock = {s.clockSeconds, s.clockIncrement};
  spec.rated = s.rated;
  return spec;
}

Json clockJson(const store::SeekRow& s) {
  if (s.clockSeconds <= 0) return nullptr;
  return Json{{"seconds", s.clockSeconds}, {"increment", s.clockIncrement}};
}

}  // namespace

void Matchmaker::error(Peer& peer, const std::string& code, const std::string& message) {
  Metrics::refused("ws", code);
  peer.send(text(protocol::errorMessage(code, message)));
}

void Matchmaker::seek(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  const std::string& player = peer->playerId();
  const protocol::GameSpec& spec = *msg.spec;
  const auto key = rating::ratedKey(spec.rules);
  if (msg.club.rated) {
    if (!key) return error(*peer, "not_rated", "only a game at its standard options is rated: this one is casual");
    auto account = club_.accountOf(player);
    if (!account) return error(*peer, "busy", "the store is unavailable: try again");
    if (!*account) return error(*peer, "account_needed", "rated games need an account: sign up first");
  }
  store::SeekRow row;
  row.id = accounts::randomId(10);
  row.player = player;
  row.rules = toString(spec.rules);
  row.key = key && msg.club.rated ? *key : "";
  row.clockSeconds = spec.clock.seconds;
  row.clockIncrement = spec.clock.increment;
  row.rated = msg.club.rated;
  row.rating = key ? ratings_.current(player, *key).rating : 1500;
  row.range = msg.club.range;
  row.quick = msg.club.quick;
  row.created = nowMs();
  {
    std::lock_guard lock(mu_);
    std::size_t open = 0;
    for (const auto& [id, m] : mine_) open += m.player == player ? 1 : 0;
    if (open >= kSeeksPerPlayer) return error(*peer, "too_many_seeks", "you have 4 open seeks: cancel one first");
  }
  if (auto stored = players_.ensureStored(players_.identify(peer->token(), peer->address())); !stored)
    return error(*peer, stored.error().code, stored.error().message);
  if (auto r = club_.createSeek(row); !r) {
    // The store keeps one open seek per player, game and clock, on every instance at once.
    if (r.error().fault == store::Fault::Conflict)
      return error(*peer, "already_seeking", "you already seek this game with this clock: wait for it, or cancel it");
    return error(*peer, "busy", "the store failed: nothing was changed");
  }
  {
    std::lock_guard lock(mu_);
    mine_[row.id] = Mine{peer, player};
  }
  peer->send(text(Json{{"type", "seeking"}, {"seek", row.id}}));
}

void Matchmaker::cancel(const std::shared_ptr<Peer>& peer, const std::string& seekId) {
  auto r = club_.cancelSeek(seekId, peer->playerId());
  if (!r) return error(*peer, "busy", "the store failed: try again");
  if (!*r) return error(*peer, "not_found", "no open seek of yours with this id (paired already?)");
  {
    std::lock_guard lock(mu_);
    mine_.erase(seekId);
  }
  peer->send(text(Json{{"type", "seek_cancelled"}, {"seek", seekId}}));
}

void Matchmaker::accept(const std::shared_ptr<Peer>& peer, const std::string& seekId) {
  auto found = club_.seek(seekId);
  if (!found) return error(*peer, "busy", "the store is unavailable: try again");
  if (!*found || !(*found)->game.empty()) return error(*peer, "not_found", "this seek is gone (paired or cancelled)");
  const store::SeekRow& theirs = **found;
  const std::string& player = peer->playerId();
  if (theirs.player == player) return error(*peer, "bad_message", "this is your own seek");
  if (theirs.rated) {
    auto account = club_.accountOf(player);
    if (!account) return error(*peer, "busy", "the store is unavailable: try again");
    if (!*account) return error(*peer, "account_needed", "rated games need an account: sign up first");
  }
  const double mine = theirs.key.empty() ? 1500 : ratings_.current(player, theirs.key).rating;
  if (!lobby::acceptsLobby(theirs.rating, theirs.range, mine))
    return error(*peer, "out_of_range", "your rating is outside this seek's range");
  if (auto blocked = club_.blockedEitherWay(player, theirs.player); blocked && *blocked)
    return error(*peer, "not_found", "this seek is gone (paired or cancelled)");
  if (auto stored = players_.ensureStored(players_.identify(peer->token(), peer->address())); !stored)
    return error(*peer, stored.error().code, stored.error().message);
  // The accepter's side of the pairing is a seek too, made and paired at once.
  store::SeekRow own = theirs;
  own.id = accounts::randomId(10);
  own.player = player;
  own.rating = mine;
  own.created = nowMs();
  if (auto r = club_.createSeek(own); !r) {
    if (r.error().fault == store::Fault::Conflict)
      return error(*peer, "already_seeking",
                   "you seek this game with this clock already: cancel your seek to accept this one");
    return error(*peer, "busy", "the store failed: nothing was changed");
  }
  if (!pair(theirs, own)) {
    (void)club_.cancelSeek(own.id, player);  // (best effort: it expires anyway)
    return error(*peer, "not_found", "this seek was taken meanwhile");
  }
}

bool Matchmaker::pair(const store::SeekRow& a, const store::SeekRow& b) {
  // Sides drawn at random: neither seeker chose.
  const bool aSouth = accounts::randomId(1)[0] < 'a';
  const std::array<std::string, 2> players = aSouth ? std::array{a.player, b.player} : std::array{b.player, a.player};
  auto created = hub_.createPaired(specOf(a), players,
                                   [&](const store::GameRow& row) { return club_.pairSeeks(a.id, b.id, row, {}); });
  if (!created) {
    if (created.error().code != "conflict")
      logWarn("pairing_failed", {{"a", a.id}, {"b", b.id}, {"what", created.error().message}});
    return false;
  }
  const std::string& game = *created;
  logInfo("paired", {{"game", game}, {"rated", a.rated}, {"rules", a.rules}});
  for (const store::SeekRow* s : {&a, &b}) {
    hub_.notify(s->player, Json{{"type", "paired"}, {"seek", s->id}, {"game", game}, {"link", "/g/" + game}});
  }
  std::lock_guard lock(mu_);
  mine_.erase(a.id);
  mine_.erase(b.id);
  return true;
}

void Matchmaker::pairPass(const std::vector<store::SeekRow>& open) {
  std::vector<lobby::Seeker> quick;
  std::vector<const store::SeekRow*> rows;
  for (const store::SeekRow& s : open) {
    if (!s.quick) continue;
    quick.push_back(lobby::Seeker{s.id, s.player, poolOf(s), s.rating, s.created, s.rated});
    rows.push_back(&s);
  }
  if (quick.size() < 2) return;
  std::map<std::pair<std::string, std::string>, bool> blockedCache;
  auto blocked = [&](const std::string& x, const std::string& y) {
    auto k = std::minmax(x, y);
    auto [it, fresh] = blockedCache.try_emplace({k.first, k.second}, false);
    if (fresh) {
      auto r = club_.blockedEitherWay(x, y);
      it->second = !r || *r;  // unknown: not paired this time
    }
    return it->second;
  };
  for (const auto& [i, j] : lobby::pairQuick(quick, nowMs(), blocked)) {
    if (!pair(*rows[i], *rows[j])) continue;
    // Paired: the players' other open seeks go (one game at a time).
    for (const store::SeekRow& s : open) {
      const bool theirs = s.player == rows[i]->player || s.player == rows[j]->player;
      if (theirs && s.id != rows[i]->id && s.id != rows[j]->id) (void)club_.cancelSeek(s.id, s.player);
    }
  }
}

Json Matchmaker::lobbyFrom(const std::vector<store::SeekRow>& open) {
  Json counts = Json::object();
  for (const std::string& key : rating::ratedKeys()) counts[key] = Json{{"searching", 0}, {"playing", 0}};
  Json seeks = Json::array();
  for (const store::SeekRow& s : open) {
    const auto rules = parseRules(s.rules);
    const auto key = rules ? rating::ratedKey(*rules) : std::nullopt;
    if (key) counts[*key]["searching"] = counts[*key]["searching"].get<long long>() + 1;
    if (s.quick || seeks.size() >= kLobbyList) continue;
    seeks.push_back(
        Json{{"id", s.id},
             {"player", {{"id", s.player}, {"name", players_.nameOf(s.player)}, {"rating", std::round(s.rating)}}},
             {"rules", s.rules},
             {"key", key ? Json(*key) : Json(nullptr)},
             {"clock", clockJson(s)},
             {"rated", s.rated},
             {"range", s.range},
             {"quick", s.quick},
             {"created", s.created}});
  }
  const LiveList live = hub_.liveGames();
  for (const LiveLine& g : live.games) {
    const auto rules = parseRules(g.rules);
    const auto key = rules ? rating::ratedKey(*rules) : std::nullopt;
    if (key) counts[*key]["playing"] = counts[*key]["playing"].get<long long>() + 1;
  }
  return Json{{"online", live.online},
              {"counts", counts},
              {"seeks", seeks},
              {"searching", static_cast<long long>(open.size())}};
}

Json Matchmaker::lobby() {
  auto open = club_.openSeeks();
  return lobbyFrom(open ? *open : std::vector<store::SeekRow>{});
}

void Matchmaker::watchLobby(const std::shared_ptr<Peer>& peer, bool on) {
  {
    std::lock_guard lock(mu_);
    if (on)
      watchers_[peer.get()] = peer;
    else
      watchers_.erase(peer.get());
  }
  if (on) {
    Json j = lobby();
    j["type"] = "lobby";
    peer->send(text(j));
  }
}

void Matchmaker::detached(Peer* peer) {
  std::vector<std::pair<std::string, std::string>> gone;
  {
    std::lock_guard lock(mu_);
    watchers_.erase(peer);
    for (auto it = mine_.begin(); it != mine_.end();) {
      auto p = it->second.peer.lock();
      if (!p || p.get() == peer) {
        gone.emplace_back(it->first, it->second.player);
        it = mine_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& [id, player] : gone) (void)club_.cancelSeek(id, player);  // (else it expires)
}

void Matchmaker::tick() {
  if (++ticks_ % 5 != 0) return;
  if (ticks_ % 300 == 0) (void)club_.expireSeeks(nowMs() - kSeekLifeMs);  // a write: twice a minute is enough
  auto open = club_.openSeeks();
  if (!open) return;
  pairPass(*open);
  if (ticks_ % 10 != 0) return;
  std::vector<std::shared_ptr<Peer>> watching;
  {
    std::lock_guard lock(mu_);
    for (auto it = watchers_.begin(); it != watchers_.end();) {
      if (auto p = it->second.lock()) {
        watching.push_back(std::move(p));
        ++it;
      } else {
        it = watchers_.erase(it);
      }
    }
  }
  if (watching.empty()) return;
  auto now = club_.openSeeks();  // after the pass: what is still open
  Json j = lobbyFrom(now ? *now : *open);
  j["type"] = "lobby";
  const Message m = text(j);
  {
    std::lock_guard lock(mu_);
    if (*m == lastLobby_) return;
    lastLobby_ = *m;
  }
  for (auto& p : watching) p->send(m);
}

}  // namespace semis::server
