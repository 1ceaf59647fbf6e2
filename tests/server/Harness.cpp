#include "Harness.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cctype>

namespace semis::test {

namespace beast = boost::beast;
namespace http_ = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

void readHeaders(const http_::response<http_::string_body>& res, HttpReply& reply) {
  for (const auto& field : res) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string& value = reply.headers[name];
    value += (value.empty() ? "" : ", ") + std::string(field.value());
  }
}

HttpReply request(const std::string& localAddress, unsigned short port, const std::string& method,
                  const std::string& target, const std::string& body, const std::string& cookie) {
  HttpReply reply;
  try {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(5s);
    if (!localAddress.empty()) {
      stream.socket().open(tcp::v4());
      stream.socket().bind(tcp::endpoint(net::ip::make_address(localAddress), 0));
    }
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http_::request<http_::string_body> req(http_::string_to_verb(method), target, 11);
    req.set(http_::field::host, "127.0.0.1");
    if (!cookie.empty()) req.set(http_::field::cookie, cookie);
    if (!body.empty()) {
      req.set(http_::field::content_type, "application/json");
      req.body() = body;
    }
    req.prepare_payload();
    http_::write(stream, req);
    beast::flat_buffer buf;
    http_::response<http_::string_body> res;
    http_::read(stream, buf, res);
    reply.status = static_cast<int>(res.result_int());
    reply.body = res.body();
    reply.contentType = std::string(res[http_::field::content_type]);
    readHeaders(res, reply);
    std::string sc(res[http_::field::set_cookie]);
    reply.setCookie = sc.substr(0, sc.find(';'));
  } catch (const std::exception&) {
    reply.status = 0;
  }
  return reply;
}

}  // namespace

HttpReply http(unsigned short port, const std::string& method, const std::string& target, const std::string& body,
               const std::string& cookie) {
  return request("", port, method, target, body, cookie);
}

HttpReply httpFrom(const std::string& localAddress, unsigned short port, const std::string& method,
                   const std::string& target) {
  return request(localAddress, port, method, target, "", "");
}

HttpReply rawHttp(unsigned short port, const std::string& text) {
  HttpReply reply;
  try {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(5s);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    net::write(stream, net::buffer(text));
    beast::flat_buffer buf;
    http_::response_parser<http_::string_body> parser;
    parser.body_limit(16 * 1024 * 1024);
    parser.skip(text.rfind("HEAD ", 0) == 0);  // its Content-Length is the GET's, and no body follows
    http_::read(stream, buf, parser);
    const auto& res = parser.get();
    reply.status = static_cast<int>(res.result_int());
    reply.body = res.body();
    reply.contentType = std::string(res[http_::field::content_type]);
    readHeaders(res, reply);
  } catch (const std::exception&) {
    reply.status = 0;
  }
  return reply;
}

struct WsClient::Impl {
  net::io_context ioc;
  std::optional<websocket::stream<beast::tcp_stream>> ws;
  beast::flat_buffer buffer;
  std::string cookie;
  bool closed = true;
  std::vector<Json> skipped;
  int receiveBuffer = 0;
  std::string localAddress;
  std::string origin;
  int handshakeStatus = 0;
  int closeCode = 0;
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}
WsClient::~WsClient() = default;

bool WsClient::connect(unsigned short port, const std::string& cookie) {
  try {
    impl_->ws.emplace(impl_->ioc);
    impl_->handshakeStatus = 0;
    auto& lowest = beast::get_lowest_layer(*impl_->ws);
    lowest.expires_after(5s);
    if (impl_->receiveBuffer > 0 || !impl_->localAddress.empty()) lowest.socket().open(tcp::v4());
    if (impl_->receiveBuffer > 0)
      lowest.socket().set_option(net::socket_base::receive_buffer_size(impl_->receiveBuffer));
    if (!impl_->localAddress.empty())
      lowest.socket().bind(tcp::endpoint(net::ip::make_address(impl_->localAddress), 0));
    lowest.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    lowest.expires_never();
    impl_->cookie = cookie;
    impl_->ws->set_option(websocket::stream_base::decorator([cookie, origin = impl_->origin](websocket::request_type& req) {
      if (!cookie.empty()) req.set(http_::field::cookie, cookie);
      if (!origin.empty()) req.set(http_::field::origin, origin);
    }));
    impl_->ws->read_message_max(1 << 20);
    websocket::response_type res;
    beast::error_code ec;
    // (Host names the port, as a browser's does: a page's Origin is compared with it.)
    impl_->ws->handshake(res, "127.0.0.1:" + std::to_string(port), "/ws", ec);
    impl_->handshakeStatus = static_cast<int>(res.result_int());
    if (ec) return false;
    std::string sc(res[http_::field::set_cookie]);
    if (!sc.empty()) impl_->cookie = sc.substr(0, sc.find(';'));
    impl_->closed = false;
    impl_->buffer.clear();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

const std::string& WsClient::cookie() const { return impl_->cookie; }

void WsClient::setReceiveBuffer(int bytes) { impl_->receiveBuffer = bytes; }

void WsClient::setLocalAddress(const std::string& address) { impl_->localAddress = address; }

void WsClient::setOrigin(const std::string& origin) { impl_->origin = origin; }

int WsClient::handshakeStatus() const { return impl_->handshakeStatus; }

void WsClient::send(const Json& j) { sendRaw(j.dump()); }

void WsClient::sendRaw(const std::string& text, bool binary) {
  if (impl_->closed) return;
  beast::error_code ec;
  impl_->ws->binary(binary);
  impl_->ws->write(net::buffer(text), ec);
  if (ec) impl_->closed = true;
}

std::optional<Json> WsClient::next(std::chrono::milliseconds timeout) {
  if (impl_->closed) return std::nullopt;
  std::optional<beast::error_code> result;
  impl_->ws->async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) { result = ec; });
  impl_->ioc.restart();
  impl_->ioc.run_for(timeout);
  if (!result) {
    // Timed out: cancel the read and let its handler run before the next call.
    beast::get_lowest_layer(*impl_->ws).cancel();
    impl_->ioc.restart();
    impl_->ioc.run();
    if (result && *result && *result != net::error::operation_aborted) impl_->closed = true;
    if (result && !*result) {
      std::string text = beast::buffers_to_string(impl_->buffer.data());
      impl_->buffer.consume(impl_->buffer.size());
      return Json::parse(text, nullptr, false);
    }
    // A cancelled websocket read leaves the stream unusable: treat it as closed.
    if (result && *result == net::error::operation_aborted) impl_->closed = true;
    return std::nullopt;
  }
  if (*result) {
    if (*result == websocket::error::closed) impl_->closeCode = static_cast<int>(impl_->ws->reason().code);
    impl_->closed = true;
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(impl_->buffer.data());
  impl_->buffer.consume(impl_->buffer.size());
  return Json::parse(text, nullptr, false);
}

std::optional<Json> WsClient::until(const std::function<bool(const Json&)>& pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!impl_->closed) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    auto m = next(left);
    if (!m) return std::nullopt;
    if (pred(*m)) return m;
    impl_->skipped.push_back(*m);
  }
  return std::nullopt;
}

std::optional<Json> WsClient::untilType(const std::string& type, std::chrono::milliseconds timeout) {
  return until([&type](const Json& j) { return j.value("type", "") == type; }, timeout);
}

bool WsClient::closed() const { return impl_->closed; }

int WsClient::closeCode() const { return impl_->closeCode; }

void WsClient::close() {
  if (impl_->closed) return;
  beast::error_code ec;
  beast::get_lowest_layer(*impl_->ws).socket().close(ec);
  impl_->closed = true;
}

std::vector<Json>& WsClient::skipped() { return impl_->skipped; }

}  // namespace semis::test
