#pragma once
// One bot's connection (TCP or WebSocket): the KGP session (kgp/Session) driven by the bytes read
// and a timer, and the bot's games played through the hub as any player plays them. Everything
// runs on the connection's strand; the hub's calls (send, closeSoon) and the gateway's word that a
// game changed are posted to it.

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "hub/Peer.hpp"
#include "identity/Identity.hpp"
#include "kgp/LineReader.hpp"
#include "kgp/Session.hpp"
#include "limits/Buckets.hpp"

namespace semis::server {

class KgpGateway;

class BotConnection : public Peer, public std::enable_shared_from_this<BotConnection> {
 public:
  BotConnection(KgpGateway& gateway, boost::asio::any_io_executor strand, std::string address);
  ~BotConnection() override;

  // Peer: the hub's messages are JSON for pages; a bot reads its games from the hub instead.
  void send(Message message) override;
  void closeSoon() override;
  [[nodiscard]] const std::string& token() const override { return token_; }
  [[nodiscard]] const std::string& playerId() const override { return me_.id; }
  [[nodiscard]] const std::string& address() const override { return address_; }

  // The gateway: one of the bot's games changed (any thread).
  void look(const std::string& gameId);
  // Since when (unix ms) this signed-in bot has had no game; 0 while it has one or is not ready.
  [[nodiscard]] long long idleSince() const { return idleSince_.load(); }
  void paired() { idleSince_ = 0; }
  [[nodiscard]] bool anonymous() const {
    return anonymous_;
  }  // no token: a guest (set before it waits)  // the pool gave it a game: not waiting until its next look
  [[nodiscard]] const Identity& identity() const { return me_; }  // set once, before the gateway lists it

 protected:
  // Called by the transport, on the strand.
  void opened();
  void received(std::string_view bytes);
  void ended();
  // The transport's side: one KGP line out (without its newline), and closing once written.
  virtual void writeLine(std::string line) = 0;
  virtual void shutdown() = 0;
  [[nodiscard]] bool isOpen() const { return open_; }

 private:
  void apply(kgp::Output out);
  void act(const kgp::Action& action);
  void authenticate(const std::string& token);
  void ready(bool authenticated);
  void scan();  // the bot's unfinished games, from the store: joined, looked at
  void next();  // offers the next game where it is the bot's turn, if none is offered
  void decided(const std::string& gameId, int house);
  void unresponsive();
  void idle();  // idleSince_ as the games say
  void watchTimer();
  void finish();
  void close(bool byServer);  // finish() (the server ends it) and ended() (the bot did)
  void leave();  // no longer this bot's connection, here or on any instance (once)

  TokenBucket lines_;  // the bot's lines a second
  int dropped_ = 0;    // lines dropped in a row
  long long nextScan_ = 0;
  KgpGateway& gateway_;
  boost::asio::any_io_executor strand_;
  boost::asio::steady_timer timer_;
  std::string address_;
  std::string token_;  // a bot signs in with its bot token, not a cookie: none here
  Identity me_;
  bool signedIn_ = false;
  bool ready_ = false;  // `mode freeplay` said
  bool anonymous_ = false;
  bool left_ = false;
  bool claimed_ = false;
  bool open_ = false;
  kgp::LineReader reader_;
  kgp::Session session_;
  std::set<std::string> joined_;        // games this connection watches through the hub
  std::set<std::string> absent_;        // ... of those, the ones waiting on an opponent who left
  std::deque<std::string> toLook_;      // games to look at, in order
  std::optional<std::string> offered_;  // the game whose turn the bot has now
  std::atomic<long long> idleSince_{0};
};

}  // namespace semis::server
