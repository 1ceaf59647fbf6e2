#include "net/HealthPort.hpp"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <thread>

#include "accept/AcceptLoop.hpp"
#include "ops/Log.hpp"
#include "protocol/Messages.hpp"

namespace semis::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

// One connection: requests read and answered in turn, 5 s for each, 8 KiB of headers at most.
class Check : public std::enable_shared_from_this<Check> {
 public:
  Check(tcp::socket socket, const Health& health, std::atomic<int>& open)
      : stream_(std::move(socket)), health_(health), open_(open) {
    ++open_;
  }
  ~Check() { --open_; }

  void read() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(0);
    stream_.expires_after(std::chrono::seconds(5));
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->answer(self->parser_->release());
    });
  }

 private:
  void answer(const http::request<http::empty_body>& request) {
    auto response = std::make_shared<http::response<http::string_body>>();
    response->version(request.version());
    response->keep_alive(request.keep_alive());
    response->set(http::field::content_type, "application/json");
    response->set(http::field::cache_control, "no-store");
    if (request.target() != "/healthz" ||
        (request.method() != http::verb::get && request.method() != http::verb::head)) {
      constexpr auto code = protocol::ErrorCode::NotFound;
      response->result(static_cast<http::status>(protocol::httpStatus(code)));
      response->body() = protocol::dumpJson(protocol::httpErrorBody(code, "only GET /healthz here"));
    } else {
      const bool ok = health_.ok();
      response->result(ok ? http::status::ok : http::status::service_unavailable);
      response->body() = ok ? R"({"ok":true})" : R"({"ok":false})";
    }
    response->prepare_payload();
    http::async_write(stream_, *response, [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
      if (ec || !response->keep_alive()) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
      }
      self->read();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  const Health& health_;
  std::atomic<int>& open_;
};

}  // namespace

struct HealthPort::Impl {
  explicit Impl(const Health& h) : health(h) {}
  // A few checkers at a time (a balancer or two): past that, connections are closed at once.
  static constexpr int kMaxOpen = 64;
  const Health& health;
  std::atomic<int> open{0};  // (before the io_context: its pending handlers' checks count down)
  net::io_context ioc{1};
  std::shared_ptr<AcceptLoop> loop = std::make_shared<AcceptLoop>(ioc, "health", [this](tcp::socket socket) {
    if (open >= kMaxOpen) return;  // the socket closes as it goes
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    std::make_shared<Check>(std::move(socket), health, open)->read();
  });
  std::thread thread;
};

HealthPort::HealthPort(const Health& health) : impl_(std::make_unique<Impl>(health)) {}

HealthPort::~HealthPort() {
  impl_->ioc.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

Result<unsigned short> HealthPort::start(const std::string& address, unsigned short port) {
  auto bound = impl_->loop->open(address, port);
  if (!bound) return fail(bound.error().message + " (/healthz)");
  impl_->loop->start();
  impl_->thread = std::thread([this] {
    // No exception leaves the thread: a failed handler is logged and the loop goes on.
    while (true) {
      try {
        impl_->ioc.run();
        return;
      } catch (const std::exception& e) {
        logLine("error", "health_handler_failed", {{"what", e.what()}});
      }
    }
  });
  return *bound;
}

}  // namespace semis::server
