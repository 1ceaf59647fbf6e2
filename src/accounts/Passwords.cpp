#include "accounts/Passwords.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace semis::accounts {

namespace {

// No 0/O, 1/I/L: a code read aloud or copied by hand.
constexpr std::string_view kCodeChars = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
constexpr std::size_t kCodeLength = 8;

void ensureSodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) std::abort();  // no entropy: no secret can be made safely
}

}  // namespace

bool validUsername(std::string_view username) {
  return username.size() >= 3 && username.size() <= 20 && std::all_of(username.begin(), username.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
         });
}

std::string usernameKey(std::string_view username) {
  std::string key(username);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

bool validPassword(std::string_view password) {
  return password.size() >= 8 && password.size() <= 128 && password.find('\0') == std::string_view::npos;
}

std::optional<std::string> hashPassword(std::string_view password) {
  ensureSodium();
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return std::nullopt;
  }
  return std::string(out.data());
}

bool verifyPassword(const std::string& stored, std::string_view password) {
  ensureSodium();
  if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

std::string newClaimCode() {
  ensureSodium();
  std::string code;
  for (std::size_t i = 0; i < kCodeLength; ++i) {
    code += kCodeChars[randombytes_uniform(static_cast<std::uint32_t>(kCodeChars.size()))];
  }
  return code;
}

std::optional<std::string> normalClaimCode(std::string_view typed) {
  if (typed.size() > 32) return std::nullopt;
  std::string code;
  for (char c : typed) {
    if (c == ' ' || c == '-') continue;
    const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (kCodeChars.find(up) == std::string_view::npos) return std::nullopt;
    code += up;
  }
  if (code.size() != kCodeLength) return std::nullopt;
  return code;
}

}  // namespace semis::accounts
