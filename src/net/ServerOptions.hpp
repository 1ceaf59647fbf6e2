#pragma once
// What `semis serve` is told (src/app/ServeCommand.cpp): the network's limits, which the sessions
// read, and the parts the server wires together (store, bus, AI).

#include <string>
#include <vector>

namespace semis::server {

struct ServerOptions {
  std::string address = "127.0.0.1";
  unsigned short port = 8080;
  std::string db = "semis.db";
  std::string web;  // the web client's files (web/dist); empty: a placeholder page
  int threads = 2;  // network threads
  int aiThreads = 1;
  int idleSeconds = 600;       // a WebSocket that sends nothing for this long is closed
  int ratePerSecond = 30;      // messages per connection per second (bursts of twice that)
  int maxConnections = 10000;  // WebSocket sessions in all
  // What one visitor may hold, so that no one takes every slot (docs/server.md, Limits).
  int maxWsPerToken = 32;         // WebSocket sessions of one cookie
  int maxWsPerAddress = 128;      // WebSocket sessions from one IP address (IPv6: one /64)
  int maxPendingPerAddress = 64;  // HTTP connections from one address waiting for a request (new or kept alive)
  int firstRequestSeconds = 10;   // a new connection must send its first request within this
  // Several instances (docs/scaling.md): the Redis they share (redis://HOST:PORT[/DB]), and this
  // one's name on it (default: a random one). Empty: alone, as in the embedded default.
  std::string redis;
  std::string instance;
  std::string site = "semis";  // the prefix of every Redis channel and key
  // Behind a reverse proxy (HAProxy): a request from a loopback or private peer is counted under
  // the last address of its X-Forwarded-For, the one the proxy itself saw (docs/server.md, Limits).
  bool trustProxy = false;
  // A rated game's player with no connection left may be claimed against after this (docs/club.md).
  int claimSeconds = 30;
  // /healthz also on this port, answered by a thread of its own (a load balancer's checks never
  // wait behind game work); -1: none, 0: a free one (the `listening` line says which).
  int healthPort = -1;
  // A game between two people whose player has not made his first move by then is aborted.
  int noShowSeconds = 60;
  // Bots not revoked a member may own (docs/bots.md).
  int botsPerOwner = 5;
  // Pages of these origins ("https://host[:port]") may open WebSockets besides the site's own.
  std::vector<std::string> allowedOrigins;
  // Bots (docs/bots.md): the KGP TCP port (-1: none, 0: a free one; the `listening` line says which),
  // a bot's time for a move, and how long a bot waits with no game before the freeplay pool pairs it (0: never).
  int kgpPort = -1;
  int kgpMoveSeconds = 5;
  int kgpPoolSeconds = 10;
  int kgpPingSeconds = 15;
};

}  // namespace semis::server
