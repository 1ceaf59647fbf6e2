#pragma once
// Session tokens and public ids. A token is the cookie's secret (32 random bytes, hex); the store
// keeps only hashToken(token), so a copied database opens no session. Public ids are short random
// strings shown to other players.

#include <string>
#include <string_view>

namespace semis::accounts {

// 64 hex characters from the kernel's generator (libsodium's randombytes).
[[nodiscard]] std::string newToken();
// A cookie's token has exactly the shape newToken() gives; anything else is ignored unread.
[[nodiscard]] bool validToken(std::string_view token);
// SHA-256 of the token, hex: what the store keeps.
[[nodiscard]] std::string hashToken(std::string_view token);
// The public id of the guest who holds `token`, the same every time: a guest is known by his cookie
// before he has a row (he gets one once he acts), and keeps this id when the row is written.
[[nodiscard]] std::string guestId(std::string_view token);
// `length` characters of [A-Za-z2-9] without look-alikes (game and player ids).
[[nodiscard]] std::string randomId(std::size_t length);

}  // namespace semis::accounts
