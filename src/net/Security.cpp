#include "net/Security.hpp"

#include <algorithm>
#include <cctype>

namespace semis::server {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// host[:port] of "scheme://host[:port]", or "" when it is not of that form.
std::string_view authorityOf(std::string_view origin) {
  const auto sep = origin.find("://");
  if (sep == std::string_view::npos || sep == 0) return {};
  const std::string_view rest = origin.substr(sep + 3);
  if (rest.empty() || rest.find_first_of("/?#@ ") != std::string_view::npos) return {};
  return rest;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& securityHeaders() {
  // The page loads nothing but its own files: its script (no inline script anywhere), the core's
  // WebAssembly (compiled from bytes: 'wasm-unsafe-eval'; Emscripten's loader fetches those bytes
  // from a data: URL first, hence connect-src data:), its styles, and its own WebSocket. No
  // other site may frame it (clickjacking), and links out tell nothing of the page they left.
  static const std::vector<std::pair<std::string, std::string>> headers{
      {"X-Content-Type-Options", "nosniff"},
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self' data:; font-src 'self'; media-src 'self'; worker-src 'self'; manifest-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "strict-origin-when-cross-origin"},
  };
  return headers;
}

tl::expected<std::vector<std::string>, std::string> parseOrigins(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const std::string_view item = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.empty()) continue;
    std::string origin = lower(item);
    while (!origin.empty() && origin.back() == '/') origin.pop_back();  // "https://a.example/" is the same origin
    if (origin.rfind("http://", 0) != 0 && origin.rfind("https://", 0) != 0)
      return tl::unexpected("'" + std::string(item) + "' is not http://HOST[:PORT] or https://HOST[:PORT]");
    if (authorityOf(origin).empty()) return tl::unexpected("'" + std::string(item) + "' has no host, or a path");
    out.push_back(std::move(origin));
  }
  if (out.empty()) return tl::unexpected(std::string("no origin given"));
  return out;
}

bool originAllowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
  origin = trim(origin);
  if (origin.empty()) return true;
  const std::string o = lower(origin);
  if (std::find(allowed.begin(), allowed.end(), o) != allowed.end()) return true;
  const std::string_view authority = authorityOf(o);
  // "null" (a sandboxed frame, a file) and anything malformed are no site's own page.
  return !authority.empty() && !host.empty() && authority == lower(trim(host));
}

}  // namespace semis::server
