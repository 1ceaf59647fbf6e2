// One HTTP connection: keep-alive requests, the API, static files, and the upgrade to /ws.

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <fstream>
#include <memory>
#include <sstream>

#include "server/Api.hpp"
#include "server/Log.hpp"
#include "server/Sessions.hpp"

namespace semis::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr std::chrono::seconds kRequestTimeout{30};
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

std::string mimeType(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? std::string_view() : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".wasm") return "application/wasm";
  return "application/octet-stream";
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

constexpr const char* kPlaceholder =
    "<!doctype html><meta charset=utf-8><title>Semis</title><h1>Semis server</h1>"
    "<p>The web client is not installed: start <code>semis serve --web web/dist</code>.</p>";

// The web client: index.html for `/` and `/g/<id>` (the client routes), files under --web otherwise.
ApiResponse staticFile(const std::string& webDir, std::string_view path) {
  if (path.find("..") != std::string_view::npos || path.find('\\') != std::string_view::npos) {
    return {400, "text/plain", "bad path\n"};
  }
  const bool appRoute = path == "/" || path == "/index.html" || path.substr(0, 3) == "/g/";
  if (webDir.empty()) {
    if (appRoute) return {200, "text/html; charset=utf-8", kPlaceholder};
    return {404, "text/plain", "not found\n"};
  }
  std::string body;
  if (appRoute) {
    if (!readFile(webDir + "/index.html", body)) return {200, "text/html; charset=utf-8", kPlaceholder};
    return {200, "text/html; charset=utf-8", body};
  }
  if (readFile(webDir + std::string(path), body)) return {200, mimeType(path), body};
  return {404, "text/plain", "not found\n"};
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, ServerContext& ctx) : stream_(std::move(socket)), ctx_(ctx) { ctx_.connections++; }
  ~HttpSession() { ctx_.connections--; }

  void run() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(kBodyLimit);
    parser_->header_limit(kHeaderLimit);
    stream_.expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
  }

  void onRead(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    if (ec) {
      if (ec == http::error::body_limit || ec == http::error::header_limit) {
        respond(HttpRequest{},
                ApiResponse{413, "application/json", R"({"error":{"code":"too_large","message":"request too large"}})"},
                "", false);
      }
      return;
    }
    HttpRequest req = parser_->release();
    ctx_.metrics.httpRequests++;
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    // Only the pages, the API and the socket need a guest: probes and assets create none.
    const bool needsIdentity = path == "/" || path == "/ws" || path.rfind("/api/", 0) == 0 || path.rfind("/g/", 0) == 0;
    boost::system::error_code peerEc;
    const auto remote = stream_.socket().remote_endpoint(peerEc);
    const std::string address = peerEc ? std::string() : remote.address().to_string();
    Identity me = needsIdentity ? ctx_.hub.identify(cookieToken(req), address) : Identity{};
    if (boost::beast::websocket::is_upgrade(req)) {
      if (path != "/ws") {
        respond(req, {404, "text/plain", "WebSocket endpoint is /ws\n"}, "", false);
        return;
      }
      if (ctx_.stopping || ctx_.metrics.connectionsOpen >= ctx_.options.maxConnections) {
        respond(req, {503, "text/plain", "unavailable\n"}, "", false);
        return;
      }
      stream_.expires_never();
      startWsSession(std::move(stream_), std::move(req), ctx_, std::move(me));
      return;
    }
    bool handled = false;
    ApiResponse res =
        handleApi(ctx_.hub, ctx_.metrics, std::string_view(req.method_string().data(), req.method_string().size()),
                  target, req.body(), me, handled);
    if (!handled) {
      if (req.method() != http::verb::get && req.method() != http::verb::head) {
        res = {405, "text/plain", "method not allowed\n"};
      } else {
        res = staticFile(ctx_.options.web, path);
      }
    }
    respond(req, std::move(res), me.created ? me.token : "", req.keep_alive() && !ctx_.stopping);
  }

  void respond(const HttpRequest& req, ApiResponse res, const std::string& newToken, bool keepAlive) {
    auto out = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(res.status),
                                                                   req.version() == 0 ? 11 : req.version());
    out->set(http::field::server, "semis");
    out->set(http::field::content_type, res.contentType);
    out->set(http::field::cache_control, "no-store");
    if (!newToken.empty()) {
      out->set(http::field::set_cookie,
               "semis_token=" + newToken + "; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
    }
    out->keep_alive(keepAlive);
    if (req.method() != http::verb::head) out->body() = std::move(res.body);
    out->prepare_payload();
    http::async_write(stream_, *out, [self = shared_from_this(), out, keepAlive](beast::error_code ec, std::size_t) {
      if (ec) return;
      if (!keepAlive) {
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
};

}  // namespace

void startHttpSession(tcp::socket socket, ServerContext& ctx) {
  std::make_shared<HttpSession>(std::move(socket), ctx)->run();
}

}  // namespace semis::server
