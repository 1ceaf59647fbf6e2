// The tests' KGP client (KgpClient.hpp): blocking Beast sockets with deadlines.

#include "KgpClient.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <sstream>

namespace semis::test {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct KgpClient::Impl {
  // One thread: reads are asynchronous, always one pending, and run only inside next(); writes
  // wait for their own completion. So a test that waits for a line never closes the connection by
  // timing out (as a stream with a deadline would) and a line that comes later is still read.
  net::io_context ioc;
  Via via = Via::Tcp;
  std::optional<tcp::socket> socket;
  std::optional<websocket::stream<tcp::socket>> ws;
  std::array<char, 4096> raw{};
  beast::flat_buffer frames;
  std::string pending;            // bytes read, not yet a whole line
  std::deque<std::string> lines;  // whole lines not yet returned
  std::vector<std::string> seen;
  bool reading = false;
  bool closed = true;

  void received(std::string_view bytes) {
    pending += bytes;
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      std::string line = pending.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
      pending.erase(0, nl + 1);
    }
  }

  void read() {
    if (reading || closed) return;
    reading = true;
    if (via == Via::Tcp) {
      socket->async_read_some(net::buffer(raw), [this](beast::error_code ec, std::size_t n) {
        reading = false;
        if (ec) {
          closed = true;
          return;
        }
        received(std::string_view(raw.data(), n));
        read();
      });
    } else {
      ws->async_read(frames, [this](beast::error_code ec, std::size_t) {
        reading = false;
        if (ec) {
          closed = true;
          return;
        }
        received(beast::buffers_to_string(frames.data()));
        frames.consume(frames.size());
        read();
      });
    }
  }

  // Runs the pending read's handlers until a line is there, the connection is closed or `timeout`.
  void wait(std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (lines.empty() && !closed) {
      read();
      const auto left = end - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      if (ioc.stopped()) ioc.restart();
      if (ioc.run_one_for(left) == 0 && ioc.stopped()) ioc.restart();
    }
  }

  void write(const std::string& bytes, bool binary) {
    if (closed) return;
    bool done = false;
    beast::error_code result;
    auto finished = [&](beast::error_code ec, std::size_t) {
      result = ec;
      done = true;
    };
    if (via == Via::Tcp) {
      net::async_write(*socket, net::buffer(bytes), finished);
    } else {
      ws->binary(binary);
      ws->async_write(net::buffer(bytes), finished);
    }
    const auto end = std::chrono::steady_clock::now() + 5s;
    while (!done && std::chrono::steady_clock::now() < end) {
      if (ioc.stopped()) ioc.restart();
      ioc.run_one_for(100ms);
    }
    if (!done || result) closed = true;
  }
};

KgpClient::KgpClient() : impl_(std::make_unique<Impl>()) {}
KgpClient::~KgpClient() { close(); }

bool KgpClient::connect(Via via, unsigned short port) {
  try {
    impl_->via = via;
    const tcp::endpoint at(net::ip::make_address("127.0.0.1"), port);
    if (via == Via::Tcp) {
      impl_->socket.emplace(impl_->ioc);
      impl_->socket->connect(at);
    } else {
      impl_->ws.emplace(impl_->ioc);
      impl_->ws->next_layer().connect(at);
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
  if (impl_->via == Via::Tcp) {
    std::string all;
    for (const auto& p : pieces) all += p;
    impl_->write(all, binary);
    return;
  }
  for (const auto& p : pieces) impl_->write(p, binary);
}

std::optional<std::string> KgpClient::next(std::chrono::milliseconds timeout) {
  impl_->wait(timeout);
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

bool KgpClient::closed() const { return impl_->closed && impl_->lines.empty(); }

void KgpClient::close() {
  beast::error_code ec;
  if (impl_->socket) impl_->socket->close(ec);
  if (impl_->ws) impl_->ws->next_layer().close(ec);
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

}  // namespace semis::test
