#include "ops/Health.hpp"

namespace semis::server {

namespace {
constexpr std::chrono::seconds kProbeEvery{1};
// Three probes missed: long enough not to flap on one slow answer, short enough that HAProxy
// (two failed checks half a second apart) moves players within a few seconds.
constexpr long long kStaleMs = 3000;
}  // namespace

Health::Health(std::function<bool()> probe) : probe_(std::move(probe)), lastAnsweredMs_(nowMs()) {}

Health::~Health() { stop(); }

long long Health::nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Health::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

void Health::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool Health::ok() const { return !shuttingDown_ && !lastFailed_ && nowMs() - lastAnsweredMs_.load() <= kStaleMs; }

void Health::loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    bool answered = false;
    try {
      answered = probe_();
    } catch (const std::exception&) {
      answered = false;  // out of memory in the store's client: not healthy either
    }
    lastFailed_ = !answered;
    if (answered) lastAnsweredMs_ = nowMs();
    lock.lock();
    wake_.wait_for(lock, kProbeEvery, [this] { return stopping_; });
  }
}

}  // namespace semis::server
