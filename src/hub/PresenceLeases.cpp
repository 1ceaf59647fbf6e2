#include "hub/PresenceLeases.hpp"

#include <cstdlib>
#include <optional>
#include <utility>

#include "ops/WallClock.hpp"

namespace semis::server {

namespace {

struct Lease {
  std::string instance;
  long long until = 0;
};

std::optional<Lease> leaseOf(const std::string& value) {
  const auto sp = value.find(' ');
  if (sp == std::string::npos) return std::nullopt;
  return Lease{value.substr(0, sp), std::atoll(value.c_str() + sp + 1)};
}

}  // namespace

PresenceLeases::PresenceLeases(cluster::Bus& bus, std::string key, std::string instance)
    : bus_(bus), key_(std::move(key)), instance_(std::move(instance)), writer_([this] { write(); }) {}

PresenceLeases::~PresenceLeases() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  writer_.join();
}

bool PresenceLeases::put(const std::string& player, long long until) {
  return bus_.command({"HSET", key_, player, instance_ + " " + std::to_string(until)}).has_value();
}

void PresenceLeases::renew(const std::string& player, long long ttlMs, bool wait) {
  const long long until = nowMs() + ttlMs;
  if (wait) {
    std::lock_guard writing(writeMu_);
    {
      std::lock_guard lock(mu_);
      queued_.erase(player);
    }
    if (put(player, until)) return;
  }
  {
    std::lock_guard lock(mu_);
    queued_[player] = until;
  }
  wake_.notify_one();
}

void PresenceLeases::remove(const std::string& player) {
  std::lock_guard writing(writeMu_);
  {
    std::lock_guard lock(mu_);
    queued_.erase(player);
  }
  auto r = bus_.command({"HGET", key_, player});
  if (!r || r->kind != cluster::Reply::Kind::String) return;
  // A lease of this instance that cannot be removed now lapses within its ttl.
  if (auto lease = leaseOf(r->string); lease && lease->instance == instance_)
    (void)bus_.command({"HDEL", key_, player});
}

void PresenceLeases::write() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    if (queued_.empty()) {
      wake_.wait(lock);
      continue;
    }
    // The write lock first (the order remove() takes them in), then the next renewal: taken and
    // written with no absence between.
    lock.unlock();
    std::lock_guard writing(writeMu_);
    lock.lock();
    if (stop_ || queued_.empty()) continue;
    auto next = queued_.extract(queued_.begin());
    lock.unlock();
    // A renewal the bus cannot take now is not retried: the next one comes within the lease.
    (void)put(next.key(), next.mapped());
    lock.lock();
  }
}

bool PresenceLeases::elsewhere(const std::string& player) {
  auto r = bus_.command({"HGET", key_, player});
  if (!r || r->kind != cluster::Reply::Kind::String) return false;
  auto lease = leaseOf(r->string);
  return lease && lease->instance != instance_ && lease->until > nowMs();
}

std::vector<std::string> PresenceLeases::present(std::size_t limit) {
  std::vector<std::string> out;
  auto r = bus_.command({"HGETALL", key_});
  if (!r || r->kind != cluster::Reply::Kind::Array) return out;
  const long long now = nowMs();
  for (std::size_t i = 0; i + 1 < r->array.size() && out.size() < limit; i += 2) {
    auto lease = leaseOf(r->array[i + 1].string);
    if (lease && lease->until > now) out.push_back(r->array[i].string);
  }
  return out;
}

}  // namespace semis::server
