#pragma once
// One listening socket's accept loop. What a port does with a connection is its own (the handler);
// what every port must do when the process runs short of descriptors is here, so that the game
// port, the bots' KGP port and the health port behave alike (docs/server.md, "Limits"):
//  - Out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM), accept() fails again at once
//    until some are freed: the loop waits kRetry instead of spinning, and logs the pause once.
//  - A reserve (reserveFor): a connection given a descriptor that close to the open-files limit is
//    closed at once and the loop pauses likewise, so that visitors cannot take the descriptors the
//    server needs for its own work (a store's file, a static file read into the cache, a reconnect
//    to PostgreSQL or Redis). The kernel hands out the lowest free number, so a descriptor that
//    high means every one below it is in use.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "rules/Rules.hpp"

namespace semis::server {

class AcceptLoop : public std::enable_shared_from_this<AcceptLoop> {
 public:
  using Handler = std::function<void(boost::asio::ip::tcp::socket)>;
  // `name` tells the ports apart in the log ("game", "kgp", "health"). Each accepted socket gets a
  // strand of its own; the handler runs on the acceptor's strand, one connection at a time.
  AcceptLoop(boost::asio::io_context& ioc, std::string name, Handler handler);

  // Binds and listens; the port it got (0 asks for a free one).
  Result<unsigned short> open(const std::string& address, unsigned short port);
  void start();  // accepts until close(); reads the open-files limit (the server sets it first)
  void close();  // from any thread

  static constexpr std::chrono::milliseconds kRetry{100};
  // Descriptors kept for the server's own files: a quarter of the limit, at most 64.
  [[nodiscard]] static int reserveFor(long long openFilesLimit);

 private:
  // No reserve: no descriptor is this high.
  static constexpr long long kNoReserve = std::numeric_limits<long long>::max();
  // The lowest descriptor of the reserve under the process's open-files limit; kNoReserve without
  // a limit.
  [[nodiscard]] static long long reserveStart();
  void accept();
  void accepted(boost::asio::ip::tcp::socket socket);
  // Exhaustion pauses; any other failure (a peer gone before its accept) is retried at once, unless
  // it keeps happening.
  bool shouldPause(const boost::system::error_code& ec);
  void backOff(const std::string& why);

  boost::asio::io_context& ioc_;
  std::string name_;
  Handler handler_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_;
  long long reserveStart_ = kNoReserve;  // an accepted fd this high is closed
  bool paused_ = false;  // waiting for descriptors
  long long failures_ = 0;
  int otherFailures_ = 0;  // accept() failures in a row that did not pause it
};

}  // namespace semis::server
