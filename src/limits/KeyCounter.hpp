#pragma once
// Counts what each key (a cookie's token, an address) holds now, against a limit per key.

#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace semis::server {

// How many connections each key (a token, an address) holds now, under one mutex. A Slot is one
// of them: it gives its count back when destroyed, so every path that ends a session releases it.
class KeyCounter {
 public:
  class Slot {
   public:
    Slot() = default;
    Slot(KeyCounter* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
    Slot(Slot&& o) noexcept : owner_(std::exchange(o.owner_, nullptr)), key_(std::move(o.key_)) {}
    Slot& operator=(Slot&& o) noexcept {
      if (this != &o) {
        reset();
        owner_ = std::exchange(o.owner_, nullptr);
        key_ = std::move(o.key_);
      }
      return *this;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() { reset(); }
    void reset() {
      if (owner_ != nullptr) std::exchange(owner_, nullptr)->release(key_);
    }
    [[nodiscard]] bool held() const { return owner_ != nullptr; }

   private:
    KeyCounter* owner_ = nullptr;
    std::string key_;
  };

  // A slot for `key`, or an empty one when `key` already holds `limit`.
  Slot take(const std::string& key, int limit) {
    std::lock_guard lock(mu_);
    int& n = counts_[key];
    if (n >= limit) {
      if (n == 0) counts_.erase(key);
      return {};
    }
    ++n;
    return {this, key};
  }
  [[nodiscard]] int count(const std::string& key) {
    std::lock_guard lock(mu_);
    const auto it = counts_.find(key);
    return it == counts_.end() ? 0 : it->second;
  }

 private:
  void release(const std::string& key) {
    std::lock_guard lock(mu_);
    const auto it = counts_.find(key);
    if (it != counts_.end() && --it->second <= 0) counts_.erase(it);
  }

  std::mutex mu_;
  std::unordered_map<std::string, int> counts_;
};

}  // namespace semis::server
