// The two ways a bot connects: a TCP socket of its own (KGP's usual port is 2671) and a WebSocket
// at /kgp. Both carry the same bytes: a WebSocket's frames are read as a byte stream (a client
// sends each token of a line in its own frame), and each line goes out in a frame of its own.

#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>

#include "gateway/Gateway.hpp"
#include "ops/Log.hpp"

namespace semis::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// A bot that does not read its lines is dropped, not buffered without end.
constexpr std::size_t kMaxQueuedBytes = 256 * 1024;

// The write queue both transports share: one write in flight, lines in order.
class LineQueue {
 public:
  bool push(std::string line) {
    bytes_ += line.size();
    lines_.push_back(std::move(line));
    return bytes_ <= kMaxQueuedBytes;
  }
  [[nodiscard]] bool empty() const { return lines_.empty(); }
  std::string pop() {
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    bytes_ -= line.size();
    return line;
  }

 private:
  std::deque<std::string> lines_;
  std::size_t bytes_ = 0;
};

class TcpBot final : public BotConnection {
 public:
  TcpBot(KgpGateway& gateway, tcp::socket socket, std::string address)
      : BotConnection(gateway, socket.get_executor(), std::move(address)),
        gateway_(gateway),
        socket_(std::move(socket)) {}
  ~TcpBot() override { gateway_.leave(); }

  void run() {
    opened();
    read();
  }

 private:
  void read() {
    socket_.async_read_some(net::buffer(buffer_), [self = std::static_pointer_cast<TcpBot>(shared_from_this())](
                                                      boost::system::error_code ec, std::size_t n) {
      if (ec) {
        self->ended();
        self->closeSocket();
        return;
      }
      self->received(std::string_view(self->buffer_.data(), n));
      if (self->isOpen()) self->read();
    });
  }

  void writeLine(std::string line) override {
    if (closing_) return;
    if (!queue_.push(std::move(line) + "\r\n")) {
      logWarn("slow_bot", {{"player", playerId()}});
      closeSocket();
      return;
    }
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    inFlight_ = queue_.pop();
    net::async_write(
        socket_, net::buffer(inFlight_),
        [self = std::static_pointer_cast<TcpBot>(shared_from_this())](boost::system::error_code ec, std::size_t) {
          self->writing_ = false;
          if (ec) return self->closeSocket();
          if (!self->queue_.empty()) return self->write();
          if (self->closing_) self->closeSocket();
        });
  }

  void shutdown() override {
    closing_ = true;
    if (!writing_ && queue_.empty()) closeSocket();
  }

  void closeSocket() {
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
  }

  KgpGateway& gateway_;
  tcp::socket socket_;
  std::array<char, 4096> buffer_{};
  LineQueue queue_;
  std::string inFlight_;
  bool writing_ = false;
  bool closing_ = false;
};

class WsBot final : public BotConnection {
 public:
  WsBot(KgpGateway& gateway, beast::tcp_stream stream, std::string address)
      : BotConnection(gateway, stream.get_executor(), std::move(address)), gateway_(gateway), ws_(std::move(stream)) {}
  ~WsBot() override { gateway_.leave(); }

  void run(beast::http::request<beast::http::string_body> request) {
    auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.handshake_timeout = std::chrono::seconds(10);
    ws_.set_option(timeouts);
    ws_.read_message_max(64 * 1024);
    ws_.async_accept(request, [self = std::static_pointer_cast<WsBot>(shared_from_this())](beast::error_code ec) {
      if (ec) return;
      self->opened();
      self->read();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_,
                   [self = std::static_pointer_cast<WsBot>(shared_from_this())](beast::error_code ec, std::size_t) {
                     if (ec) return self->ended();
                     const std::string bytes = beast::buffers_to_string(self->buffer_.data());
                     self->buffer_.consume(self->buffer_.size());
                     self->received(bytes);
                     if (self->isOpen()) self->read();
                   });
  }

  void writeLine(std::string line) override {
    if (closing_) return;
    if (!queue_.push(std::move(line) + "\r\n")) {
      logWarn("slow_bot", {{"player", playerId()}});
      beast::get_lowest_layer(ws_).close();
      return;
    }
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    inFlight_ = queue_.pop();
    ws_.text(true);
    ws_.async_write(net::buffer(inFlight_),
                    [self = std::static_pointer_cast<WsBot>(shared_from_this())](beast::error_code ec, std::size_t) {
                      self->writing_ = false;
                      if (ec) return;
                      if (!self->queue_.empty()) return self->write();
                      if (self->closing_) self->close();
                    });
  }

  void shutdown() override {
    closing_ = true;
    if (!writing_ && queue_.empty()) close();
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
  }

  KgpGateway& gateway_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  LineQueue queue_;
  std::string inFlight_;
  bool writing_ = false;
  bool closing_ = false;
  bool closed_ = false;
};

}  // namespace

Outcome<unsigned short> KgpGateway::listen(net::io_context& ioc, const std::string& address, unsigned short port) {
  // The gateway outlives the loop's handlers: close() comes before it goes, and a closed loop calls
  // nothing.
  loop_ = std::make_shared<AcceptLoop>(ioc, "kgp", [this](tcp::socket socket) {
    boost::system::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    if (!ec && enter()) {
      std::make_shared<TcpBot>(*this, std::move(socket), peer.address().to_string())->run();
    } else {
      socket.close(ec);
    }
  });
  auto bound = loop_->open(address, port);
  if (!bound) return tl::unexpected(Refusal{ErrorCode::Internal, "KGP port: " + bound.error().message, {}});
  loop_->start();
  return *bound;
}

void KgpGateway::close() {
  if (loop_) loop_->close();
}

void KgpGateway::acceptWebSocket(beast::tcp_stream stream, beast::http::request<beast::http::string_body> request,
                                 const std::string& address) {
  if (!enter()) {
    beast::error_code ec;
    stream.socket().close(ec);
    return;
  }
  std::make_shared<WsBot>(*this, std::move(stream), address)->run(std::move(request));
}

}  // namespace semis::server
