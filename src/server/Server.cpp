// The listener, the threads, the clock ticker and the graceful shutdown.

#include "server/Server.hpp"

#include <sys/resource.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <cerrno>
#include <csignal>
#include <limits>
#include <thread>
#include <vector>

#include "accounts/Tokens.hpp"
#include "bots/BotAccuracy.hpp"
#include "bots/BotService.hpp"
#include "club/Club.hpp"
#include "contests/ContestService.hpp"
#include "cluster/Bus.hpp"
#include "gateway/Gateway.hpp"
#include "http/Router.hpp"
#include "net/HealthPort.hpp"
#include "net/Listener.hpp"
#include "net/Sessions.hpp"
#include "ops/Log.hpp"
#include "store/Store.hpp"
#include "studyapi/Study.hpp"

namespace semis::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

void tickEvery(net::steady_timer& timer, Hub& hub, Club& club, KgpGateway& gateway, ContestService& contests) {
  timer.expires_after(std::chrono::milliseconds(100));
  timer.async_wait([&timer, &hub, &club, &gateway, &contests](boost::system::error_code ec) {
    if (ec) return;
    // No exception leaves a handler: a failed tick is logged and the next one comes anyway.
    try {
      hub.tick();
      club.tick();
      gateway.tick();
      contests.tick();
    } catch (const std::exception& e) {
      logLine("error", "tick_failed", {{"what", e.what()}});
    }
    tickEvery(timer, hub, club, gateway, contests);
  });
}

}  // namespace

int runServer(const ServerOptions& options, std::unique_ptr<MoveSource> ai) {
  // Every connection is a descriptor: take all the kernel allows.
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  store::OpenOptions storeOptions;
  // An SQLite file from before schema versions is upgraded with the accounts' own token hash and ids.
  storeOptions.hashToken = [](std::string_view token) { return accounts::hashToken(token); };
  storeOptions.newId = [] { return accounts::randomId(10); };
  auto store = store::openStore(options.db, storeOptions);
  if (!store) {
    logLine("error", "store_open_failed",
            {{"db", options.db}, {"fault", store::faultName(store.error().fault)}, {"what", store.error().message}});
    return 1;
  }
  // Declared before the hub, so it outlives it: the bus's threads call into the hub until stopped.
  std::unique_ptr<cluster::Bus> bus;
  if (!options.redis.empty()) {
    auto opened = cluster::openRedisBus(options.redis);
    if (!opened) {
      logLine("error", "bus_open_failed", {{"redis", options.redis}, {"what", opened.error().message}});
      return 1;
    }
    bus = std::move(*opened);
  }
  Metrics metrics;
  HubOptions hubOptions;
  hubOptions.aiThreads = options.aiThreads;
  hubOptions.claimDelayMs = 1000LL * options.claimSeconds;
  hubOptions.noShowDelayMs = 1000LL * options.noShowSeconds;
  Players players(**store, metrics);
  Hub hub(**store, players, metrics, ai ? std::move(ai) : makeEngineMoveSource(), hubOptions);
  auto resumed = hub.resume();
  if (!resumed) {
    logLine("error", "resume_failed", {{"what", resumed.error().message}});
    return 1;
  }
  const std::string instance = options.instance.empty() ? accounts::randomId(8) : options.instance;
  if (bus) hub.joinCluster(*bus, instance, options.site);
  // The bots (docs/bots.md): their accounts, and the gateway that seats them in games. Before the
  // io_context, so destroyed after it: a connection's last handlers still name the gateway.
  BotService bots(**store, hub, players, BotOptions{options.botsPerOwner});
  GatewayOptions gatewayOptions;
  gatewayOptions.moveMs = 1000 * options.kgpMoveSeconds;
  gatewayOptions.poolAfterMs = 1000LL * options.kgpPoolSeconds;
  gatewayOptions.pingEveryMs = 1000 * options.kgpPingSeconds;
  gatewayOptions.pingWaitMs = 2000 * options.kgpPingSeconds;
  KgpGateway gateway(hub, **store, players, bots, gatewayOptions);
  hub.setBots(&gateway);
  // Bots' matches and tournaments (docs/bots.md), driven by the tick; their games' move time told
  // to the gateway.
  ContestOptions contestOptions;
  contestOptions.moveMs = gatewayOptions.moveMs;
  ContestService contests(hub, **store, bots, gateway, contestOptions);
  gateway.setMoveTimes([&contests](const std::string& gameId) { return contests.moveMsOf(gameId); });
  Club club(**store, hub, players);
  Study study(**store, hub);
  // The bots' finished games reviewed in the background, on a thread of its own (docs/bots.md).
  BotAccuracy accuracy(**store, study);
  accuracy.start();
  // A primary-key lookup of no one: one round trip to the database, nothing read.
  Health health([&store] { return (*store)->player("").has_value(); });
  health.start();
  // The route table: the first module to claim a path answers it (the club's /api/me over the hub's).
  Router routes;
  addGatewayRoutes(routes, gateway);  // before the bots' accounts: /api/bots/online is not a bot's id
  addContestRoutes(routes, contests);  // ... nor /api/bots/match, /api/bots/tournaments
  addBotRoutes(routes, bots);
  addStudyRoutes(routes, study);
  addClubRoutes(routes, club);
  addGameRoutes(routes, hub, metrics, health);
  ServerContext ctx{hub, players, metrics, options, health, routes, club.slowWork()};
  ctx.kgp = &gateway;
  // After everything a session uses, so destroyed before it: the handlers still queued when the
  // io_context goes hold the last sessions, whose destructors count themselves out of ctx. (The
  // pools that answer on it are stopped before that, at the end.)
  const int threads = std::max(1, options.threads);
  net::io_context ioc(threads);
  HealthPort healthPort(health);
  long long healthPortNumber = -1;
  if (options.healthPort >= 0) {
    auto hp = healthPort.start(options.address, static_cast<unsigned short>(options.healthPort));
    if (!hp) {
      logLine("error", "listen_failed", {{"what", hp.error().message}});
      return 1;
    }
    healthPortNumber = *hp;
  }
  auto listener = std::make_shared<Listener>(ioc, ctx);
  auto port = listener->open(options.address, options.port);
  if (!port) {
    logLine("error", "listen_failed", {{"what", port.error().message}});
    return 1;
  }
  listener->accept();
  long long kgpPort = -1;
  if (options.kgpPort >= 0) {
    auto kp = gateway.listen(ioc, options.address, static_cast<unsigned short>(options.kgpPort));
    if (!kp) {
      logLine("error", "listen_failed", {{"what", kp.error().message}});
      return 1;
    }
    kgpPort = *kp;
  }
  logInfo("listening", {{"address", options.address},
                        {"port", *port},
                        {"health_port", healthPortNumber},
                        {"kgp_port", kgpPort},
                        {"db", std::string((*store)->backend())},
                        {"instance", instance},
                        {"redis", options.redis},
                        {"web", options.web},
                        {"abandoned_games", *resumed}});

  net::steady_timer ticker(ioc);
  tickEvery(ticker, hub, club, gateway, contests);

  net::steady_timer stopTimer(ioc);
  net::signal_set signals(ioc, SIGTERM, SIGINT);
  signals.async_wait([&](boost::system::error_code ec, int signo) {
    if (ec) return;
    logInfo("shutdown", {{"signal", signo}, {"connections", metrics.connectionsOpen.load()}});
    ctx.stopping = true;
    health.shuttingDown();
    listener->close();
    gateway.close();
    hub.shutdown(2000);
    ticker.cancel();
    // Give the sessions a moment to send `shutdown` and close; then stop whatever is left.
    stopTimer.expires_after(std::chrono::milliseconds(500));
    stopTimer.async_wait([&ioc](boost::system::error_code) { ioc.stop(); });
  });

  // The store's housekeeping (SQLite: WAL checkpoints on their own connection) five times a second.
  std::atomic<bool> running{true};
  std::thread checkpointer([&] {
    while (running) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (auto r = (*store)->maintain(); !r) logWarn("store_maintenance_failed", {{"what", r.error().message}});
    }
  });
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
  hub.stopAi();
  club.slowWork().stop();
  study.work().stop();
  if (bus) bus->stop();
  running = false;
  checkpointer.join();
  health.stop();
  logInfo("stopped", {{"moves", metrics.moves.load()}});
  return 0;
}

}  // namespace semis::server
