// semis-loadgen: plays many concurrent games against a running `semis serve` over loopback and
// reports moves per second and the latency of each move from send to `ack`, in percentiles.
// Human-vs-human by default (two WebSocket clients per game, random legal moves); with `--ai LEVEL`
// one client per game plays the server's AI, and the AI's reply time (from the human move's `ack`
// to the AI's move event) is reported too. Clients connect from `--sources N` loopback addresses
// (127.0.0.1 ..), as N visitors would, so per-address limits see a crowd, not one attacker.
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
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
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
  long long connectFailures = 0;
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
    game = id;
    pending_ = false;
    toMove_.clear();
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

 private:
  void failConnect() { stats_.connectFailures++; }
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
    if (stopped_ || pending_ || toMove_ != side || legal_.empty()) return;
    pending_ = true;
    auto go = [self = shared_from_this()] {
      std::uniform_int_distribution<std::size_t> d(0, self->legal_.size() - 1);
      const int house = self->legal_[d(self->rng_)].get<int>();
      self->sentAt_ = Clock::now();
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
  bool pending_ = false;
  bool stopped_ = false;
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
    return maybeMove();
  }
  if (type == "ack") {
    stats_.moves++;
    stats_.latencyMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sentAt_).count());
    pending_ = false;
    return maybeMove();
  }
  if (type == "error") {
    stats_.errors++;
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
    last_ = m["n"];
    const Json& e = m["event"];
    if (e["kind"] == "move") {
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

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const std::string v = argv[i + 1];
    if (k == "--port")
      o.port = static_cast<unsigned short>(std::stoi(v));
    else if (k == "--games")
      o.games = std::stoi(v);
    else if (k == "--seconds")
      o.seconds = std::stoi(v);
    else if (k == "--think-ms")
      o.thinkMs = std::stoi(v);
    else if (k == "--rules")
      o.rules = v;
    else if (k == "--ai")
      o.ai = v;
    else if (k == "--sources")
      o.sources = std::stoi(v);
    else if (k == "--preload")
      o.preload = std::stoi(v);
    else {
      std::fprintf(stderr,
                   "usage: semis-loadgen [--port P] [--games N] [--seconds S] [--think-ms MS] [--rules R] [--ai LEVEL]"
                   " [--sources N] [--preload N]\n");
      return 2;
    }
  }
  if (o.games < 1 || o.games > 20000 || o.seconds < 1 || o.seconds > 600 || o.sources < 1 || o.sources > 250 || o.preload < 0 || o.preload > 100000) {
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
  auto& lat = stats.latencyMs;
  const double rate = static_cast<double>(stats.moves - movesAtWarm) / o.seconds;
  std::printf("games=%d seconds=%d think_ms=%d rules=%s\n", o.games, o.seconds, o.thinkMs, o.rules.c_str());
  std::printf("moves=%lld moves_per_s=%.0f games_finished=%lld errors=%lld connect_failures=%lld\n",
              stats.moves - movesAtWarm, rate, stats.games, stats.errors, stats.connectFailures);
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
  return stats.errors == 0 && stats.connectFailures == 0 ? 0 : 1;
}
