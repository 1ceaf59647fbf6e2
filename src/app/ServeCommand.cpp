// `semis serve [--port 8080] [--db semis.db] [--web DIR] [--ai-threads N] [--ai engine|greedy]`:
// the game server (docs/server.md). --ai-threads: searches at once (default: the cores); --ai
// greedy: instant, deterministic AI moves and hints instead of the engine's (tests, load runs).
// --redis redis://HOST:PORT [--instance NAME] [--site NAME]: one of several instances sharing
// --db postgresql://... (docs/scaling.md); --site prefixes their Redis channels and keys.
// --trust-proxy: per-address limits count X-Forwarded-For's last address on requests from a
// loopback or private peer (a reverse proxy on this machine or network).
// --claim-seconds N: how long a rated game's leaver has before his opponent may claim (default 30).
// --health-port P: /healthz also on P (0: a free one), on a thread of its own, for a balancer's checks.
// --no-show-seconds N: a game between two people whose player has not made his first move within
// this is aborted, unrated (default 60).
// --allow-origin URL[,URL...]: pages of these origins may open WebSockets too (the site's own
// always may; a client that sends no Origin is no page and may).
// --bots-per-owner N: bots (not revoked) a member may own (docs/bots.md; default 5).
// --kgp-port P: bots over the Kalah Game Protocol on TCP port P (0: a free one; KGP's usual port is
// 2671); they may also use the WebSocket /kgp on the HTTP port (docs/bots.md). --kgp-move-seconds N:
// a bot's time for a move (default 5). --kgp-pool-seconds N: a connected bot with no game for this
// long is paired in the freeplay pool (0: no pool; default 10). --kgp-ping-seconds N: the server's
// pings between turns; a bot silent 2N s after one loses its games (default 15).
// --egdb-seeds K: endgame tables up to K seeds for every preset (Al-manqala's and Awalé's up to 12),
// built in the background at start and probed by the Hard and Perfect AI seats and by hints (server/EndgameShelf.hpp; default 0).

#include <algorithm>
#include <charconv>
#include <thread>

#include "ai/EndgameShelf.hpp"
#include "app/Args.hpp"
#include "app/Commands.hpp"
#include "net/Security.hpp"
#include "server/Server.hpp"

namespace semis::app {

namespace {
bool readInt(const Args& args, const char* name, int lo, int hi, int& out) {
  if (!args.has(name)) return true;
  const std::string v = args.get(name);
  int value = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (ec != std::errc() || p != v.data() + v.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}
}  // namespace

int serveCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv,
                          {"port",
                           "db",
                           "web",
                           "address",
                           "threads",
                           "idle-seconds",
                           "rate",
                           "ai-threads",
                           "ai",
                           "max-connections",
                           "max-ws-per-token",
                           "max-ws-per-address",
                           "max-pending-per-address",
                           "redis",
                           "instance",
                           "site",
                           "claim-seconds",
                           "health-port",
                           "egdb-seeds",
                           "no-show-seconds",
                           "allow-origin",
                           "bots-per-owner",
                           "kgp-port",
                           "kgp-move-seconds",
                           "kgp-pool-seconds",
                           "kgp-ping-seconds"},
                          {"trust-proxy"});
  if (!args) return complain("serve", args.error().message);
  server::ServerOptions o;
  int port = o.port;
  if (!readInt(*args, "port", 0, 65535, port)) return complain("serve", "--port must be 0..65535");
  o.port = static_cast<unsigned short>(port);
  if (!readInt(*args, "threads", 1, 64, o.threads)) return complain("serve", "--threads must be 1..64");
  if (!readInt(*args, "idle-seconds", 1, 86400, o.idleSeconds))
    return complain("serve", "--idle-seconds must be 1..86400");
  if (!readInt(*args, "rate", 1, 10000, o.ratePerSecond)) return complain("serve", "--rate must be 1..10000");
  o.aiThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (!readInt(*args, "ai-threads", 1, 256, o.aiThreads)) return complain("serve", "--ai-threads must be 1..256");
  const std::string ai = args->get("ai", "engine");
  if (ai != "engine" && ai != "greedy") return complain("serve", "--ai takes engine or greedy");
  if (!readInt(*args, "max-connections", 1, 1000000, o.maxConnections))
    return complain("serve", "--max-connections must be 1..1000000");
  if (!readInt(*args, "max-ws-per-token", 1, 1000000, o.maxWsPerToken))
    return complain("serve", "--max-ws-per-token must be 1..1000000");
  if (!readInt(*args, "max-ws-per-address", 1, 1000000, o.maxWsPerAddress))
    return complain("serve", "--max-ws-per-address must be 1..1000000");
  if (!readInt(*args, "max-pending-per-address", 1, 1000000, o.maxPendingPerAddress))
    return complain("serve", "--max-pending-per-address must be 1..1000000");
  if (!readInt(*args, "claim-seconds", 1, 3600, o.claimSeconds))
    return complain("serve", "--claim-seconds must be 1..3600");
  if (!readInt(*args, "health-port", 0, 65535, o.healthPort))
    return complain("serve", "--health-port must be 0..65535");
  if (!readInt(*args, "no-show-seconds", 1, 3600, o.noShowSeconds))
    return complain("serve", "--no-show-seconds must be 1..3600");
  if (!readInt(*args, "bots-per-owner", 0, 1000, o.botsPerOwner))
    return complain("serve", "--bots-per-owner must be 0..1000");
  if (args->has("allow-origin")) {
    auto origins = server::parseOrigins(args->get("allow-origin"));
    if (!origins) return complain("serve", "--allow-origin: " + origins.error());
    o.allowedOrigins = *origins;
  }
  if (!readInt(*args, "kgp-port", 0, 65535, o.kgpPort)) return complain("serve", "--kgp-port must be 0..65535");
  if (!readInt(*args, "kgp-move-seconds", 1, 600, o.kgpMoveSeconds))
    return complain("serve", "--kgp-move-seconds must be 1..600");
  if (!readInt(*args, "kgp-pool-seconds", 0, 3600, o.kgpPoolSeconds))
    return complain("serve", "--kgp-pool-seconds must be 0..3600");
  if (!readInt(*args, "kgp-ping-seconds", 1, 3600, o.kgpPingSeconds))
    return complain("serve", "--kgp-ping-seconds must be 1..3600");
  o.db = args->get("db", o.db);
  o.web = args->get("web");
  o.address = args->get("address", o.address);
  o.redis = args->get("redis");
  o.instance = args->get("instance");
  o.site = args->get("site", o.site);
  const auto nameOk = [](const std::string& s) {
    return !s.empty() && s.size() <= 32 &&
           s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
               std::string::npos;
  };
  if (args->has("instance") && !nameOk(o.instance))
    return complain("serve", "--instance is 1..32 letters, digits, '-', '_' or '.'");
  if (!nameOk(o.site)) return complain("serve", "--site is 1..32 letters, digits, '-', '_' or '.'");
  if (!o.redis.empty() && o.db.rfind("postgres", 0) != 0)
    return complain("serve", "--redis joins instances that share one database: give --db postgresql://...");
  o.trustProxy = args->has("trust-proxy");
  int egdbSeeds = 0;
  if (!readInt(*args, "egdb-seeds", 0, 14, egdbSeeds)) return complain("serve", "--egdb-seeds must be 0..14");
  if (ai == "greedy") return server::runServer(o, server::makeGreedyMoveSource());
  return server::runServer(o, server::makeEngineMoveSource(std::make_shared<server::EndgameShelf>(egdbSeeds)));
}

extern const Command kServeCommand{
    "serve", "run the game server (HTTP, WebSocket, SQLite)",
    "usage: semis serve [options]\n"
    "  The game server (docs/server.md).\n"
    "  --port P                      default 8080 (0: any free port, written to the log)\n"
    "  --address A                   default 127.0.0.1\n"
    "  --db FILE | postgresql://...  default semis.db\n"
    "  --web DIR                     the web client's files (web/dist)\n"
    "  --threads N                   network threads (default 2)\n"
    "  --ai engine|greedy            greedy: instant, deterministic AI moves and hints (tests, load runs)\n"
    "  --ai-threads N                searches at once (default: the cores)\n"
    "  --egdb-seeds K                endgame tables up to K seeds (Al-manqala, Awale: 12 at most),\n"
    "                                built in the background (default 0)\n"
    "  --idle-seconds N              close a WebSocket silent for this long (default 600)\n"
    "  --rate N                      messages per connection per second (default 30)\n"
    "  --max-connections N, --max-ws-per-token N, --max-ws-per-address N, --max-pending-per-address N\n"
    "  --claim-seconds N             a rated game's leaver's time before a claim (default 30)\n"
    "  --health-port P               /healthz also on P (0: a free one), on a thread of its own\n"
    "  --no-show-seconds N           a game whose player has not made his first move by then is aborted\n"
    "                                (default 60)\n"
    "  --allow-origin URL[,URL...]   pages of these origins may open WebSockets too\n"
    "  --bots-per-owner N            bots a member may own (default 5)\n"
    "  --kgp-port P                  bots over KGP on TCP port P (0: a free one); /kgp always\n"
    "  --kgp-move-seconds N          a bot's time for a move (default 5)\n"
    "  --kgp-pool-seconds N          a bot with no game this long is paired in the pool (0: none; default 10)\n"
    "  --kgp-ping-seconds N          a bot is pinged every N s between turns and loses after 2N s silent\n"
    "                                (default 15)\n"
    "  --redis redis://HOST:PORT [--instance NAME] [--site NAME]\n"
    "                                one of several instances sharing --db postgresql://... (docs/scaling.md)\n"
    "  --trust-proxy                 count X-Forwarded-For's last address from a loopback or private peer\n",
    serveCommand};

}  // namespace semis::app
