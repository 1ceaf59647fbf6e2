#include "club/Friends.hpp"

#include <algorithm>
#include <map>

#include "accounts/Passwords.hpp"
#include "accounts/Tokens.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "rating/RatedKey.hpp"
#include "store/BotStore.hpp"

namespace semis::server {

namespace {

tl::unexpected<Refusal> refuse(ErrorCode code, const std::string& message) {
  return tl::unexpected(Refusal{code, message, {}});
}

const Refusal kBusy{ErrorCode::Busy, "the store is unavailable: try again", {}};
const Refusal kBot{ErrorCode::NotForBots, "a bot is no friend: play it from the bots' list", {}};
constexpr std::size_t kMaxFriends = 500;  // what one visitor's list may hold (and every list read costs)

}  // namespace

Json Friends::cardJson(const store::PlayerCard& card) {
  return Json{{"id", card.player.id},
              {"name", card.player.name},
              {"username", card.username.empty() ? Json(nullptr) : Json(card.username)}};
}

std::optional<Json> Friends::list(const std::string& player) {
  auto friends = club_.friendsOf(player);
  auto blocked = club_.blockedBy(player);
  if (!friends || !blocked) return std::nullopt;
  // Who is playing what, from the live list (shared by every instance of a cluster).
  std::map<std::string, std::string> playing;
  for (const LiveLine& g : hub_.liveGames().games) {
    for (const std::string& seated : g.players) {
      if (!seated.empty()) playing[seated] = g.id;
    }
  }
  Json f = Json::array();
  for (const store::PlayerCard& c : *friends) {
    Json j = cardJson(c);
    const auto game = playing.find(c.player.id);
    j["playing"] = game == playing.end() ? Json(nullptr) : Json(game->second);
    // Connected to this instance, or seated in a live game (the others' connections are counted,
    // not named).
    j["online"] = hub_.connectedHere(c.player.id) || game != playing.end();
    f.push_back(std::move(j));
  }
  Json b = Json::array();
  for (const store::PlayerCard& c : *blocked) b.push_back(cardJson(c));
  return Json{{"friends", f}, {"blocked", b}};
}

// A username no account has: is it a bot's name (docs/bots.md)? Then the call is refused as such.
Refusal Friends::noAccount(const std::string& username) {
  auto bot = store_.bots().botByName(accounts::usernameKey(username));
  if (!bot) return kBusy;
  if (*bot) return kBot;
  return Refusal{ErrorCode::NotFound, "no player with this username", {}};
}

Outcome<Json> Friends::add(const Identity& me, const std::string& username) {
  auto account = club_.accountByUsername(accounts::usernameKey(username));
  if (!account) return tl::unexpected(kBusy);
  if (!*account) return tl::unexpected(noAccount(username));
  const std::string& other = (*account)->player;
  if (other == me.id) return refuse(ErrorCode::BadMessage, "you cannot be your own friend");
  if (auto b = club_.blockedEitherWay(me.id, other); !b) {
    return tl::unexpected(kBusy);
  } else if (*b) {
    return refuse(ErrorCode::Blocked, "one of you has blocked the other");
  }
  if (auto stored = players_.ensureStored(me); !stored) return tl::unexpected(stored.error());
  auto mine = club_.friendsOf(me.id);
  if (!mine) return tl::unexpected(kBusy);
  if (mine->size() >= kMaxFriends) return refuse(ErrorCode::TooManyFriends, "at most 500 friends: remove one first");
  if (auto r = club_.addFriend(me.id, other, nowMs()); !r && r.error().fault != store::Fault::Conflict)
    return tl::unexpected(kBusy);
  auto card = club_.card(other);
  if (!card || !*card) return tl::unexpected(kBusy);
  Json j = cardJson(**card);
  j["online"] = hub_.connectedHere(other);
  return j;
}

Outcome<void> Friends::remove(const std::string& player, const std::string& other) {
  if (auto r = club_.removeFriend(player, other); !r) return tl::unexpected(kBusy);
  return {};
}

Outcome<void> Friends::block(const Identity& me, const std::string& username) {
  auto account = club_.accountByUsername(accounts::usernameKey(username));
  if (!account) return tl::unexpected(kBusy);
  if (!*account) return tl::unexpected(noAccount(username));
  const std::string& other = (*account)->player;
  if (other == me.id) return refuse(ErrorCode::BadMessage, "you cannot block yourself");
  if (auto stored = players_.ensureStored(me); !stored) return tl::unexpected(stored.error());
  if (auto r = club_.block(me.id, other, nowMs()); !r && r.error().fault != store::Fault::Conflict)
    return tl::unexpected(kBusy);
  (void)club_.removeFriend(me.id, other);
  (void)club_.removeFriend(other, me.id);
  return {};
}

Outcome<void> Friends::unblock(const std::string& player, const std::string& other) {
  if (auto r = club_.unblock(player, other); !r) return tl::unexpected(kBusy);
  return {};
}

void Friends::invite(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  const std::string& me = peer->playerId();
  const std::string& other = msg.club.friendId;
  auto fail = [&](ErrorCode code, const std::string& message) {
    Metrics::refused("ws", code);
    peer->send(text(protocol::errorMessage(code, message)));
  };
  if (other == me) return fail(ErrorCode::BadMessage, "you cannot invite yourself");
  if (auto bot = store_.bots().bot(other); !bot) {
    return fail(ErrorCode::Busy, "the store is unavailable: try again");
  } else if (*bot) {
    return fail(kBot.code, "a bot is not invited: play it from the bots' list");
  }
  auto friends = club_.friendsOf(me);
  if (!friends) return fail(ErrorCode::Busy, "the store is unavailable: try again");
  const bool isFriend =
      std::any_of(friends->begin(), friends->end(), [&](const store::PlayerCard& c) { return c.player.id == other; });
  if (!isFriend) return fail(ErrorCode::NotFound, "add this player to your friends first");
  if (auto b = club_.blockedEitherWay(me, other); !b || *b) return fail(ErrorCode::NotFound, "this player cannot be invited");
  protocol::GameSpec spec = *msg.spec;
  spec.mode = protocol::Mode::Friend;
  spec.rated = msg.club.rated;
  if (spec.rated) {
    if (!rating::ratedKey(spec.rules)) return fail(ErrorCode::NotRated, "only a game at its standard options is rated");
    for (const std::string* p : {&me, &other}) {
      auto a = club_.accountOf(*p);
      if (!a) return fail(ErrorCode::Busy, "the store is unavailable: try again");
      if (!*a) return fail(ErrorCode::AccountNeeded, "rated games need both players to have an account");
    }
  }
  if (auto stored = players_.ensureStored(players_.identify(peer->token(), peer->address())); !stored)
    return fail(stored.error().code, stored.error().message);
  const bool meSouth = spec.side == "S" || (spec.side == "random" && accounts::randomId(1)[0] < 'a');
  const std::array<std::string, 2> players = meSouth ? std::array{me, other} : std::array{other, me};
  auto game =
      hub_.createPaired(spec, players, [this](const store::GameRow& row) { return store_.createGame(row, {}); });
  if (!game) return fail(game.error().code, game.error().message);
  Json clock =
      spec.clock.enabled() ? Json{{"seconds", spec.clock.seconds}, {"increment", spec.clock.increment}} : Json(nullptr);
  hub_.notify(other, Json{{"type", "invited"},
                          {"game", *game},
                          {"link", "/g/" + *game},
                          {"from", {{"id", me}, {"name", players_.nameOf(me)}}},
                          {"rules", toString(spec.rules)},
                          {"clock", clock},
                          {"rated", spec.rated}});
  peer->send(text(Json{{"type", "invitation_sent"}, {"game", *game}, {"link", "/g/" + *game}}));
}

void Friends::decline(const std::shared_ptr<Peer>& peer, const std::string& game) {
  auto inviter = hub_.declineInvitation(peer, game);
  if (!inviter) {
    Metrics::refused("ws", inviter.error().code);
    return peer->send(text(protocol::errorMessage(inviter.error().code, inviter.error().message)));
  }
  if (!inviter->empty()) {
    hub_.notify(*inviter, Json{{"type", "declined"},
                               {"game", game},
                               {"by", {{"id", peer->playerId()}, {"name", players_.nameOf(peer->playerId())}}}});
  }
}

}  // namespace semis::server
