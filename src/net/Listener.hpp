#pragma once
// The listener: accepts TCP connections on the network threads and hands each to an HTTP session,
// under the connection limits (in all, and waiting for a request per address).

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "net/Sessions.hpp"

namespace semis::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& ioc, ServerContext& ctx) : ioc_(ioc), acceptor_(ioc), ctx_(ctx) {}

  // Binds and listens; the port it got (0 asks for a free one).
  Result<unsigned short> open(const std::string& address, unsigned short port);
  void accept();  // the accept loop: runs until close()
  void close();

 private:
  // Out of descriptors or memory, accept() fails at once again until some are freed: pause. Any
  // other failure (a peer gone before its accept) is retried at once, unless it keeps happening.
  bool shouldPause(const boost::system::error_code& ec);
  void accepted(boost::asio::ip::tcp::socket socket);
  // Wait a little instead of spinning, and say so once per pause rather than once per failure.
  void backOff(const boost::system::error_code& ec);

  static constexpr std::chrono::milliseconds kAcceptRetry{100};

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  ServerContext& ctx_;
  boost::asio::steady_timer retry_{ioc_};
  bool paused_ = false;  // accept() is failing
  long long failures_ = 0;
  int otherFailures_ = 0;  // accept() failures in a row that did not pause it
};

}  // namespace semis::server
