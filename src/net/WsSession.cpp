// One WebSocket connection: reads on its strand, one write queue, limits on everything the client
// controls (frame size, message rate, idle time, queued output).

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <memory>

#include "limits/Buckets.hpp"
#include "net/Sessions.hpp"
#include "ops/Log.hpp"
#include "protocol/Messages.hpp"

namespace semis::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

namespace {

// Beast refuses frames past this (close 1009); between 4 KiB and this we answer `too_large`.
constexpr std::size_t kHardFrameLimit = 64 * 1024;
constexpr std::size_t kMaxQueued = 1024;
// ... and in bytes: 1024 full states of a long match are tens of MiB, and one address may hold 128
// sockets that stopped reading while asking for states (tools/attack stalled-states).
constexpr std::size_t kMaxQueuedBytes = 1024 * 1024;
constexpr int kMaxStrikes = 100;  // refused messages before the connection is closed

class WsSession final : public Peer, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(beast::tcp_stream stream, ServerContext& ctx, Identity me, WsSlots slots)
      : ws_(std::move(stream)),
        ctx_(ctx),
        me_(std::move(me)),
        slots_(std::move(slots)),
        idleTimer_(ws_.get_executor()) {
    ctx_.connections++;
    messages_ = TokenBucket::full(2.0 * ctx_.options.ratePerSecond);
  }
  ~WsSession() override { ctx_.connections--; }

  const std::string& token() const override { return me_.token; }
  const std::string& playerId() const override { return me_.id; }
  const std::string& address() const override { return me_.address; }

  void run(HttpRequest req) {
    websocket::stream_base::timeout timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.handshake_timeout = std::chrono::seconds(10);
    timeouts.idle_timeout = std::chrono::seconds(30);  // pings a silent peer, drops a dead one
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.read_message_max(kHardFrameLimit);
    const std::string cookie =
        me_.created ? "semis_token=" + me_.token + "; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax" : std::string();
    ws_.set_option(websocket::stream_base::decorator([cookie](websocket::response_type& res) {
      res.set(http::field::server, "semis");
      if (!cookie.empty()) res.set(http::field::set_cookie, cookie);
    }));
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::onAccept, shared_from_this()));
  }

  void send(Message message) override {
    net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
      self->enqueue(std::move(message));
    });
  }

  void closeSoon() override {
    net::post(ws_.get_executor(),
              [self = shared_from_this()] { self->closeAfterWrites(websocket::close_code::going_away); });
  }

 private:
  void onAccept(beast::error_code ec) {
    if (ec) return;
    open_ = true;
    ctx_.metrics.connectionsOpen++;
    ctx_.metrics.connectionsTotal++;
    ctx_.hub.attach(shared_from_this());
    lastMessage_ = std::chrono::steady_clock::now();
    Json hello{{"type", "hello"}, {"id", me_.id}, {"name", me_.name}};
    enqueue(std::make_shared<const std::string>(protocol::dumpJson(hello)));
    watchIdle();
    read();
  }

  void watchIdle() {
    idleTimer_.expires_after(std::chrono::seconds(std::max(1, std::min(30, ctx_.options.idleSeconds))));
    idleTimer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || !self->open_) return;
      const auto idle = std::chrono::steady_clock::now() - self->lastMessage_;
      if (idle >= std::chrono::seconds(self->ctx_.options.idleSeconds)) {
        Metrics::refused("ws", "idle");
        self->enqueue(std::make_shared<const std::string>(protocol::dumpJson(protocol::errorMessage(
            "idle", "no message for " + std::to_string(self->ctx_.options.idleSeconds) + " s: closing"))));
        self->closeAfterWrites(websocket::close_code::policy_error);
        return;
      }
      self->watchIdle();
    });
  }

  void read() { ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::onRead, shared_from_this())); }

  void onRead(beast::error_code ec, std::size_t bytes) {
    if (ec) return finish(ec);
    ctx_.metrics.wsMessages++;
    lastMessage_ = std::chrono::steady_clock::now();
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    // No exception leaves a network handler: the message is answered with `internal`, the
    // connection and the server go on.
    try {
      if (!closing_) handle(text, bytes);
    } catch (const std::exception& e) {
      logLine("error", "ws_handler_failed", {{"what", e.what()}, {"player", me_.id}});
      try {
        refuse("internal", "the server failed to handle this message");
      } catch (const std::exception&) {
        // Out of memory: nothing more can be said to this client.
      }
    }
    if (strikes_ > kMaxStrikes) closeAfterWrites(websocket::close_code::policy_error);
    read();
  }

  bool allow() {
    // ratePerSecond messages a second, bursts of twice that.
    const double rate = ctx_.options.ratePerSecond;
    return messages_.take(2 * rate, rate);
  }

  void refuse(std::string_view code, std::string_view message, const Json& id = nullptr) {
    ++strikes_;
    ctx_.metrics.errors++;
    Metrics::refused("ws", code);
    enqueue(std::make_shared<const std::string>(protocol::dumpJson(protocol::errorMessage(code, message, id))));
  }

  void handle(const std::string& text, std::size_t bytes) {
    if (!allow()) {
      ctx_.metrics.rateLimited++;
      return refuse("rate_limited",
                    "too many messages: at most " + std::to_string(ctx_.options.ratePerSecond) + " a second");
    }
    if (bytes > protocol::kMaxMessageBytes) return refuse("too_large", "messages are limited to 4096 bytes");
    if (!ws_.got_text()) return refuse("bad_message", "binary frames are not accepted: send JSON text");
    auto msg = protocol::parseClientMessage(text);
    if (!msg) return refuse(msg.error().code, msg.error().message, msg.error().id);
    if (msg->type == protocol::MsgType::Ping) {
      using namespace std::chrono;
      Json pong{{"type", "pong"},
                {"t", msg->t},
                {"server_time", duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()}};
      return enqueue(std::make_shared<const std::string>(protocol::dumpJson(pong)));
    }
    ctx_.hub.onMessage(shared_from_this(), *msg);
  }

  void enqueue(Message message) {
    if (!open_ || closed_) return;
    if (queue_.size() >= kMaxQueued || (!queue_.empty() && queuedBytes_ + message->size() > kMaxQueuedBytes)) {
      // A client that does not read its messages is dropped, not buffered without end. The write in
      // flight keeps its own message (inFlight_) until its handler runs: only the waiting ones go.
      logWarn("slow_client", {{"player", me_.id}, {"queued", queue_.size()}, {"bytes", queuedBytes_}});
      queue_.clear();
      queuedBytes_ = 0;
      closed_ = true;
      boost::system::error_code ec;
      auto& socket = beast::get_lowest_layer(ws_).socket();
      socket.shutdown(net::socket_base::shutdown_both, ec);
      socket.close(ec);
      return;
    }
    queuedBytes_ += message->size();
    queue_.push_back(std::move(message));
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    inFlight_ = std::move(queue_.front());
    queue_.pop_front();
    queuedBytes_ -= inFlight_->size();
    ws_.text(true);
    ws_.async_write(net::buffer(*inFlight_), beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
  }

  void onWrite(beast::error_code ec, std::size_t) {
    writing_ = false;
    inFlight_.reset();
    if (ec) return finish(ec);
    if (closed_) return;  // dropped meanwhile: the read side sees the closed socket and finishes
    if (!queue_.empty()) return write();
    if (closing_) close(closeCode_);
  }

  // Closes once the queued messages are written, with the code of the first reason to close (the
  // write in flight must not turn a policy close, 1008, into a plain going-away, 1001).
  void closeAfterWrites(websocket::close_code code) {
    if (!closing_) closeCode_ = code;
    closing_ = true;
    if (!writing_) close(closeCode_);
  }

  void close(websocket::close_code code) {
    if (closed_) return;
    closed_ = true;
    ws_.async_close(code, [self = shared_from_this()](beast::error_code) {});
  }

  void finish(beast::error_code) {
    if (!open_) return;
    open_ = false;
    idleTimer_.cancel();
    ctx_.metrics.connectionsOpen--;
    ctx_.hub.detach(this);
  }

  websocket::stream<beast::tcp_stream> ws_;
  ServerContext& ctx_;
  Identity me_;
  WsSlots slots_;  // given back when the session is destroyed
  net::steady_timer idleTimer_;
  beast::flat_buffer buffer_;
  std::deque<Message> queue_;    // waiting to be written
  std::size_t queuedBytes_ = 0;  // their sizes
  Message inFlight_;             // being written: async_write's buffer points into it
  bool open_ = false;
  bool writing_ = false;
  bool closing_ = false;
  bool closed_ = false;
  websocket::close_code closeCode_ = websocket::close_code::going_away;
  int strikes_ = 0;
  TokenBucket messages_;
  std::chrono::steady_clock::time_point lastMessage_;
};

}  // namespace

void startWsSession(beast::tcp_stream stream, HttpRequest request, ServerContext& ctx, Identity me, WsSlots slots) {
  auto session = std::make_shared<WsSession>(std::move(stream), ctx, std::move(me), std::move(slots));
  session->run(std::move(request));
}

}  // namespace semis::server
