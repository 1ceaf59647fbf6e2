#pragma once
// What a player's chosen name may be: 1..24 characters (code points, not bytes: "Élodie" is 6),
// none hidden (controls, zero-width, bidirectional overrides), not starting or ending with a space.

#include <string>

namespace semis::server {

// Why `name` is refused, or empty when it is fine. `name` is UTF-8 (a broken sequence is refused).
[[nodiscard]] std::string nameProblem(const std::string& name);

}  // namespace semis::server
