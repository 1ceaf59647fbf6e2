// The bus in one process, for tests of several hubs side by side: what one bus publishes reaches
// every bus of the same LoopbackHub subscribed to the channel (its own too, as with Redis), on
// that bus's own delivery thread, in order. A cut (setLoopbackUp(false)) drops publishes and fails
// commands, like Redis down; the restore calls `resubscribed`.

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "cluster/Bus.hpp"

namespace semis::cluster {

class LoopbackBus;

class LoopbackHub {
 public:
  std::mutex mu;
  std::set<LoopbackBus*> buses;
  bool up = true;
  std::map<std::string, std::map<std::string, std::string>> hashes;
  std::map<std::string, std::map<std::string, double>> zsets;
};

namespace {

Reply str(std::string s) {
  Reply r;
  r.kind = Reply::Kind::String;
  r.string = std::move(s);
  return r;
}

Reply integer(long long n) {
  Reply r;
  r.kind = Reply::Kind::Integer;
  r.integer = n;
  return r;
}

Reply array(std::vector<Reply> items) {
  Reply r;
  r.kind = Reply::Kind::Array;
  r.array = std::move(items);
  return r;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return s;
}

// The few commands the hub uses, on the hub's key space (called with hub.mu held).
BusResult<Reply> run(LoopbackHub& hub, const std::vector<std::string>& a) {
  if (a.empty()) return tl::unexpected(BusError{"empty command"});
  const std::string cmd = upper(a[0]);
  auto arity = [&](std::size_t n) { return a.size() >= n; };
  if (cmd == "HSET" && arity(4) && a.size() % 2 == 0) {
    long long added = 0;
    for (std::size_t i = 2; i + 1 < a.size(); i += 2) added += hub.hashes[a[1]].insert_or_assign(a[i], a[i + 1]).second;
    return integer(added);
  }
  if (cmd == "HDEL" && arity(3)) {
    long long removed = 0;
    for (std::size_t i = 2; i < a.size(); ++i) removed += static_cast<long long>(hub.hashes[a[1]].erase(a[i]));
    return integer(removed);
  }
  if (cmd == "HGET" && a.size() == 3) {
    const auto& h = hub.hashes[a[1]];
    auto it = h.find(a[2]);
    return it == h.end() ? Reply{} : str(it->second);
  }
  if (cmd == "HGETALL" && arity(2)) {
    std::vector<Reply> out;
    for (const auto& [k, v] : hub.hashes[a[1]]) {
      out.push_back(str(k));
      out.push_back(str(v));
    }
    return array(std::move(out));
  }
  if (cmd == "HMGET" && arity(3)) {
    std::vector<Reply> out;
    const auto& h = hub.hashes[a[1]];
    for (std::size_t i = 2; i < a.size(); ++i) {
      auto it = h.find(a[i]);
      out.push_back(it == h.end() ? Reply{} : str(it->second));
    }
    return array(std::move(out));
  }
  if (cmd == "ZADD" && arity(4) && a.size() % 2 == 0) {
    long long added = 0;
    for (std::size_t i = 2; i + 1 < a.size(); i += 2)
      added += hub.zsets[a[1]].insert_or_assign(a[i + 1], std::stod(a[i])).second;
    return integer(added);
  }
  if (cmd == "ZREM" && arity(3)) {
    long long removed = 0;
    for (std::size_t i = 2; i < a.size(); ++i) removed += static_cast<long long>(hub.zsets[a[1]].erase(a[i]));
    return integer(removed);
  }
  if (cmd == "ZREVRANGE" && a.size() == 4) {
    std::vector<std::pair<double, std::string>> sorted;
    for (const auto& [member, score] : hub.zsets[a[1]]) sorted.emplace_back(score, member);
    std::sort(sorted.rbegin(), sorted.rend());
    const long long from = std::stoll(a[2]);
    long long to = std::stoll(a[3]);
    if (to < 0) to += static_cast<long long>(sorted.size());
    std::vector<Reply> out;
    for (long long i = std::max(0LL, from); i <= to && i < static_cast<long long>(sorted.size()); ++i)
      out.push_back(str(sorted[static_cast<std::size_t>(i)].second));
    return array(std::move(out));
  }
  if (cmd == "DEL" && arity(2)) {
    long long removed = 0;
    for (std::size_t i = 1; i < a.size(); ++i)
      removed += static_cast<long long>(hub.hashes.erase(a[i]) + hub.zsets.erase(a[i]));
    return integer(removed);
  }
  return tl::unexpected(BusError{"the loopback bus does not know " + a[0]});
}

}  // namespace

class LoopbackBus final : public Bus {
 public:
  explicit LoopbackBus(std::shared_ptr<LoopbackHub> hub) : hub_(std::move(hub)) {
    std::lock_guard lock(hub_->mu);
    hub_->buses.insert(this);
  }
  ~LoopbackBus() override {
    stop();
    std::lock_guard lock(hub_->mu);
    hub_->buses.erase(this);
  }

  void start(BusHandlers handlers) override {
    handlers_ = std::move(handlers);
    thread_ = std::thread([this] { deliver(); });
  }

  void stop() override {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void publish(const std::string& channel, std::string payload) override {
    std::lock_guard lock(hub_->mu);
    if (!hub_->up) {
      ++dropped_;
      return;
    }
    for (LoopbackBus* b : hub_->buses) b->offer(channel, payload);
  }
  void subscribe(const std::string& channel) override {
    std::lock_guard lock(mu_);
    channels_.insert(channel);
  }
  void unsubscribe(const std::string& channel) override {
    std::lock_guard lock(mu_);
    channels_.erase(channel);
  }
  void send(std::vector<std::string> args) override {
    std::lock_guard lock(hub_->mu);
    if (!hub_->up) {
      ++dropped_;
      return;
    }
    (void)run(*hub_, args);  // fire-and-forget, as on Redis: a bad command is the caller's bug
  }
  BusResult<Reply> command(const std::vector<std::string>& args) override {
    std::lock_guard lock(hub_->mu);
    if (!hub_->up) return tl::unexpected(BusError{"the bus is down"});
    return run(*hub_, args);
  }
  [[nodiscard]] bool connected() const override {
    std::lock_guard lock(hub_->mu);
    return hub_->up;
  }
  [[nodiscard]] long long dropped() const override {
    std::lock_guard lock(hub_->mu);
    return dropped_;
  }

  // Called with the hub's lock held.
  void offer(const std::string& channel, const std::string& payload) {
    std::lock_guard lock(mu_);
    if (channels_.count(channel) == 0) return;
    queue_.emplace_back(channel, payload);
    wake_.notify_one();
  }
  void restored() {
    std::lock_guard lock(mu_);
    resubscribe_ = true;
    wake_.notify_one();
  }

 private:
  void deliver() {
    std::unique_lock lock(mu_);
    while (true) {
      wake_.wait(lock, [this] { return stopping_ || resubscribe_ || !queue_.empty(); });
      if (stopping_) return;
      if (resubscribe_) {
        resubscribe_ = false;
        lock.unlock();
        if (handlers_.resubscribed) handlers_.resubscribed();
        lock.lock();
        continue;
      }
      auto [channel, payload] = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      if (handlers_.message) handlers_.message(channel, payload);
      lock.lock();
    }
  }

  std::shared_ptr<LoopbackHub> hub_;
  BusHandlers handlers_;
  std::thread thread_;
  mutable std::mutex mu_;  // below: the subscriptions and the delivery queue
  std::condition_variable wake_;
  std::set<std::string> channels_;
  std::deque<std::pair<std::string, std::string>> queue_;
  bool stopping_ = false;
  bool resubscribe_ = false;
  long long dropped_ = 0;  // under the hub's lock
};

std::shared_ptr<LoopbackHub> makeLoopbackHub() { return std::make_shared<LoopbackHub>(); }

std::unique_ptr<Bus> makeLoopbackBus(const std::shared_ptr<LoopbackHub>& hub) {
  return std::make_unique<LoopbackBus>(hub);
}

void setLoopbackUp(LoopbackHub& hub, bool up) {
  std::lock_guard lock(hub.mu);
  const bool restored = up && !hub.up;
  hub.up = up;
  if (restored) {
    for (LoopbackBus* b : hub.buses) b->restored();
  }
}

}  // namespace semis::cluster
