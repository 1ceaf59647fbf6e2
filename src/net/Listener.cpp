#include "net/Listener.hpp"

#include <boost/asio/strand.hpp>
#include <cerrno>
#include <limits>

#include "ops/Log.hpp"

namespace semis::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

Result<unsigned short> Listener::open(const std::string& address, unsigned short port) {
  boost::system::error_code ec;
  const auto addr = net::ip::make_address(address, ec);
  if (ec) return fail("bad address " + address);
  const tcp::endpoint ep(addr, port);
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return fail("cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message());
  return acceptor_.local_endpoint().port();
}

void Listener::accept() {
  acceptor_.async_accept(net::make_strand(ioc_),
                         [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
                           // No exception leaves a network handler, and the loop goes on whatever happened.
                           try {
                             if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
                             if (ec && self->shouldPause(ec)) return self->backOff(ec);
                             if (!ec) self->accepted(std::move(socket));
                           } catch (const std::exception& e) {
                             logLine("error", "accept_handler_failed", {{"what", e.what()}});
                           }
                           self->accept();
                         });
}

void Listener::close() {
  boost::system::error_code ec;
  acceptor_.close(ec);  // a back-off timer still waiting finds the acceptor closed and stops
}

bool Listener::shouldPause(const boost::system::error_code& ec) {
  const int e = ec.value();
  const bool exhausted =
      ec.category() == boost::system::system_category() && (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM);
  return exhausted || ++otherFailures_ > 16;
}

void Listener::accepted(tcp::socket socket) {
  boost::system::error_code ec;
  otherFailures_ = 0;
  if (paused_) {
    paused_ = false;
    logInfo("accept_resumed", {{"failures", failures_}});
    failures_ = 0;
  }
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

void Listener::backOff(const boost::system::error_code& ec) {
  ++failures_;
  otherFailures_ = 0;
  if (!paused_) {
    paused_ = true;
    logWarn("accept_paused", {{"what", ec.message()}, {"retry_ms", kAcceptRetry.count()}});
  }
  retry_.expires_after(kAcceptRetry);
  retry_.async_wait([self = shared_from_this()](boost::system::error_code waitEc) {
    if (waitEc || !self->acceptor_.is_open()) return;
    self->accept();
  });
}

}  // namespace semis::server
