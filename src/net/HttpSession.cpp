// One HTTP connection: keep-alive requests, the API, static files, and the upgrade to /ws.

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <memory>

#include "ai/WorkPool.hpp"
#include "http/Api.hpp"
#include "net/Routes.hpp"
#include "net/Security.hpp"
#include "net/Sessions.hpp"
#include "ops/Log.hpp"
#include "store/SessionStore.hpp"

namespace semis::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr std::chrono::seconds kRequestTimeout{30};  // later requests on a kept-alive connection
constexpr std::uint64_t kBodyLimit = 16 * 1024;
constexpr std::uint32_t kHeaderLimit = 8 * 1024;

std::string cookieToken(const HttpRequest& req) {
  const auto it = req.find(http::field::cookie);
  if (it == req.end()) return {};
  const std::string_view cookies(it->value().data(), it->value().size());
  constexpr std::string_view kName = "semis_token=";
  std::size_t pos = 0;
  while ((pos = cookies.find(kName, pos)) != std::string_view::npos) {
    if (pos == 0 || cookies[pos - 1] == ' ' || cookies[pos - 1] == ';') {
      const std::size_t start = pos + kName.size();
      const std::size_t end = cookies.find(';', start);
      return std::string(cookies.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    }
    pos += kName.size();
  }
  return {};
}

std::string_view headerValue(const HttpRequest& req, http::field field) {
  const auto it = req.find(field);
  return it == req.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
}

std::optional<boost::asio::ip::address> remoteAddress(const tcp::socket& socket) {
  boost::system::error_code ec;
  const auto ep = socket.remote_endpoint(ec);
  if (ec) return std::nullopt;
  return ep.address();
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, ServerContext& ctx, KeyCounter::Slot pending)
      : stream_(std::move(socket)), ctx_(ctx), pending_(std::move(pending)) {
    ctx_.connections++;
    const auto peer = remoteAddress(stream_.socket());
    peer_ = peer ? addressKey(*peer) : std::string("?");
    address_ = peer_;
    viaProxy_ = peer && ctx_.options.trustProxy && proxyPeer(*peer);
  }
  ~HttpSession() { ctx_.connections--; }

  void run() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(kBodyLimit);
    parser_->header_limit(kHeaderLimit);
    // A connection that has sent nothing yet gets a short time: idle sockets cost the server a slot.
    stream_.expires_after(served_ ? kRequestTimeout
                                  : std::chrono::seconds(std::max(1, ctx_.options.firstRequestSeconds)));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
  }

  // No exception leaves a network handler: one is logged and answered with 500, and the server goes on.
  void onRead(beast::error_code ec, std::size_t bytes) {
    try {
      handleRead(ec, bytes);
    } catch (const std::exception& e) {
      logLine("error", "http_handler_failed", {{"what", e.what()}});
      if (responding_) return;  // the answer (or the socket, handed to a WebSocket session) is gone already
      try {
        respond(HttpRequest{},
                apiErrorUncounted(ErrorCode::Internal, "internal error"), "", false);
      } catch (const std::exception&) {
        // Out of memory or a dead socket: the connection is dropped when this session is released.
      }
    }
  }

  void handleRead(beast::error_code ec, std::size_t) {
    responding_ = false;
    if (ec == http::error::end_of_stream) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    if (ec) {
      if (ec == http::error::body_limit || ec == http::error::header_limit) {
        respond(HttpRequest{},
                apiErrorUncounted(ErrorCode::TooLarge, "request too large"), "", false);
      }
      return;
    }
    pending_.reset();  // a whole request came: no longer waiting
    served_ = true;
    HttpRequest req = parser_->release();
    ctx_.metrics.httpRequests++;
    address_ = clientAddress(req);
    const std::string_view rawTarget(req.target().data(), req.target().size());
    const auto target = splitTarget(rawTarget);
    if (!target) return respond(req, {400, "text/plain", target.error().message + "\n"}, "", false);
    const std::string path(target->path);
    const Route route = routeOf(path);
    Identity me;
    if (needsIdentity(route)) {
      me = ctx_.players.identify(cookieToken(req), address_);
      me.device = std::string(headerValue(req, http::field::user_agent).substr(0, store::kDeviceChars));
    }
    if (route == Route::Kgp) {
      // A bot signs in with its bot token (KGP's `set auth:token`), not a cookie: no origin to check.
      if (!boost::beast::websocket::is_upgrade(req) || ctx_.kgp == nullptr || ctx_.stopping) {
        respond(req, {ctx_.kgp == nullptr ? 404 : 400, "text/plain", "/kgp is the bots' WebSocket (docs/bots.md)\n"}, "", false);
        return;
      }
      stream_.expires_never();
      responding_ = true;
      ctx_.kgp->acceptWebSocket(std::move(stream_), std::move(req), address_);
      return;
    }
    if (boost::beast::websocket::is_upgrade(req)) {
      if (route != Route::Socket) {
        respond(req, {404, "text/plain", "WebSocket endpoint is /ws\n"}, "", false);
        return;
      }
      // A page of another site must not play, chat or resign in its visitor's name (his cookie goes
      // with the upgrade): only the site's own pages, and clients that are no page at all.
      if (!originAllowed(headerValue(req, http::field::origin), headerValue(req, http::field::host),
                         ctx_.options.allowedOrigins)) {
        ctx_.metrics.originsRefused++;
        respond(req, {403, "text/plain", "this page's origin may not open a WebSocket here\n"}, "", false);
        return;
      }
      if (ctx_.stopping || ctx_.metrics.connectionsOpen >= ctx_.options.maxConnections) {
        respond(req, {503, "text/plain", "unavailable\n"}, "", false);
        return;
      }
      WsSlots slots{ctx_.wsByToken.take(me.token, ctx_.options.maxWsPerToken),
                    ctx_.wsByAddress.take(address_, ctx_.options.maxWsPerAddress)};
      if (!slots.token.held()) {
        respond(req,
                {503, "text/plain",
                 "too many connections for this player: at most " + std::to_string(ctx_.options.maxWsPerToken) + "\n"},
                "", false);
        return;
      }
      if (!slots.address.held()) {
        respond(
            req,
            {503, "text/plain",
             "too many connections from this address: at most " + std::to_string(ctx_.options.maxWsPerAddress) + "\n"},
            "", false);
        return;
      }
      stream_.expires_never();
      responding_ = true;  // the stream is handed over: nothing here may answer on it any more
      startWsSession(std::move(stream_), std::move(req), ctx_, std::move(me), std::move(slots));
      return;
    }
    auto answer = ctx_.routes.dispatch(std::string_view(req.method_string().data(), req.method_string().size()),
                                       rawTarget, req.body(), me);
    ApiResponse res = answer ? std::move(*answer) : ApiResponse{};
    if (res.slow) return respondLater(std::move(req), std::move(res.slow), res.slowOn, std::move(me));
    if (!answer) {
      if (req.method() != http::verb::get && req.method() != http::verb::head) {
        res = {405, "text/plain", "method not allowed\n"};
      } else {
        res = ctx_.files.serve(
            {path, headerValue(req, http::field::accept_encoding), headerValue(req, http::field::if_none_match)});
      }
    }
    respond(req, std::move(res), me.created ? me.token : "", req.keep_alive() && !ctx_.stopping);
  }

  // Per request, not per connection: a proxy may send several visitors' requests on one connection.
  std::string clientAddress(const HttpRequest& req) const {
    if (!viaProxy_) return peer_;
    // Several X-Forwarded-For fields are one list in order: the last field holds the last entry.
    std::optional<std::string_view> last;
    const auto [first, end] = req.equal_range("X-Forwarded-For");
    for (auto it = first; it != end; ++it) last = std::string_view(it->value().data(), it->value().size());
    if (!last) return peer_;
    const auto client = forwardedClient(*last);
    return client ? addressKey(*client) : peer_;
  }

  // Runs `job` on `pool` (nullptr: the server's default) and answers with its result on this
  // session's executor; a full pool answers `busy` now.
  void respondLater(HttpRequest req, std::function<ApiResponse()> job, WorkPool* pool, Identity me) {
    auto self = shared_from_this();
    auto request = std::make_shared<HttpRequest>(std::move(req));
    responding_ = true;  // (nothing else may answer meanwhile)
    if (pool == nullptr) pool = &ctx_.slowWork;
    const bool queued = pool != nullptr && pool->submit([self, request, job = std::move(job), me] {
      ApiResponse out;
      try {
        out = job();
      } catch (const std::exception& e) {
        out = apiErrorUncounted(ErrorCode::Internal, "the request failed");
      }
      boost::asio::post(self->stream_.get_executor(), [self, request, out = std::move(out), me]() mutable {
        self->respond(*request, std::move(out), me.created ? me.token : "",
                      request->keep_alive() && !self->ctx_.stopping);
      });
    });
    if (!queued) {
      respond(*request,
              apiErrorUncounted(ErrorCode::Busy, "the server has too much such work right now: try again"),
              me.created ? me.token : "", request->keep_alive() && !ctx_.stopping);
    }
  }

  void respond(const HttpRequest& req, ApiResponse res, const std::string& newToken, bool keepAlive) {
    responding_ = true;
    auto out = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(res.status),
                                                                   req.version() == 0 ? 11 : req.version());
    out->set(http::field::server, "semis");
    for (const auto& [name, value] : securityHeaders()) out->set(name, value);
    if (!res.contentType.empty()) out->set(http::field::content_type, res.contentType);  // (none on a 304)
    for (const auto& [name, value] : res.headers) out->set(name, value);
    if (res.cookie) {
      // A session the answer changes (sign-in, sign-out, a redeemed code): set, or cleared.
      out->set(http::field::set_cookie,
               res.cookie->empty()
                   ? std::string("semis_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
                   : "semis_token=" + *res.cookie + "; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
    } else if (!newToken.empty()) {
      out->set(http::field::set_cookie,
               "semis_token=" + newToken + "; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
    }
    // An answer that sets a cookie is this visitor's alone: no shared cache may keep it.
    const bool setsCookie = res.cookie || !newToken.empty();
    out->set(http::field::cache_control,
             setsCookie && res.cacheControl != "no-store" ? "private, " + res.cacheControl : res.cacheControl);
    out->keep_alive(keepAlive);
    const bool head = req.method() == http::verb::head;
    const std::size_t length = res.body.size();
    if (!head) out->body() = std::move(res.body);
    // A 304 has no body and no Content-Length (that would have to be the 200's length).
    if (res.status != 304) out->prepare_payload();
    // HEAD: the headers the GET would have, its Content-Length too.
    if (head && res.status != 304) out->content_length(length);
    http::async_write(stream_, *out, [self = shared_from_this(), out, keepAlive](beast::error_code ec, std::size_t) {
      if (ec) return;
      if (!keepAlive) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
      }
      // Kept alive, the connection waits for a request again, and counts as waiting: one address
      // cannot hold the server's connections open with idle keep-alives either.
      self->pending_ = self->ctx_.pendingByAddress.take(self->address_, self->ctx_.options.maxPendingPerAddress);
      if (!self->pending_.held()) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
      }
      self->read();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  ServerContext& ctx_;
  KeyCounter::Slot pending_;  // held while waiting for a request (the first, or the next on a kept-alive one)
  bool served_ = false;       // a request was read: later ones get the longer timeout
  std::string peer_;          // the TCP peer's address key
  bool viaProxy_ = false;     // the peer is a proxy whose X-Forwarded-For we believe (--trust-proxy)
  std::string address_;       // the client's address key: the peer's, or the one its proxy forwarded
  bool responding_ = false;   // a response is on its way: a failure after it must not start another
};

}  // namespace

std::string addressKey(const boost::asio::ip::address& address) {
  if (address.is_v6() && !address.to_v6().is_v4_mapped()) {
    auto bytes = address.to_v6().to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return boost::asio::ip::address_v6(bytes).to_string() + "/64";
  }
  if (address.is_v6()) return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6()).to_string();
  return address.to_string();
}

bool proxyPeer(const boost::asio::ip::address& address) {
  if (address.is_loopback()) return true;
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return proxyPeer(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6()));
  }
  if (address.is_v4()) {
    const auto b = address.to_v4().to_bytes();
    return b[0] == 10 || (b[0] == 172 && (b[1] & 0xF0) == 16) || (b[0] == 192 && b[1] == 168);
  }
  return (address.to_v6().to_bytes()[0] & 0xFE) == 0xFC;  // fc00::/7, unique local
}

std::optional<boost::asio::ip::address> forwardedClient(std::string_view header) {
  const auto comma = header.rfind(',');
  std::string_view entry = comma == std::string_view::npos ? header : header.substr(comma + 1);
  while (!entry.empty() && (entry.front() == ' ' || entry.front() == '\t')) entry.remove_prefix(1);
  while (!entry.empty() && (entry.back() == ' ' || entry.back() == '\t')) entry.remove_suffix(1);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(entry), ec);
  if (ec) return std::nullopt;
  return address;
}

void startHttpSession(tcp::socket socket, ServerContext& ctx, KeyCounter::Slot pending) {
  std::make_shared<HttpSession>(std::move(socket), ctx, std::move(pending))->run();
}

}  // namespace semis::server
