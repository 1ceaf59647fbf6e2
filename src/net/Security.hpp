#pragma once
// What every answer tells the browser about the page (docs/server.md, "Security headers"), and
// which pages may open a WebSocket: a page of another site must not play in its visitor's name.

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

namespace semis::server {

// Header name and value, for every HTTP answer.
[[nodiscard]] const std::vector<std::pair<std::string, std::string>>& securityHeaders();

// "https://a.example,http://localhost:5173" as origins (scheme://host[:port], lowercased), or why not.
[[nodiscard]] tl::expected<std::vector<std::string>, std::string> parseOrigins(std::string_view list);
// Whether a WebSocket upgrade with this Origin header may open a session: none at all (not a
// browser's page: bots, tools), the site's own (its host[:port] is the request's Host), or one of
// `allowed` (parseOrigins' form).
[[nodiscard]] bool originAllowed(std::string_view origin, std::string_view host,
                                 const std::vector<std::string>& allowed);

}  // namespace semis::server
