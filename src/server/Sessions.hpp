#pragma once
// The network sessions (internal to src/server): listener -> HTTP session -> WebSocket session.
// Each connection's socket lives on its own strand; all its handlers run there.

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "server/Health.hpp"
#include "server/Hub.hpp"
#include "server/Server.hpp"
#include "server/StaticFiles.hpp"

namespace semis::server {

// How many connections each key (a token, an address) holds now, under one mutex. A Slot is one
// of them: it gives its count back when destroyed, so every path that ends a session releases it.
class KeyCounter {
 public:
  class Slot {
   public:
    Slot() = default;
    Slot(KeyCounter* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
    Slot(Slot&& o) noexcept : owner_(std::exchange(o.owner_, nullptr)), key_(std::move(o.key_)) {}
    Slot& operator=(Slot&& o) noexcept {
      if (this != &o) {
        reset();
        owner_ = std::exchange(o.owner_, nullptr);
        key_ = std::move(o.key_);
      }
      return *this;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() { reset(); }
    void reset() {
      if (owner_ != nullptr) std::exchange(owner_, nullptr)->release(key_);
    }
    [[nodiscard]] bool held() const { return owner_ != nullptr; }

   private:
    KeyCounter* owner_ = nullptr;
    std::string key_;
  };

  // A slot for `key`, or an empty one when `key` already holds `limit`.
  Slot take(const std::string& key, int limit) {
    std::lock_guard lock(mu_);
    int& n = counts_[key];
    if (n >= limit) {
      if (n == 0) counts_.erase(key);
      return {};
    }
    ++n;
    return {this, key};
  }
  [[nodiscard]] int count(const std::string& key) {
    std::lock_guard lock(mu_);
    const auto it = counts_.find(key);
    return it == counts_.end() ? 0 : it->second;
  }

 private:
  void release(const std::string& key) {
    std::lock_guard lock(mu_);
    const auto it = counts_.find(key);
    if (it != counts_.end() && --it->second <= 0) counts_.erase(it);
  }

  std::mutex mu_;
  std::unordered_map<std::string, int> counts_;
};

class Club;
class Study;

struct ServerContext {
  Hub& hub;
  Metrics& metrics;
  const ServerOptions& options;
  Health& health;
  Club* club = nullptr;  // the club (accounts, ratings, pairing, friends)
  Study* study = nullptr;  // the daily challenge, reviews
  std::atomic<bool> stopping{false};
  std::atomic<int> connections{0};  // TCP connections now (HTTP or WebSocket)
  KeyCounter pendingByAddress{};    // HTTP connections waiting for a request: new, or idle kept alive
  KeyCounter wsByAddress{};         // WebSocket sessions
  KeyCounter wsByToken{};
  StaticFiles files{options.web};  // the web client's files and their cache
};

// The key an address is counted under: the address itself, or its /64 for IPv6 (one host has many).
[[nodiscard]] std::string addressKey(const boost::asio::ip::address& address);

// A loopback or private (RFC 1918, IPv6 unique local) address: a peer that may be our own reverse
// proxy. Only such a peer's X-Forwarded-For is believed, and only with --trust-proxy.
[[nodiscard]] bool proxyPeer(const boost::asio::ip::address& address);
// The client address a proxy appended last to X-Forwarded-For (the header's value), or nothing
// when that entry is not an IP address. The entries before it were written by the client: any
// of them may be forged, the last is the one the proxy saw.
[[nodiscard]] std::optional<boost::asio::ip::address> forwardedClient(std::string_view header);

// What a WebSocket session holds while it lives: its places under the per-token and per-address limits.
struct WsSlots {
  KeyCounter::Slot token;
  KeyCounter::Slot address;
};

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;

// `pending` is the connection's place under the per-address limit of connections waiting for a request.
void startHttpSession(boost::asio::ip::tcp::socket socket, ServerContext& ctx, KeyCounter::Slot pending);
void startWsSession(boost::beast::tcp_stream stream, HttpRequest request, ServerContext& ctx, Identity me,
                    WsSlots slots);

}  // namespace semis::server
