#include "net/Listener.hpp"

#include <limits>

namespace semis::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

Result<unsigned short> Listener::open(const std::string& address, unsigned short port) {
  // The loop holds the listener weakly: the listener holds the loop.
  loop_ = std::make_shared<AcceptLoop>(ioc_, "game", [weak = weak_from_this()](tcp::socket socket) {
    if (auto self = weak.lock()) self->accepted(std::move(socket));
  });
  return loop_->open(address, port);
}

void Listener::accept() {
  if (loop_) loop_->start();
}

void Listener::close() {
  if (loop_) loop_->close();
}

void Listener::accepted(tcp::socket socket) {
  boost::system::error_code ec;
  if (ctx_.connections >= ctx_.options.maxConnections + 100) {
    socket.close(ec);  // over the limit: refuse at once
    return;
  }
  const auto remote = socket.remote_endpoint(ec);
  if (ec) return;  // gone already
  // Connections waiting for a request, per address: idle sockets from one place cannot fill the
  // server (HttpSession counts a kept-alive connection again while it waits for the next one).
  // Our own proxy's connections are not limited here (it holds many, for every visitor): each
  // request's forwarded address is counted once it is read.
  const bool proxy = ctx_.options.trustProxy && proxyPeer(remote.address());
  auto pending = ctx_.pendingByAddress.take(
      addressKey(remote.address()), proxy ? std::numeric_limits<int>::max() : ctx_.options.maxPendingPerAddress);
  if (!pending.held()) {
    socket.close(ec);
    return;
  }
  socket.set_option(tcp::no_delay(true), ec);
  startHttpSession(std::move(socket), ctx_, std::move(pending));
}

}  // namespace semis::server
