#include "accounts/Tokens.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdlib>

namespace semis::accounts {

namespace {

constexpr std::string_view kHex = "0123456789abcdef";
constexpr std::string_view kIdChars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
constexpr std::size_t kTokenBytes = 32;

// sodium_init() is idempotent and thread-safe; it fails only when no entropy source exists, and
// then no token can be made safely: stop rather than hand out guessable sessions.
void ensureSodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) std::abort();
}

std::string hex(const unsigned char* bytes, std::size_t n) {
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

}  // namespace

std::string newToken() {
  ensureSodium();
  std::array<unsigned char, kTokenBytes> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  return hex(bytes.data(), bytes.size());
}

bool validToken(std::string_view token) {
  return token.size() == 2 * kTokenBytes &&
         std::all_of(token.begin(), token.end(), [](char c) { return kHex.find(c) != std::string_view::npos; });
}

std::string hashToken(std::string_view token) {
  ensureSodium();
  std::array<unsigned char, crypto_hash_sha256_BYTES> out{};
  crypto_hash_sha256(out.data(), reinterpret_cast<const unsigned char*>(token.data()), token.size());
  return hex(out.data(), out.size());
}

std::string guestId(std::string_view token) {
  ensureSodium();
  // A keyed hash under a fixed context: the id reveals nothing of the token, nor of its stored hash.
  constexpr std::string_view kContext = "semis player id v1";
  std::array<unsigned char, 16> out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(token.data()), token.size(),
                     reinterpret_cast<const unsigned char*>(kContext.data()), kContext.size());
  std::string id;
  for (std::size_t i = 0; i < 10; ++i) id += kIdChars[out[i] % kIdChars.size()];
  return id;
}

std::string randomId(std::size_t length) {
  ensureSodium();
  std::string out;
  out.reserve(length);
  for (std::size_t i = 0; i < length; ++i)
    out += kIdChars[randombytes_uniform(static_cast<std::uint32_t>(kIdChars.size()))];
  return out;
}

}  // namespace semis::accounts
