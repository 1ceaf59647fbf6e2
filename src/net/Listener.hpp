#pragma once
// The listener: accepts TCP connections on the network threads and hands each to an HTTP session,
// under the connection limits (in all, and waiting for a request per address).

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <string>

#include "accept/AcceptLoop.hpp"
#include "net/Sessions.hpp"

namespace semis::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& ioc, ServerContext& ctx) : ioc_(ioc), ctx_(ctx) {}

  // Binds and listens; the port it got (0 asks for a free one).
  Result<unsigned short> open(const std::string& address, unsigned short port);
  void accept();  // the accept loop (accept/AcceptLoop.hpp): runs until close()
  void close();

 private:
  void accepted(boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& ioc_;
  ServerContext& ctx_;
  std::shared_ptr<AcceptLoop> loop_;
};

}  // namespace semis::server
