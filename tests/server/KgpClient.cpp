// The tests' KGP client (KgpClient.hpp): blocking Beast sockets with deadlines.

#include "KgpClient.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <poll.h>

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <sstream>

namespace semis::test {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct KgpClient::Impl {
  net::io_context ioc;
  Via via = Via::Tcp;
  std::optional<beast::tcp_stream> stream;
  std::optional<websocket::stream<beast::tcp_stream>> ws;
  std::string pending;             // bytes read, not yet a whole line
  std::deque<std::string> lines;   // whole lines not yet returned
  std::vector<std::string> seen;
  bool closed = true;

  // Reads more bytes within `timeout`; false once closed or timed out.
  bool readMore(std::chrono::milliseconds timeout) {
    if (closed) return false;
    beast::error_code ec;
    if (via == Via::Tcp) {
      std::array<char, 4096> buf{};
      // A blocking read_some ignores the stream's expiry (Beast applies it to asynchronous reads
      // only): wait for bytes with poll(), so that `timeout` holds when the server is silent.
      pollfd ready{stream->socket().native_handle(), POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(std::max<long long>(0, timeout.count()))) == 0) return false;
      const std::size_t n = stream->read_some(net::buffer(buf), ec);
      if (ec == beast::error::timeout) return false;
      if (ec) {
        closed = true;
        return false;
      }
      pending.append(buf.data(), n);
    } else {
      beast::flat_buffer buffer;
      beast::get_lowest_layer(*ws).expires_after(timeout);
      ws->read(buffer, ec);
      if (ec == beast::error::timeout) {
        // A timed-out WebSocket cannot be read again: treat it as closed for the test's purposes.
        closed = true;
        return false;
      }
      if (ec) {
        closed = true;
        return false;
      }
      pending += beast::buffers_to_string(buffer.data());
    }
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      std::string line = pending.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
      pending.erase(0, nl + 1);
    }
    return true;
  }
};

KgpClient::KgpClient() : impl_(std::make_unique<Impl>()) {}
KgpClient::~KgpClient() = default;

bool KgpClient::connect(Via via, unsigned short port) {
  try {
    impl_->via = via;
    const tcp::endpoint at(net::ip::make_address("127.0.0.1"), port);
    if (via == Via::Tcp) {
      impl_->stream.emplace(impl_->ioc);
      impl_->stream->expires_after(5s);
      impl_->stream->connect(at);
    } else {
      impl_->ws.emplace(impl_->ioc);
      auto& lowest = beast::get_lowest_layer(*impl_->ws);
      lowest.expires_after(5s);
      lowest.connect(at);
      lowest.expires_never();
      impl_->ws->read_message_max(1 << 20);
      impl_->ws->handshake("127.0.0.1:" + std::to_string(port), "/kgp");
    }
    impl_->closed = false;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

void KgpClient::sendLine(const std::string& line) {
  if (impl_->via == Via::Tcp) return sendRaw({line + "\r\n"});
  sendRaw({line + "\n"});
}

void KgpClient::sendRaw(const std::vector<std::string>& pieces, bool binary) {
  if (impl_->closed) return;
  beast::error_code ec;
  if (impl_->via == Via::Tcp) {
    std::string all;
    for (const auto& p : pieces) all += p;
    impl_->stream->expires_after(5s);
    net::write(impl_->stream->socket(), net::buffer(all), ec);
  } else {
    for (const auto& p : pieces) {
      impl_->ws->binary(binary);
      impl_->ws->write(net::buffer(p), ec);
      if (ec) break;
    }
  }
  if (ec) impl_->closed = true;
}

std::optional<std::string> KgpClient::next(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (impl_->lines.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (left <= 0ms || !impl_->readMore(left)) break;
  }
  if (impl_->lines.empty()) return std::nullopt;
  std::string line = impl_->lines.front();
  impl_->lines.pop_front();
  impl_->seen.push_back(line);
  return line;
}

std::optional<std::string> KgpClient::until(const std::function<bool(const std::string&)>& pred,
                                            std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left <= 0ms) return std::nullopt;
    auto line = next(left);
    if (!line) return std::nullopt;
    if (pred(*line)) return line;
  }
}

std::optional<std::string> KgpClient::untilCommand(const std::string& name, std::chrono::milliseconds timeout) {
  return until([&](const std::string& l) { return splitKgp(l).name == name; }, timeout);
}

bool KgpClient::closed() const { return impl_->closed; }

void KgpClient::close() {
  beast::error_code ec;
  if (impl_->stream) impl_->stream->socket().close(ec);
  if (impl_->ws) beast::get_lowest_layer(*impl_->ws).socket().close(ec);
  impl_->closed = true;
}

std::vector<std::string>& KgpClient::seen() { return impl_->seen; }

KgpLine splitKgp(const std::string& line) {
  KgpLine out;
  std::size_t i = 0;
  auto number = [&](long long& into) {
    std::size_t j = i;
    while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) into = std::stoll(line.substr(i, j - i));
    i = j;
  };
  number(out.id);
  if (i < line.size() && line[i] == '@') {
    ++i;
    number(out.ref);
  }
  while (i < line.size() && line[i] == ' ') ++i;
  const std::size_t sp = line.find(' ', i);
  out.name = line.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
  if (sp != std::string::npos) out.args = line.substr(sp + 1);
  return out;
}

std::vector<int> kgpBoard(const std::string& text) {
  std::vector<int> v;
  const auto lt = text.find('<');
  const auto gt = text.find('>', lt == std::string::npos ? 0 : lt);
  if (lt == std::string::npos || gt == std::string::npos) return v;
  std::stringstream ss(text.substr(lt + 1, gt - lt - 1));
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stoi(item));
  return v;
}

unsigned short kgpPortFrom(const std::string& logs) {
  std::stringstream ss(logs);
  for (std::string line; std::getline(ss, line);) {
    if (line.find("\"listening\"") == std::string::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("kgp_port") && j["kgp_port"].is_number_integer() && j["kgp_port"].get<int>() > 0) {
      return static_cast<unsigned short>(j["kgp_port"].get<int>());
    }
  }
  return 0;
}

}  // namespace semis::test
