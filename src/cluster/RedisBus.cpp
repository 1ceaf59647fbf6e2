// The bus on Redis (hiredis 0.14, blocking contexts on three threads' worth of connections):
// - a writer thread drains the outgoing queue (publishes and fire-and-forget commands), pipelined:
//   a batch is written at once, then its replies read;
// - a reader thread holds the subscription connection; it polls the socket 100 ms at a time, so
//   (un)subscriptions asked meanwhile are sent between reads, and it reconnects after any loss,
//   subscribes to everything again and calls `resubscribed`;
// - command() has a connection of its own behind a mutex, with the bus's timeout.
// A hiredis context that has failed cannot be reused: each failure drops it and the next use opens
// a new one. Nothing here throws into its caller, and no exception leaves a thread.

#include <fcntl.h>
#include <poll.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <hiredis/hiredis.h>
#include <mutex>
#include <set>
#include <thread>

#include "cluster/Bus.hpp"

namespace semis::cluster {

namespace {

struct Address {
  std::string host;  // empty: unix socket at `path`
  int port = 6379;
  std::string path;
  int db = 0;
};

tl::expected<Address, BusError> parseAddress(const std::string& where) {
  Address a;
  if (where.rfind("unix:", 0) == 0) {
    a.path = where.substr(5);
    if (a.path.empty()) return tl::unexpected(BusError{"unix: needs a socket path"});
    return a;
  }
  if (where.rfind("redis://", 0) != 0)
    return tl::unexpected(BusError{"a Redis address is redis://HOST:PORT[/DB] or unix:PATH, not '" + where + "'"});
  std::string rest = where.substr(8);
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    const std::string db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!db.empty()) {
      auto [p, ec] = std::from_chars(db.data(), db.data() + db.size(), a.db);
      if (ec != std::errc() || p != db.data() + db.size() || a.db < 0 || a.db > 15)
        return tl::unexpected(BusError{"the Redis database is 0..15, not '" + db + "'"});
    }
  }
  if (auto colon = rest.rfind(':'); colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), a.port);
    if (ec != std::errc() || p != port.data() + port.size() || a.port < 1 || a.port > 65535)
      return tl::unexpected(BusError{"bad Redis port '" + port + "'"});
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) return tl::unexpected(BusError{"a Redis address needs a host: '" + where + "'"});
  a.host = rest;
  return a;
}

timeval toTimeval(int ms) { return timeval{ms / 1000, (ms % 1000) * 1000}; }

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextDeleter>;

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

Reply convert(const redisReply* r) {
  Reply out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.kind = Reply::Kind::Integer;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      out.kind = Reply::Kind::String;
      out.string.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      out.kind = Reply::Kind::Array;
      for (std::size_t i = 0; i < r->elements; ++i) out.array.push_back(convert(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

void append(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  redisAppendCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lens.data());
}

// A new connection, with the bus's timeout on connect, reads and writes; SELECTs the database.
tl::expected<Context, BusError> connect(const Address& a, int timeoutMs) {
  const timeval tv = toTimeval(timeoutMs);
  Context c(a.path.empty() ? redisConnectWithTimeout(a.host.c_str(), a.port, tv)
                           : redisConnectUnixWithTimeout(a.path.c_str(), tv));
  if (!c) return tl::unexpected(BusError{"out of memory"});
  const std::string where = a.path.empty() ? a.host + ":" + std::to_string(a.port) : a.path;
  if (c->err) return tl::unexpected(BusError{"cannot reach Redis at " + where + ": " + c->errstr});
  redisSetTimeout(c.get(), tv);
  if (a.db != 0) {
    ReplyPtr r(static_cast<redisReply*>(redisCommand(c.get(), "SELECT %d", a.db)));
    if (!r || r->type == REDIS_REPLY_ERROR) return tl::unexpected(BusError{"Redis refused SELECT " + std::to_string(a.db)});
  }
  return c;
}

class RedisBus final : public Bus {
 public:
  RedisBus(Address address, BusOptions options) : address_(std::move(address)), options_(options) {
    // A pipe that wakes the reader's poll() when subscriptions change or the bus stops.
    if (::pipe2(wakeFds_, O_NONBLOCK | O_CLOEXEC) != 0) wakeFds_[0] = wakeFds_[1] = -1;
  }
  ~RedisBus() override {
    stop();
    for (int fd : wakeFds_)
      if (fd >= 0) ::close(fd);
  }

  void start(BusHandlers handlers) override {
    handlers_ = std::move(handlers);
    writer_ = std::thread([this] { writeLoop(); });
    reader_ = std::thread([this] { readLoop(); });
  }

  void stop() override {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    wake_.notify_all();
    queued_.notify_all();
    poke();
    if (writer_.joinable()) writer_.join();
    if (reader_.joinable()) reader_.join();
  }

  void publish(const std::string& channel, std::string payload) override {
    send({"PUBLISH", channel, std::move(payload)});
  }

  void send(std::vector<std::string> args) override {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    if (queue_.size() >= options_.maxQueued) {
      queue_.pop_front();  // Redis is away: the oldest goes (a follower reloads what it missed)
      ++dropped_;
    }
    queue_.push_back(std::move(args));
    queued_.notify_one();
  }

  void subscribe(const std::string& channel) override {
    {
      std::lock_guard lock(mu_);
      if (!channels_.insert(channel).second) return;
      changes_.emplace_back(true, channel);
    }
    poke();
  }
  void unsubscribe(const std::string& channel) override {
    {
      std::lock_guard lock(mu_);
      if (channels_.erase(channel) == 0) return;
      changes_.emplace_back(false, channel);
    }
    poke();
  }

  BusResult<Reply> command(const std::vector<std::string>& args) override {
    std::lock_guard lock(commandMu_);
    return commandOn(command_, args);
  }

  void publishNow(const std::string& channel, const std::string& payload) override {
    std::lock_guard lock(urgentMu_);
    (void)commandOn(urgent_, {"PUBLISH", channel, payload});
  }

  [[nodiscard]] bool connected() const override { return subscribed_; }
  [[nodiscard]] long long failures() const override { return failures_; }
  [[nodiscard]] long long dropped() const override {
    std::lock_guard lock(mu_);
    return dropped_;
  }

 private:
  // An exception caught on a bus thread: counted, and told to the caller (who logs it). A failing
  // report is not let out of the thread either.
  void failed(std::string_view where, std::string_view what) noexcept {
    ++failures_;
    if (!handlers_.failed) return;
    try {
      handlers_.failed(where, what);
    } catch (...) {  // NOLINT(bugprone-empty-catch): counted above; the report itself failed
    }
  }

  void poke() {
    if (wakeFds_[1] >= 0) {
      const char b = 1;
      (void)!::write(wakeFds_[1], &b, 1);  // full pipe: a wake-up is pending anyway
    }
  }

  // One command on `c` (opened if needed). A connection that was open may have been cut since its
  // last use (Redis restarted): its failure is the old socket's, not Redis's answer, so the command
  // is tried once more on a new connection (the first read after a restart must not fail).
  BusResult<Reply> commandOn(Context& c, const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lens;
    for (const std::string& a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    for (int attempt = 0;; ++attempt) {
      const bool reused = c != nullptr;
      if (!c) {
        auto opened = connect(address_, options_.timeoutMs);
        if (!opened) return tl::unexpected(opened.error());
        c = std::move(*opened);
      }
      ReplyPtr r(static_cast<redisReply*>(
          redisCommandArgv(c.get(), static_cast<int>(argv.size()), argv.data(), lens.data())));
      if (!r) {
        const std::string why = c->errstr;
        c.reset();
        if (reused && attempt == 0) continue;
        return tl::unexpected(BusError{"Redis: " + why});
      }
      if (r->type == REDIS_REPLY_ERROR) return tl::unexpected(BusError{std::string("Redis: ") + r->str});
      return convert(r.get());
    }
  }

  // Waits `ms` unless stopping; false when stopping.
  bool pause(int ms) {
    std::unique_lock lock(mu_);
    return !wake_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
  }

  void writeLoop() {
    Context c;
    while (true) {
      std::vector<std::vector<std::string>> batch;
      {
        std::unique_lock lock(mu_);
        queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        while (!queue_.empty() && batch.size() < 512) {
          batch.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      try {
        // A connection kept from before may have been cut meanwhile (Redis restarted while this
        // writer had nothing to send): then not one reply comes, and a new Redis has run none of
        // the batch, which is sent once more on a new connection. (The resync after a restart
        // writes the whole live list: dropped here, quiet games would vanish from it.)
        for (int attempt = 0; attempt < 2; ++attempt) {
          const bool reused = c != nullptr;
          if (!c) {
            auto opened = connect(address_, options_.timeoutMs);
            if (!opened) {
              requeue(std::move(batch));
              batch.clear();
              if (!pause(options_.reconnectMs)) return;
              break;
            }
            c = std::move(*opened);
          }
          for (const auto& args : batch) append(c.get(), args);
          std::size_t replies = 0;
          bool ok = true;
          for (std::size_t i = 0; i < batch.size() && ok; ++i) {
            void* raw = nullptr;
            ok = redisGetReply(c.get(), &raw) == REDIS_OK;
            if (ok) ++replies;
            freeReplyObject(raw);
          }
          if (ok) break;
          c.reset();
          if (reused && replies == 0 && attempt == 0) continue;
          // Sent or not, these are gone: at most once, as the followers expect.
          std::lock_guard lock(mu_);
          dropped_ += static_cast<long long>(batch.size() - replies);
          break;
        }
      } catch (const std::exception& e) {
        c.reset();
        failed("writer", e.what());
      } catch (...) {
        c.reset();
        failed("writer", "unknown exception");
      }
    }
  }

  // A batch that could not be sent goes back to the front, within the queue's bound.
  void requeue(std::vector<std::vector<std::string>> batch) {
    std::lock_guard lock(mu_);
    for (auto it = batch.rbegin(); it != batch.rend(); ++it) queue_.push_front(std::move(*it));
    while (queue_.size() > options_.maxQueued) {
      queue_.pop_front();
      ++dropped_;
    }
  }

  void readLoop() {
    Context c;
    bool everConnected = false;
    while (true) {
      {
        std::lock_guard lock(mu_);
        if (stopping_) return;
      }
      try {
        if (!c) {
          subscribed_ = false;
          auto opened = connect(address_, options_.timeoutMs);
          if (!opened) {
            if (!pause(options_.reconnectMs)) return;
            continue;
          }
          c = std::move(*opened);
          if (!subscribeAll(c.get())) {
            c.reset();
            continue;
          }
          subscribed_ = true;
          if (everConnected && handlers_.resubscribed) handlers_.resubscribed();
          everConnected = true;
        }
        if (!sendChanges(c.get()) || !readSome(c.get())) c.reset();
      } catch (const std::exception& e) {
        c.reset();  // resubscribed on the next turn: the caller resynchronizes what was missed
        failed("reader", e.what());
      } catch (...) {
        c.reset();
        failed("reader", "unknown exception");
      }
    }
  }

  // A new connection: every wanted channel, and the changes asked so far are in it.
  bool subscribeAll(redisContext* c) {
    std::vector<std::string> args{"SUBSCRIBE"};
    {
      std::lock_guard lock(mu_);
      changes_.clear();
      args.insert(args.end(), channels_.begin(), channels_.end());
    }
    if (args.size() > 1) append(c, args);
    return flush(c);
  }

  // The (un)subscriptions asked since the last call, in order: O(changes), not O(channels).
  bool sendChanges(redisContext* c) {
    std::deque<std::pair<bool, std::string>> changes;
    {
      std::lock_guard lock(mu_);
      if (changes_.empty()) return true;
      changes.swap(changes_);
    }
    for (auto& [on, channel] : changes) append(c, {on ? "SUBSCRIBE" : "UNSUBSCRIBE", channel});
    return flush(c);
  }

  static bool flush(redisContext* c) {
    int done = 0;
    while (!done) {
      if (redisBufferWrite(c, &done) != REDIS_OK) return false;
    }
    return true;
  }

  // Waits up to 100 ms for data (or a poke), then hands every complete message to the handler.
  bool readSome(redisContext* c) {
    pollfd p[2] = {{c->fd, POLLIN, 0}, {wakeFds_[0], POLLIN, 0}};
    const int n = ::poll(p, wakeFds_[0] >= 0 ? 2 : 1, 100);
    if (n < 0) return errno == EINTR;
    if (wakeFds_[0] >= 0 && (p[1].revents & POLLIN) != 0) {
      char drain[64];
      while (::read(wakeFds_[0], drain, sizeof drain) > 0) {
      }
    }
    if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) return true;
    if (redisBufferRead(c) != REDIS_OK) return false;
    while (true) {
      void* raw = nullptr;
      if (redisGetReplyFromReader(c, &raw) != REDIS_OK) return false;
      if (raw == nullptr) return true;
      ReplyPtr r(static_cast<redisReply*>(raw));
      // ["message", channel, payload] or ["subscribe", channel, count].
      if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || r->element[0]->type != REDIS_REPLY_STRING ||
          r->element[1]->type != REDIS_REPLY_STRING)
        continue;
      const std::string_view kind(r->element[0]->str, r->element[0]->len);
      std::string channel(r->element[1]->str, r->element[1]->len);
      if (kind == "message" && r->element[2]->type == REDIS_REPLY_STRING && handlers_.message) {
        handlers_.message(channel, std::string(r->element[2]->str, r->element[2]->len));
      } else if (kind == "subscribe" && handlers_.subscribed) {
        handlers_.subscribed(channel);
      }
    }
  }

  Address address_;
  BusOptions options_;
  BusHandlers handlers_;
  std::thread writer_;
  std::thread reader_;

  mutable std::mutex mu_;  // below
  std::condition_variable wake_;  // pause()s, both threads': woken by stop() only
  // The writer's wait for the queue, its own: with one variable for both, a publish's notify_one
  // could wake the reader's pause() instead, and the message stayed queued until the next publish
  // (seen after a Redis restart, the publisher's reader still retrying).
  std::condition_variable queued_;
  bool stopping_ = false;
  std::deque<std::vector<std::string>> queue_;
  std::set<std::string> channels_;                       // wanted subscriptions
  std::deque<std::pair<bool, std::string>> changes_;     // asked since the reader last sent them
  long long dropped_ = 0;

  std::atomic<bool> subscribed_{false};
  std::atomic<long long> failures_{0};
  int wakeFds_[2] = {-1, -1};
  std::mutex commandMu_;
  Context command_;
  std::mutex urgentMu_;  // heartbeats: a connection of their own, never behind the queue
  Context urgent_;
};

}  // namespace

BusResult<std::unique_ptr<Bus>> openRedisBus(const std::string& where, const BusOptions& options) {
  auto address = parseAddress(where);
  if (!address) return tl::unexpected(address.error());
  // Reached once now, so that a wrong address stops the server at start with a clear message.
  auto probe = connect(*address, options.timeoutMs);
  if (!probe) return tl::unexpected(probe.error());
  ReplyPtr pong(static_cast<redisReply*>(redisCommand(probe->get(), "PING")));
  if (!pong || pong->type == REDIS_REPLY_ERROR)
    return tl::unexpected(BusError{"Redis at " + where + " does not answer PING"});
  return std::unique_ptr<Bus>(std::make_unique<RedisBus>(*address, options));
}

}  // namespace semis::cluster
