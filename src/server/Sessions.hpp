#pragma once
// The network sessions (internal to src/server): listener -> HTTP session -> WebSocket session.
// Each connection's socket lives on its own strand; all its handlers run there.

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/Hub.hpp"
#include "server/Server.hpp"

namespace semis::server {

struct ServerContext {
  Hub& hub;
  Metrics& metrics;
  const ServerOptions& options;
  std::atomic<bool> stopping{false};
  std::atomic<int> connections{0};  // TCP connections now (HTTP or WebSocket)
};

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;

void startHttpSession(boost::asio::ip::tcp::socket socket, ServerContext& ctx);
void startWsSession(boost::beast::tcp_stream stream, HttpRequest request, ServerContext& ctx, Identity me);

}  // namespace semis::server
