#include "accept/AcceptLoop.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <cerrno>

#include "ops/Log.hpp"

namespace semis::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

AcceptLoop::AcceptLoop(net::io_context& ioc, std::string name, Handler handler)
    : ioc_(ioc),
      name_(std::move(name)),
      handler_(std::move(handler)),
      acceptor_(net::make_strand(ioc)),
      retry_(acceptor_.get_executor()) {}

Result<unsigned short> AcceptLoop::open(const std::string& address, unsigned short port) {
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

void AcceptLoop::start() {
  reserveStart_ = reserveStart();  // once, not at every connection: the limit is set before any port opens
  net::post(acceptor_.get_executor(), [self = shared_from_this()] { self->accept(); });
}

void AcceptLoop::close() {
  // On the acceptor's strand, where its handlers run; a back-off timer still waiting is cancelled.
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
    self->retry_.cancel();
  });
}

int AcceptLoop::reserveFor(long long openFilesLimit) {
  return static_cast<int>(std::clamp<long long>(openFilesLimit / 4, 0, 64));
}

long long AcceptLoop::reserveStart() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return kNoReserve;
  const auto limit = static_cast<long long>(lim.rlim_cur);
  return limit - reserveFor(limit);
}

void AcceptLoop::accept() {
  acceptor_.async_accept(net::make_strand(ioc_),
                         [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
                           // No exception leaves a network handler, and the loop goes on whatever happened.
                           try {
                             if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
                             if (ec && self->shouldPause(ec)) return self->backOff(ec.message());
                             if (!ec && socket.native_handle() >= self->reserveStart_) {
                               boost::system::error_code ignored;
                               socket.close(ignored);
                               return self->backOff("descriptors kept in reserve");
                             }
                             if (!ec) self->accepted(std::move(socket));
                           } catch (const std::exception& e) {
                             logLine("error", "accept_handler_failed", {{"port", self->name_}, {"what", e.what()}});
                           }
                           self->accept();
                         });
}

bool AcceptLoop::shouldPause(const boost::system::error_code& ec) {
  const int e = ec.value();
  const bool exhausted =
      ec.category() == boost::system::system_category() && (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM);
  return exhausted || ++otherFailures_ > 16;
}

void AcceptLoop::accepted(tcp::socket socket) {
  otherFailures_ = 0;
  if (paused_) {
    paused_ = false;
    logInfo("accept_resumed", {{"port", name_}, {"failures", failures_}});
    failures_ = 0;
  }
  handler_(std::move(socket));
}

void AcceptLoop::backOff(const std::string& why) {
  ++failures_;
  otherFailures_ = 0;
  if (!paused_) {
    paused_ = true;
    logWarn("accept_paused", {{"port", name_}, {"what", why}, {"retry_ms", kRetry.count()}});
  }
  retry_.expires_after(kRetry);
  retry_.async_wait([self = shared_from_this()](boost::system::error_code waitEc) {
    if (waitEc || !self->acceptor_.is_open()) return;
    self->accept();
  });
}

}  // namespace semis::server
