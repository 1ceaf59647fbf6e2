#pragma once
// The network sessions (internal to src/net): listener -> HTTP session -> WebSocket session.
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

#include "gateway/Gateway.hpp"
#include "http/Router.hpp"
#include "hub/Hub.hpp"
#include "limits/KeyCounter.hpp"
#include "net/ServerOptions.hpp"
#include "net/StaticFiles.hpp"
#include "ops/Health.hpp"

namespace semis::server {

struct ServerContext {
  Hub& hub;
  Players& players;
  Metrics& metrics;
  const ServerOptions& options;
  Health& health;
  const Router& routes;  // the JSON API's paths, each module's
  WorkPool& slowWork;    // where an answer's `slow` work runs when it names no pool
  KgpGateway* kgp = nullptr;  // the bots' gateway, for /kgp (none: 404)
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
