#pragma once
// Usernames, passwords and claim codes (docs/club.md, "Accounts"). Passwords are kept only as
// libsodium's Argon2id strings. Hashing one costs 64 MiB and a good fraction of a second of a core,
// so a PasswordGate bounds how many run at once and how many may wait: a flood of sign-ins gets
// `busy`, never the machine's memory.

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace semis::accounts {

// 3..20 of [A-Za-z0-9_-].
[[nodiscard]] bool validUsername(std::string_view username);
// The form usernames are compared in: lower case (unique whatever the case).
[[nodiscard]] std::string usernameKey(std::string_view username);
// 8..128 bytes, no NUL.
[[nodiscard]] bool validPassword(std::string_view password);

// Argon2id, libsodium's interactive limits; nothing when out of memory.
[[nodiscard]] std::optional<std::string> hashPassword(std::string_view password);
[[nodiscard]] bool verifyPassword(const std::string& stored, std::string_view password);

// 8 characters of [A-Z2-9] without look-alikes, easy to type on a phone.
[[nodiscard]] std::string newClaimCode();
// The code as typed (case, spaces and dashes ignored), or nothing when it cannot be one.
[[nodiscard]] std::optional<std::string> normalClaimCode(std::string_view typed);

// At most `running` hashes at once and `waiting` callers queued; run() answers false (busy) when
// the queue is full.
class PasswordGate {
 public:
  PasswordGate(std::size_t running, std::size_t waiting) : running_(running), waiting_(waiting) {}
  template <class Work>
  bool run(Work&& work) {
    {
      std::unique_lock lock(mu_);
      if (busy_ >= running_ && queued_ >= waiting_) return false;
      ++queued_;
      cv_.wait(lock, [&] { return busy_ < running_; });
      --queued_;
      ++busy_;
    }
    struct Done {
      PasswordGate& gate;
      ~Done() {
        std::lock_guard lock(gate.mu_);
        --gate.busy_;
        gate.cv_.notify_one();
      }
    } done{*this};
    work();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t running_, waiting_;
  std::size_t busy_ = 0, queued_ = 0;
};

}  // namespace semis::accounts
