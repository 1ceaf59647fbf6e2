// semis-loadgen: plays many concurrent games against a running `semis serve` over loopback and
// reports moves per second and the latency of each move from send to `ack`, in percentiles.
// Human-vs-human by default (two WebSocket clients per game, random legal moves); with `--ai LEVEL`
// one client per game plays the server's AI, and the AI's reply time (from the human move's `ack`
// to the AI's move event) is reported too. Clients connect from `--sources N` loopback addresses
// (127.0.0.1 ..), as N visitors would, so per-address limits see a crowd, not one attacker.
// A friend game's creator moves only once the second seat is taken (the server rightly refuses a
// move before: `not_your_turn`). Errors are counted by code; every acknowledged move is checked
// against the game's events (the event the `ack` names must be that move): one missing or
// different is an acknowledged move lost. Exit 0 only with no error, no lost move and no failed
// connection.
//
//   semis-loadgen --port 8080 --games 1000 --seconds 30 --think-ms 500 --rules kalah
//   semis-loadgen --port 8080 --games 50 --seconds 60 --ai hard

#include <sys/resource.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  unsigned short port = 8080;
  int games = 100;
  int seconds = 20;
  int thinkMs = 0;
  std::string rules = "kalah";
  std::string ai;  // a level: one client per game against the server's AI
  int sources = 200;
  int preload = 0;  // games created first and left: half finished (resigned), half abandoned
};

struct Stats {
  std::vector<double> latencyMs;
  std::vector<double> aiMs;  // the AI's reply: from the human move's ack to the AI's move event
  long long moves = 0;
  long long games = 0;
  long long errors = 0;
  std::map<std::string, long long> errorsByCode;
  long long lostMoves = 0;  // acknowledged, then not the game's event of that number
  long long connectFailures = 0;
};

// A move the server acknowledged: the event number it gave it, and what it was.
struct AckedMove {
  long long n = 0;
  std::string side;
  int house = 0;
};

struct Table;

class Bot : public std::enable_shared_from_this<Bot> {
 public:
  Bot(net::io_context& ioc, Stats& stats, const Options& o) : ws_(ioc), timer_(ioc), stats_(stats), o_(o) {}

  Table* table = nullptr;
  bool creator = false;
  std::string side;  // S or N in the current game
  std::string game;

  void start(const tcp::endpoint& ep, const net::ip::address& from) {
    beast::error_code bindEc;
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(tcp::v4(), bindEc);
    if (!bindEc) socket.bind(tcp::endpoint(from, 0), bindEc);
    if (bindEc) return failConnect();
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(ws_).async_connect(ep, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->failConnect();
      beast::get_lowest_layer(self->ws_).expires_never();
      self->ws_.read_message_max(1 << 20);
      self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
        if (ec2) return self->failConnect();
        self->read();
      });
    });
  }

  void send(std::string text) {
    out_.push_back(std::move(text));
    if (out_.size() == 1) write();
  }

  void join(const std::string& id) {
    settleAcks(-1);  // the last game's acks not yet seen as events are lost
    game = id;
    firstMoveId_ = moveId_ + 1;  // moves numbered below belong to games left
    pending_ = false;
    playing_ = false;
    toMove_.clear();
    seen_.clear();
    send(Json{{"type", "join"}, {"game", id}}.dump());
  }

  void create() {
    if (!o_.ai.empty()) {
      send(Json{{"type", "create"}, {"rules", o_.rules}, {"mode", "ai"}, {"level", o_.ai}, {"side", "S"}}.dump());
      return;
    }
    send(Json{{"type", "create"}, {"rules", o_.rules}, {"mode", "friend"}, {"side", "S"}}.dump());
  }

  void stop() { stopped_ = true; }
  // The run is over: acknowledged moves up to the last event heard must have been heard.
  void finish() { settleAcks(last_); }

  // Each acknowledged move whose event has arrived must be that move; one whose number is at most
  // `upTo` (-1: all of them) and never arrived is lost too. Called as events come, at the end of a
  // game and at the end of the run.
  void settleAcks(long long upTo) {
    std::vector<AckedMove> waiting;
    for (const AckedMove& a : acked_) {
      const auto it = seen_.find(a.n);
      if (it != seen_.end()) {
        if (it->second.side != a.side || it->second.house != a.house) lost(a, "another event has its number");
      } else if (upTo < 0 || a.n <= upTo) {
        lost(a, "its event never came");
      } else {
        waiting.push_back(a);
      }
    }
    acked_ = std::move(waiting);
  }

 private:
  void failConnect() { stats_.connectFailures++; }
  void lost(const AckedMove& a, const char* why) {
    if (stats_.lostMoves++ < 5) {
      std::fprintf(stderr, "lost: game %s event %lld (%s house %d): %s\n", game.c_str(), a.n, a.side.c_str(), a.house,
                   why);
    }
  }
  void write() {
    ws_.async_write(net::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->out_.pop_front();
      if (!self->out_.empty()) self->write();
    });
  }
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      Json m = Json::parse(beast::buffers_to_string(self->buffer_.data()), nullptr, false);
      self->buffer_.consume(self->buffer_.size());
      self->onMessage(m);
      self->read();
    });
  }
  void onMessage(const Json& m);
  void maybeMove() {
    if (stopped_ || pending_ || !playing_ || toMove_ != side || legal_.empty()) return;
    pending_ = true;
    auto go = [self = shared_from_this()] {
      std::uniform_int_distribution<std::size_t> d(0, self->legal_.size() - 1);
      const int house = self->legal_[d(self->rng_)].get<int>();
      self->sentAt_ = Clock::now();
      self->sentHouse_ = house;
      self->send(Json{
          {"type", "move"}, {"game", self->game}, {"id", ++self->moveId_}, {"house", house}, {"after", self->last_}}
                     .dump());
    };
    if (o_.thinkMs <= 0) return go();
    std::uniform_int_distribution<int> think(o_.thinkMs / 2, o_.thinkMs * 3 / 2);
    timer_.expires_after(std::chrono::milliseconds(think(rng_)));
    timer_.async_wait([go](beast::error_code ec) {
      if (!ec) go();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  net::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  Stats& stats_;
  const Options& o_;
  std::mt19937 rng_{std::random_device{}()};
  std::string toMove_;
  Json legal_ = Json::array();
  long long last_ = 0;
  long long moveId_ = 0;
  long long firstMoveId_ = 1;  // the first move id of the game joined last
  int sentHouse_ = 0;
  bool pending_ = false;
  bool playing_ = false;  // both seats taken: a friend game waits for its second player
  bool stopped_ = false;
  struct SeenMove {
    std::string side;
    int house = 0;
  };
  std::map<long long, SeenMove> seen_;  // this game's move events by number
  std::vector<AckedMove> acked_;        // acknowledged moves whose event has not come yet
  Clock::time_point sentAt_;
  std::optional<Clock::time_point> aiTurnFrom_;  // when the turn passed to the AI
};

struct Table {
  std::shared_ptr<Bot> a, b;  // b is null against the AI
  void newGame() { a->create(); }
};

void Bot::onMessage(const Json& m) {
  const std::string type = m.value("type", "");
  if (type == "hello") {
    if (creator) table->newGame();
    return;
  }
  if (type == "created") {
    side = "S";
    join(m["id"]);
    if (table->b) {
      table->b->side = "N";
      table->b->join(m["id"]);
    }
    return;
  }
  if (type == "state") {
    const Json& g = m["game"];
    if (g["you"] == "S" || g["you"] == "N") side = g["you"];
    toMove_ = g["position"]["to_move"].is_null() ? "" : g["position"]["to_move"].get<std::string>();
    legal_ = g["legal"];
    last_ = g["last_event"];
    playing_ = g.value("status", "") == "playing";
    return maybeMove();
  }
  if (type == "ack") {
    // The ack of a move made in a game left since (the other player's client may have joined the
    // next game while this one's ack was on its way): that game's events are no longer followed
    // here, so its number is not checked against this game's.
    const Json& id = m.contains("id") ? m["id"] : Json();
    if (!id.is_number_integer() || id.get<long long>() >= firstMoveId_) {
      acked_.push_back({m.value("n", 0LL), side, sentHouse_});
      settleAcks(last_);
    }
    stats_.moves++;
    stats_.latencyMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sentAt_).count());
    pending_ = false;
    return maybeMove();
  }
  if (type == "error") {
    stats_.errors++;
    stats_.errorsByCode[m.value("code", std::string("?"))]++;
    if (stats_.errors < 5) std::fprintf(stderr, "error: %s\n", m.dump().c_str());
    pending_ = false;
    // Refused (rate limit, a race with the other player): try again a little later.
    timer_.expires_after(std::chrono::milliseconds(100));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->maybeMove();
    });
    return;
  }
  if (type == "event") {
    if (m.value("game", "") != game) return;  // a game this client has left
    last_ = m["n"];
    const Json& e = m["event"];
    if (e["kind"] == "joined") {
      playing_ = true;  // the second seat is taken: the game is on
      return maybeMove();
    }
    if (e["kind"] == "move") {
      seen_[last_] = {e.value("side", ""), e.value("house", 0)};
      settleAcks(last_);
      toMove_ = e["position"]["to_move"].is_null() ? "" : e["position"]["to_move"].get<std::string>();
      legal_ = e["legal"];
      if (!o_.ai.empty()) {
        // The AI's reply time: from the event that gave it the turn to its own move's event.
        if (e["side"] != side && aiTurnFrom_) {
          stats_.aiMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - *aiTurnFrom_).count());
          aiTurnFrom_.reset();
        }
        if (!toMove_.empty() && toMove_ != side && !aiTurnFrom_) aiTurnFrom_ = Clock::now();
      }
      maybeMove();
    } else if (e["kind"] == "game_over") {
      settleAcks(last_);
      toMove_.clear();
      aiTurnFrom_.reset();
      if (creator) {
        stats_.games++;
        if (!stopped_) table->newGame();
      }
    }
  }
}

// --preload N: N visitors, each from its own loopback address, create an AI game; the even ones
// resign it (a finished game), the odd ones leave it unfinished (abandoned). The server then holds
// N games it must not let slow the measured ones down.
class Preloader : public std::enable_shared_from_this<Preloader> {
 public:
  Preloader(net::io_context& ioc, const Options& o, int index, int& done)
      : ws_(ioc), o_(o), index_(index), done_(done) {}

  void start(const tcp::endpoint& ep) {
    const auto from = net::ip::make_address_v4(0x7f010001U + static_cast<unsigned>((index_ / 250) * 256 + index_ % 250));
    beast::error_code ec;
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(tcp::v4(), ec);
    if (!ec) socket.bind(tcp::endpoint(from, 0), ec);
    if (ec) return finish();
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(ws_).async_connect(ep, [self = shared_from_this()](beast::error_code e) {
      if (e) return self->finish();
      self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code e2) {
        if (e2) return self->finish();
        self->read();
      });
    });
  }

 private:
  void send(const Json& j) {
    auto text = std::make_shared<std::string>(j.dump());
    ws_.async_write(net::buffer(*text), [self = shared_from_this(), text](beast::error_code, std::size_t) {});
  }
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->finish();
      Json m = Json::parse(beast::buffers_to_string(self->buffer_.data()), nullptr, false);
      self->buffer_.consume(self->buffer_.size());
      const std::string type = m.is_object() ? m.value("type", "") : "";
      if (type == "hello") {
        self->send({{"type", "create"}, {"rules", self->o_.rules}, {"mode", "ai"}, {"level", "easy"}});
      } else if (type == "created") {
        if (self->index_ % 2 == 1) return self->finish();
        self->send({{"type", "join"}, {"game", m["id"]}});
        self->send({{"type", "resign"}, {"game", m["id"]}});
      } else if (type == "error" || (type == "event" && m["event"]["kind"] == "game_over")) {
        return self->finish();
      }
      self->read();
    });
  }
  void finish() {
    if (finished_) return;
    finished_ = true;
    ++done_;
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().close(ec);
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  const Options& o_;
  int index_;
  int& done_;
  bool finished_ = false;
};

void preload(const Options& o, const tcp::endpoint& ep) {
  net::io_context ioc;
  int done = 0;
  int next = 0;
  const auto start = Clock::now();
  std::function<void()> more = [&] {
    // At most 200 visitors at once.
    while (next < o.preload && next - done < 200) {
      std::make_shared<Preloader>(ioc, o, next++, done)->start(ep);
    }
  };
  net::steady_timer pump(ioc);
  std::function<void()> tick = [&] {
    more();
    if (done >= o.preload) return;
    pump.expires_after(std::chrono::milliseconds(5));
    pump.async_wait([&](beast::error_code) { tick(); });
  };
  tick();
  ioc.run();
  std::printf("preloaded=%d seconds=%.1f\n", o.preload, std::chrono::duration<double>(Clock::now() - start).count());
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

constexpr const char* kUsage =
    "usage: semis-loadgen [--port P] [--games N] [--seconds S] [--think-ms MS] [--rules R] [--ai LEVEL]\n"
    "                     [--sources N] [--preload N]\n"
    "  Plays N concurrent games against a running `semis serve` on 127.0.0.1:P (default 8080) for S\n"
    "  seconds after a warm-up, and reports moves per second, the latency from a move to its ack, errors\n"
    "  by code and acknowledged moves lost. Exit 0 only with none of those and no failed connection.\n"
    "  --games N      1..20000 (default 100): friend games, two clients each, unless --ai\n"
    "  --seconds S    1..600 (default 20)\n"
    "  --think-ms MS  each move waits MS/2..3MS/2 (default 0)\n"
    "  --rules R      default kalah\n"
    "  --ai LEVEL     one client per game against the server's AI (easy, medium, hard, perfect)\n"
    "  --sources N    1..250 loopback addresses the clients come from (default 200)\n"
    "  --preload N    0..100000 games created first and left (half resigned, half abandoned)\n";

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--help" || k == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "semis-loadgen: %s needs a value\n%s", k.c_str(), kUsage);
      return 2;
    }
    const std::string v = argv[i + 1];
    try {
      std::size_t used = 0;
      const auto number = [&] {
        const int n = std::stoi(v, &used);
        if (used != v.size()) throw std::invalid_argument(v);
        return n;
      };
      if (k == "--port") {
        const int port = number();
        if (port < 1 || port > 65535) throw std::out_of_range(v);
        o.port = static_cast<unsigned short>(port);
      } else if (k == "--games") {
        o.games = number();
      } else if (k == "--seconds") {
        o.seconds = number();
      } else if (k == "--think-ms") {
        o.thinkMs = number();
      } else if (k == "--rules") {
        o.rules = v;
      } else if (k == "--ai") {
        o.ai = v;
      } else if (k == "--sources") {
        o.sources = number();
      } else if (k == "--preload") {
        o.preload = number();
      } else {
        std::fprintf(stderr, "semis-loadgen: unknown option %s\n%s", k.c_str(), kUsage);
        return 2;
      }
    } catch (const std::exception&) {
      std::fprintf(stderr, "semis-loadgen: %s takes a number, not '%s'\n", k.c_str(), v.c_str());
      return 2;
    }
  }
  if (o.games < 1 || o.games > 20000 || o.seconds < 1 || o.seconds > 600 || o.sources < 1 || o.sources > 250 ||
      o.preload < 0 || o.preload > 100000 || o.thinkMs < 0) {
    std::fprintf(stderr, "semis-loadgen: --games 1..20000, --seconds 1..600, --sources 1..250, --preload 0..100000\n");
    return 2;
  }
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), o.port);
  if (o.preload > 0) preload(o, ep);
  net::io_context ioc;
  Stats stats;
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < o.games; ++i) {
    auto t = std::make_unique<Table>();
    const auto from = net::ip::make_address_v4(0x7f000001U + static_cast<unsigned>(i % o.sources));
    t->a = std::make_shared<Bot>(ioc, stats, o);
    t->a->table = t.get();
    t->a->creator = true;
    t->a->start(ep, from);
    if (o.ai.empty()) {
      t->b = std::make_shared<Bot>(ioc, stats, o);
      t->b->table = t.get();
      t->b->start(ep, from);
    }
    tables.push_back(std::move(t));
  }
  // Warm-up: the first seconds connect and create; measure only what follows.
  const int warmup = std::min(3, o.seconds / 4);
  net::steady_timer warm(ioc), end(ioc);
  long long movesAtWarm = 0;
  warm.expires_after(std::chrono::seconds(warmup));
  warm.async_wait([&](beast::error_code) {
    movesAtWarm = stats.moves;
    stats.latencyMs.clear();
    stats.aiMs.clear();
  });
  end.expires_after(std::chrono::seconds(warmup + o.seconds));
  end.async_wait([&](beast::error_code) {
    for (auto& t : tables) {
      t->a->stop();
      if (t->b) t->b->stop();
    }
    ioc.stop();
  });
  ioc.run();
  for (auto& t : tables) {
    t->a->finish();
    if (t->b) t->b->finish();
  }
  auto& lat = stats.latencyMs;
  const double rate = static_cast<double>(stats.moves - movesAtWarm) / o.seconds;
  std::printf("games=%d seconds=%d think_ms=%d rules=%s\n", o.games, o.seconds, o.thinkMs, o.rules.c_str());
  std::printf("moves=%lld moves_per_s=%.0f games_finished=%lld errors=%lld lost_moves=%lld connect_failures=%lld\n",
              stats.moves - movesAtWarm, rate, stats.games, stats.errors, stats.lostMoves, stats.connectFailures);
  std::printf("errors_by_code");
  for (const auto& [code, count] : stats.errorsByCode) std::printf(" %s=%lld", code.c_str(), count);
  std::printf("%s\n", stats.errorsByCode.empty() ? " none" : "");
  const double p50 = percentile(lat, 0.50), p90 = percentile(lat, 0.90), p99 = percentile(lat, 0.99),
               p999 = percentile(lat, 0.999), mx = lat.empty() ? 0 : *std::max_element(lat.begin(), lat.end());
  std::printf("latency_ms p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f max=%.2f (n=%zu)\n", p50, p90, p99, p999, mx,
              lat.size());
  if (!o.ai.empty()) {
    auto& ai = stats.aiMs;
    const double a50 = percentile(ai, 0.50), a90 = percentile(ai, 0.90), a99 = percentile(ai, 0.99),
                 amx = ai.empty() ? 0 : *std::max_element(ai.begin(), ai.end());
    std::printf("ai_reply_ms level=%s p50=%.1f p90=%.1f p99=%.1f max=%.1f (n=%zu)\n", o.ai.c_str(), a50, a90, a99, amx,
                ai.size());
  }
  return stats.errors == 0 && stats.lostMoves == 0 && stats.connectFailures == 0 ? 0 : 1;
}
