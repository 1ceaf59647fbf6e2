#pragma once
// The bots' gateway (docs/bots.md): programmers' Kalah bots connect over the Kalah Game Protocol
// (KGP, kgp/), on a TCP port of their own (--kgp-port) or a WebSocket at /kgp, sign in with their
// bot's token and play the games the site seats them in. The gateway knows which bot is connected
// here (one connection a bot) and tells a connection when one of its games changed; each
// connection then reads its game from the hub (typed) and plays through it as any player does.

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "accept/AcceptLoop.hpp"
#include "bots/BotService.hpp"
#include "gateway/BotConnection.hpp"
#include "http/Router.hpp"
#include "hub/BotHooks.hpp"
#include "hub/Hub.hpp"

namespace semis::server {

struct GatewayOptions {
  int moveMs = 5000;        // a bot's time for a move (KGP `stop` when it runs out)
  int pingEveryMs = 15000;  // the server's `ping`s; a bot that does not answer within pingWaitMs loses
  int pingWaitMs = 30000;
  int maxConnections = 1000;      // KGP connections in all (TCP and WebSocket)
  long long poolAfterMs = 10000;  // a bot with no game this long is paired in the freeplay pool (0: no pool)
};

class KgpGateway final : public BotHooks {
 public:
  KgpGateway(Hub& hub, store::Store& store, Players& players, BotService& accounts, GatewayOptions options);
  ~KgpGateway() override;

  // Listens for bots over TCP on `port` (0: a free one); the port, or why not.
  Outcome<unsigned short> listen(boost::asio::io_context& ioc, const std::string& address, unsigned short port);
  void close();  // stops listening; connections end with the server's shutdown
  // A /kgp WebSocket (net/HttpSession, after the upgrade's checks).
  void acceptWebSocket(boost::beast::tcp_stream stream,
                       boost::beast::http::request<boost::beast::http::string_body> request,
                       const std::string& address);

  // Every 100 ms (the server's tick): the freeplay pool pairs the bots that wait.
  void tick();

  // BotHooks.
  Outcome<std::string> playable(const std::string& name, const Rules& rules) override;
  void gameChanged(const std::string& gameId, const std::array<std::string, 2>& seats) override;

  // For connections: the only live connection of `botId`, or a refusal if another holds it.
  Outcome<void> claim(const std::string& botId, const std::shared_ptr<BotConnection>& connection);
  void release(const std::string& botId, const BotConnection* connection);
  [[nodiscard]] bool connected(const std::string& botId);
  [[nodiscard]] std::vector<BotInfo> online();

  // A connection's acts, as a player's through the hub.
  [[nodiscard]] Outcome<std::vector<std::string>> openGames(const std::string& botId, std::size_t limit);
  void joinGame(const std::shared_ptr<Peer>& peer, const std::string& gameId);
  void leaveGame(const std::shared_ptr<Peer>& peer, const std::string& gameId);
  void move(const std::shared_ptr<Peer>& peer, const std::string& gameId, int house);
  void resign(const std::shared_ptr<Peer>& peer, const std::string& gameId);
  void claimWin(const std::shared_ptr<Peer>& peer, const std::string& gameId);

  [[nodiscard]] Hub& hub() { return hub_; }
  [[nodiscard]] BotService& accounts() { return accounts_; }
  // A bot without a token: a fresh guest (KGP lets any bot play; it plays the pool only, unrated).
  [[nodiscard]] Identity guest(const std::string& address);
  [[nodiscard]] const GatewayOptions& options() const { return options_; }
  // A game's own move time (a bots' match or tournament, contests/), else options().moveMs. Set
  // before any bot connects.
  using MoveTimes = std::function<std::optional<int>(const std::string& gameId)>;
  void setMoveTimes(MoveTimes moveTimes) { moveTimes_ = std::move(moveTimes); }
  [[nodiscard]] int moveMsOf(const std::string& gameId) const;
  bool enter();  // a place under maxConnections
  void leave();

 private:
  Hub& hub_;
  store::Store& store_;
  Players& players_;
  BotService& accounts_;
  GatewayOptions options_;
  std::shared_ptr<AcceptLoop> loop_;  // --kgp-port's
  std::mutex mu_;  // bots_ only; never held across a call out
  std::unordered_map<std::string, std::weak_ptr<BotConnection>> bots_;
  std::atomic<int> connections_{0};
  long long lastPool_ = 0;
  MoveTimes moveTimes_;
  int poolLevel_ = 0;  // the built-in level the next lone bot meets, in turn
};

// GET /api/bots/online: the bots connected here, for the page's list (before addBotRoutes).
void addGatewayRoutes(Router& routes, KgpGateway& gateway);

// The rules a bot can be asked to play: Kalah boards, one set, no swap (KGP says nothing more).
[[nodiscard]] bool kgpPlayable(const Rules& rules);

}  // namespace semis::server
