#include "hub/ClusterLink.hpp"

#include <cstdlib>
#include <utility>

#include "accounts/Tokens.hpp"
#include "ops/WallClock.hpp"
#include "protocol/Json.hpp"

namespace semis::server {

namespace {

std::string dump(const Json& j) { return protocol::dumpJson(j); }

template <class T>
bool read(const Json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end()) return false;
  if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return false;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return false;
  } else {
    if (!it->is_number_integer()) return false;
  }
  out = it->get<T>();
  return true;
}

}  // namespace

Json actionJson(const store::Action& a) {
  Json j{{"game", a.game}, {"at", a.at}};
  if (a.move) {
    const store::MoveRow& m = *a.move;
    j["move"] = {{"seq", m.seq},     {"kind", m.kind},      {"side", m.side},      {"house", m.house},
                 {"id", m.clientId}, {"clock_s", m.clockS}, {"clock_n", m.clockN}, {"event", m.eventN}};
  }
  Json events = Json::array();
  for (const store::EventRow& e : a.events) events.push_back({{"n", e.n}, {"json", e.json}});
  j["events"] = std::move(events);
  if (a.update) {
    j["update"] = {{"seat_s", a.update->seatS},
                   {"seat_n", a.update->seatN},
                   {"status", a.update->status},
                   {"result", a.update->result}};
  }
  return j;
}

std::optional<store::Action> actionFromJson(const Json& j) {
  store::Action a;
  if (!j.is_object() || !read(j, "game", a.game) || !read(j, "at", a.at)) return std::nullopt;
  if (auto m = j.find("move"); m != j.end()) {
    store::MoveRow r;
    if (!m->is_object() || !read(*m, "seq", r.seq) || !read(*m, "kind", r.kind) || !read(*m, "side", r.side) ||
        !read(*m, "house", r.house) || !read(*m, "id", r.clientId) || !read(*m, "clock_s", r.clockS) ||
        !read(*m, "clock_n", r.clockN) || !read(*m, "event", r.eventN))
      return std::nullopt;
    a.move = r;
  }
  auto events = j.find("events");
  if (events == j.end() || !events->is_array() || events->empty()) return std::nullopt;
  for (const Json& e : *events) {
    store::EventRow row;
    if (!e.is_object() || !read(e, "n", row.n) || !read(e, "json", row.json)) return std::nullopt;
    // Consecutive numbers: a follower appends them to what it holds.
    if (!a.events.empty() && row.n != a.events.back().n + 1) return std::nullopt;
    a.events.push_back(std::move(row));
  }
  if (auto u = j.find("update"); u != j.end()) {
    store::GameUpdate g;
    if (!u->is_object() || !read(*u, "seat_s", g.seatS) || !read(*u, "seat_n", g.seatN) ||
        !read(*u, "status", g.status) || !read(*u, "result", g.result))
      return std::nullopt;
    a.update = g;
  }
  return a;
}

std::optional<BusMessage> decodeBusMessage(const std::string& site, const std::string& channel,
                                           const std::string& payload) {
  const Json j = Json::parse(payload, nullptr, false);
  BusMessage m;
  std::string kind;
  if (j.is_discarded() || !j.is_object() || !read(j, "i", m.instance) || !read(j, "k", kind)) return std::nullopt;
  if (channel == ClusterLink::instancesChannel(site)) {
    if (kind == "forget") {
      if (!read(j, "token", m.tokenHash) || !read(j, "player", m.player)) return std::nullopt;
      m.kind = BusMessage::Kind::Forget;
      return m;
    }
    if (kind == "notify") {
      const auto msg = j.find("message");
      if (!read(j, "player", m.player) || m.player.empty() || msg == j.end() || !msg->is_object()) return std::nullopt;
      m.kind = BusMessage::Kind::Notify;
      m.message = *msg;
      return m;
    }
    if (kind != "beat" || !read(j, "peers", m.peers)) return std::nullopt;
    (void)read(j, "boot", m.boot);  // (absent from an older instance: never a restart)
    m.kind = BusMessage::Kind::Heartbeat;
    return m;
  }
  const std::string prefix = ClusterLink::gameChannel(site, "");
  if (channel.rfind(prefix, 0) != 0) return std::nullopt;
  m.game = channel.substr(prefix.size());
  if (kind == "action") {
    auto it = j.find("action");
    if (it == j.end()) return std::nullopt;
    auto a = actionFromJson(*it);
    if (!a || a->game != m.game) return std::nullopt;
    m.kind = BusMessage::Kind::Action;
    m.action = std::move(*a);
    return m;
  }
  if (kind == "ask") {
    m.kind = BusMessage::Kind::Ask;
    // Absent from an older instance (it never asks so); present, it must be a boolean.
    if (j.contains("dropped") && !read(j, "dropped", m.dropped)) return std::nullopt;
    return m;
  }
  if (kind == "conn") {
    auto it = j.find("counts");
    if (it == j.end() || !it->is_object() || it->size() > 10000) return std::nullopt;
    for (const auto& [player, n] : it->items()) {
      if (!n.is_number_integer() || n.get<long long>() < 0 || n.get<long long>() > 1000000) return std::nullopt;
      m.counts[player] = n.get<int>();
    }
    m.kind = BusMessage::Kind::Connections;
    return m;
  }
  return std::nullopt;
}

ClusterLink::ClusterLink(cluster::Bus& bus, std::string instance, std::string site)
    : bus_(bus),
      instance_(std::move(instance)),
      site_(std::move(site)),
      liveLines_(site_ + ":live"),
      liveOrder_(site_ + ":live:order"),
      boot_(accounts::randomId(10)),
      leases_(bus_, site_ + ":present", instance_) {}

ClusterLink::~ClusterLink() { stopBeating(); }

void ClusterLink::startBeating(std::function<long long()> peers, std::function<void()> late, long long everyMs,
                               long long silentMs, std::function<void(std::string_view what)> failed) {
  if (beater_.joinable()) return;
  beater_ = std::thread([this, peers = std::move(peers), late = std::move(late), failed = std::move(failed), everyMs,
                         silentMs] {
    using Clock = std::chrono::steady_clock;
    auto last = Clock::now();
    std::unique_lock lock(beatMu_);
    while (!beatStop_) {
      lock.unlock();
      const auto now = Clock::now();
      // No exception leaves the thread: a failed beat is the next one's to make.
      try {
        heartbeat(peers());
        if (now - last > std::chrono::milliseconds(silentMs)) late();
        const long long wall =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        auto gone = silent(wall, silentMs);
        std::lock_guard guard(mu_);
        lapsed_.insert(lapsed_.end(), gone.begin(), gone.end());
      } catch (const std::exception& e) {
        if (failed) failed(e.what());
      }
      last = now;
      lock.lock();
      beatWake_.wait_for(lock, std::chrono::milliseconds(everyMs), [this] { return beatStop_; });
    }
  });
}

void ClusterLink::stopBeating() {
  {
    std::lock_guard lock(beatMu_);
    beatStop_ = true;
  }
  beatWake_.notify_all();
  if (beater_.joinable()) beater_.join();
}

void ClusterLink::publishAction(const store::Action& action) {
  bus_.publish(gameChannel(site_, action.game),
               dump(Json{{"i", instance_}, {"k", "action"}, {"action", actionJson(action)}}));
}

void ClusterLink::publishConnections(const std::string& game, const std::map<std::string, int>& counts) {
  Json c = Json::object();
  for (const auto& [player, n] : counts) c[player] = n;
  bus_.publish(gameChannel(site_, game), dump(Json{{"i", instance_}, {"k", "conn"}, {"counts", c}}));
}

void ClusterLink::publishAsk(const std::string& game, bool dropped) {
  Json m{{"i", instance_}, {"k", "ask"}};
  if (dropped) m["dropped"] = true;
  bus_.publish(gameChannel(site_, game), dump(m));
}

void ClusterLink::publishNotify(const std::string& player, const Json& message) {
  bus_.publish(instancesChannel(site_),
               dump(Json{{"i", instance_}, {"k", "notify"}, {"player", player}, {"message", message}}));
}

void ClusterLink::publishForget(const std::string& tokenHash, const std::string& player) {
  bus_.publish(instancesChannel(site_),
               dump(Json{{"i", instance_}, {"k", "forget"}, {"token", tokenHash}, {"player", player}}));
}

void ClusterLink::heartbeat(long long peers) {
  bus_.publishNow(instancesChannel(site_),
                  dump(Json{{"i", instance_}, {"k", "beat"}, {"peers", peers}, {"boot", boot_}}));
}

void ClusterLink::setLiveLine(const std::string& game, long long created, const Json& line) {
  bus_.send({"HSET", liveLines_, game, dump(line)});
  bus_.send({"ZADD", liveOrder_, std::to_string(created), game});
}

void ClusterLink::dropLiveLine(const std::string& game) {
  bus_.send({"HDEL", liveLines_, game});
  bus_.send({"ZREM", liveOrder_, game});
}

void ClusterLink::markPresent(const std::string& player, long long ttlMs, bool wait) {
  leases_.renew(player, ttlMs, wait);
}

void ClusterLink::markAbsent(const std::string& player) { leases_.remove(player); }

bool ClusterLink::presentElsewhere(const std::string& player) { return leases_.elsewhere(player); }

std::vector<std::string> ClusterLink::presentPlayers(std::size_t limit) { return leases_.present(limit); }

std::optional<std::vector<LiveLine>> ClusterLink::liveLines(std::size_t limit) {
  auto ids = bus_.command({"ZREVRANGE", liveOrder_, "0", std::to_string(static_cast<long long>(limit) - 1)});
  if (!ids || ids->kind != cluster::Reply::Kind::Array) return std::nullopt;
  std::vector<LiveLine> out;
  if (ids->array.empty()) return out;
  std::vector<std::string> args{"HMGET", liveLines_};
  for (const cluster::Reply& id : ids->array) args.push_back(id.string);
  auto lines = bus_.command(args);
  if (!lines || lines->kind != cluster::Reply::Kind::Array) return std::nullopt;
  for (const cluster::Reply& line : lines->array) {
    if (line.kind != cluster::Reply::Kind::String) continue;  // dropped between the two reads
    if (auto l = liveLineOf(Json::parse(line.string, nullptr, false))) out.push_back(std::move(*l));
  }
  return out;
}

ClusterLink::Heard ClusterLink::heard(const std::string& instance, long long peers, const std::string& boot,
                                      long long nowMs) {
  if (instance == instance_) return Heard::Known;
  std::lock_guard lock(mu_);
  auto [it, fresh] = others_.try_emplace(instance);
  Other& o = it->second;
  Heard h = Heard::Known;
  if (!fresh && !boot.empty() && !o.boot.empty() && boot != o.boot) {
    h = Heard::Restarted;  // what its old process announced is void
  } else if (!fresh && !o.alive) {
    h = Heard::Back;
  }
  o.peers = peers;
  o.lastMs = nowMs;
  if (!boot.empty()) o.boot = boot;
  o.alive = true;
  if (h != Heard::Known) returned_[instance] = returned_[instance] || h == Heard::Restarted;
  return h;
}

ClusterLink::Heard ClusterLink::touched(const std::string& instance, long long nowMs) {
  if (instance == instance_) return Heard::Known;
  std::lock_guard lock(mu_);
  auto [it, fresh] = others_.try_emplace(instance);
  const bool back = !fresh && !it->second.alive;
  it->second.lastMs = std::max(it->second.lastMs, nowMs);
  it->second.alive = true;
  if (back) returned_.try_emplace(instance, false);
  return back ? Heard::Back : Heard::Known;
}

std::vector<std::string> ClusterLink::silent(long long nowMs, long long silentMs) {
  std::vector<std::string> gone;
  std::lock_guard lock(mu_);
  // Checked every second: a longer gap means this instance was stopped or starved, and the others'
  // beats of that time may still be unread. Judge at the next check instead.
  const bool stalled = lastCheckMs_ != 0 && nowMs - lastCheckMs_ > silentMs / 2;
  lastCheckMs_ = nowMs;
  if (stalled) {
    for (auto& [name, o] : others_) o.lastMs = std::max(o.lastMs, nowMs - silentMs / 2);
    return gone;
  }
  for (auto& [name, o] : others_) {
    if (o.alive && nowMs - o.lastMs > silentMs) {
      o.alive = false;
      gone.push_back(name);
    }
  }
  return gone;
}

bool ClusterLink::alive(const std::string& instance) {
  std::lock_guard lock(mu_);
  auto it = others_.find(instance);
  return it == others_.end() || it->second.alive;  // (one not heard yet spoke: it lives)
}

std::vector<std::string> ClusterLink::lapsed() {
  std::lock_guard lock(mu_);
  return std::exchange(lapsed_, {});
}

std::map<std::string, bool> ClusterLink::returned() {
  std::lock_guard lock(mu_);
  return std::exchange(returned_, {});
}

long long ClusterLink::otherPeers() {
  long long n = 0;
  std::lock_guard lock(mu_);
  for (const auto& [name, o] : others_) n += o.alive ? o.peers : 0;
  return n;
}

}  // namespace semis::server
