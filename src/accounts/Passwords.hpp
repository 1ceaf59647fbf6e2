#pragma once
// Usernames, passwords and claim codes (docs/club.md, "Accounts"). Passwords are kept only as
// libsodium's Argon2id strings. Hashing one costs 64 MiB and a good fraction of a second of a core:
// the server runs them on a small pool of their own with a bounded queue (server/WorkPool.hpp).

#include <cstddef>
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

}  // namespace semis::accounts
