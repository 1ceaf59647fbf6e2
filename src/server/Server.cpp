// The listener, the threads, the clock ticker and the graceful shutdown.

#include "server/Server.hpp"

#include "server/Club.hpp"
#include "server/HealthPort.hpp"
#include "server/Study.hpp"

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
#include "cluster/Bus.hpp"
#include "server/Log.hpp"
#include "server/Sessions.hpp"
#include "store/Store.hpp"

namespace semis::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, ServerContext& ctx) : ioc_(ioc), acceptor_(ioc), ctx_(ctx) {}

  Result<unsigned short> open(const std::string& address, unsigned short port) {
    boost::system::error_code ec;
    const auto addr = net::ip::make_address(address, ec);
    if (ec) return fail("bad address " + address);
    const tcp::endpoint ep(addr, port);
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return fail("cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message());
    return acceptor_.local_endpoint().port();
  }

  void accept() {
    acceptor_.async_accept(net::make_strand(ioc_),
                           [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
                             // No exception leaves a network handler, and the loop goes on whatever happened.
                             try {
                               if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
                               if (ec && self->shouldPause(ec)) return self->backOff(ec);
                               if (!ec) self->accepted(std::move(socket));
                             } catch (const std::exception& e) {
                               logLine("error", "accept_handler_failed", {{"what", e.what()}});
                             }
                             self->accept();
                           });
  }

  void close() {
    boost::system::error_code ec;
    acceptor_.close(ec);  // a back-off timer still waiting finds the acceptor closed and stops
  }

 private:
  // Out of descriptors or memory, accept() fails at once again until some are freed: pause. Any
  // other failure (a peer gone before its accept) is retried at once, unless it keeps happening.
  bool shouldPause(const boost::system::error_code& ec) {
    const int e = ec.value();
    const bool exhausted = ec.category() == boost::system::system_category() &&
                           (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM);
    return exhausted || ++otherFailures_ > 16;
  }

  void accepted(tcp::socket socket) {
    boost::system::error_code ec;
    otherFailures_ = 0;
    if (paused_) {
      paused_ = false;
      logInfo("accept_resumed", {{"failures", failures_}});
      failures_ = 0;
    }
    if (ctx_.connections >= ctx_.options.maxConnections + 100) {
      socket.close(ec);  // over the limit: refuse at once
      return;
    }
    const auto remote = socket.remote_endpoint(ec);
    if (ec) return;  // gone already
    // Connections waiting for a request, per address: idle sockets from one place cannot fill the
    // server (HttpSession counts a kept-alive connection again while it waits for the next one).
    // Our own proxy's connections are not limited here (it holds many, for every visitor): each
    // request's forwarded address is counted once it is read.
    const bool proxy = ctx_.options.trustProxy && proxyPeer(remote.address());
    auto pending = ctx_.pendingByAddress.take(
        addressKey(remote.address()), proxy ? std::numeric_limits<int>::max() : ctx_.options.maxPendingPerAddress);
    if (!pending.held()) {
      socket.close(ec);
      return;
    }
    socket.set_option(tcp::no_delay(true), ec);
    startHttpSession(std::move(socket), ctx_, std::move(pending));
  }

  // Wait a little instead of spinning, and say so once per pause rather than once per failure.
  void backOff(const boost::system::error_code& ec) {
    ++failures_;
    otherFailures_ = 0;
    if (!paused_) {
      paused_ = true;
      logWarn("accept_paused", {{"what", ec.message()}, {"retry_ms", kAcceptRetry.count()}});
    }
    retry_.expires_after(kAcceptRetry);
    retry_.async_wait([self = shared_from_this()](boost::system::error_code waitEc) {
      if (waitEc || !self->acceptor_.is_open()) return;
      self->accept();
    });
  }

  static constexpr std::chrono::milliseconds kAcceptRetry{100};

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  ServerContext& ctx_;
  net::steady_timer retry_{ioc_};
  bool paused_ = false;  // accept() is failing
  long long failures_ = 0;
  int otherFailures_ = 0;  // accept() failures in a row that did not pause it
};

void tickEvery(net::steady_timer& timer, Hub& hub, Club& club) {
  timer.expires_after(std::chrono::milliseconds(100));
  timer.async_wait([&timer, &hub, &club](boost::system::error_code ec) {
    if (ec) return;
    // No exception leaves a handler: a failed tick is logged and the next one comes anyway.
    try {
      hub.tick();
      club.tick();
    } catch (const std::exception& e) {
      logLine("error", "tick_failed", {{"what", e.what()}});
    }
    tickEvery(timer, hub, club);
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
    logLine("error", "store_open_failed", {{"db", options.db}, {"fault", store::faultName(store.error().fault)},
                                           {"what", store.error().message}});
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
  Hub hub(**store, metrics, ai ? std::move(ai) : makeEngineMoveSource(), hubOptions);
  auto resumed = hub.resume();
  if (!resumed) {
    logLine("error", "resume_failed", {{"what", resumed.error().message}});
    return 1;
  }
  const std::string instance = options.instance.empty() ? accounts::randomId(8) : options.instance;
  if (bus) hub.joinCluster(*bus, instance, options.site);
  const int threads = std::max(1, options.threads);
  net::io_context ioc(threads);
  // After the io_context, so destroyed before it: its work pool's last answers are posted to it.
  Club club(**store, hub);
  Study study(**store, hub);
  // A primary-key lookup of no one: one round trip to the database, nothing read.
  Health health([&store] { return (*store)->player("").has_value(); });
  health.start();
  ServerContext ctx{hub, metrics, options, health, &club, &study};
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
  logInfo("listening", {{"address", options.address},
                        {"port", *port},
                        {"health_port", healthPortNumber},
                        {"db", std::string((*store)->backend())},
                        {"instance", instance},
                        {"redis", options.redis},
                        {"web", options.web},
                        {"abandoned_games", *resumed}});

  net::steady_timer ticker(ioc);
  tickEvery(ticker, hub, club);

  net::steady_timer stopTimer(ioc);
  net::signal_set signals(ioc, SIGTERM, SIGINT);
  signals.async_wait([&](boost::system::error_code ec, int signo) {
    if (ec) return;
    logInfo("shutdown", {{"signal", signo}, {"connections", metrics.connectionsOpen.load()}});
    ctx.stopping = true;
    health.shuttingDown();
    listener->close();
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
  if (bus) bus->stop();
  running = false;
  checkpointer.join();
  health.stop();
  logInfo("stopped", {{"moves", metrics.moves.load()}});
  return 0;
}

}  // namespace semis::server
