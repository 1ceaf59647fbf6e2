#include "net/Routes.hpp"

namespace semis::server {

namespace {

bool controlByte(unsigned char c) { return c < 0x20 || c == 0x7F; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<Target> splitTarget(std::string_view target) {
  if (target.empty() || target.front() != '/') return fail("the request target must start with '/'");
  if (target.size() > kMaxTargetBytes) return fail("the request target is too long");
  for (char c : target) {
    if (controlByte(static_cast<unsigned char>(c)) || c == ' ') return fail("the request target has a control byte");
  }
  const auto q = target.find('?');
  if (q == std::string_view::npos) return Target{target, {}};
  return Target{target.substr(0, q), target.substr(q + 1)};
}

Route routeOf(std::string_view path) {
  if (path == "/healthz") return Route::Health;
  if (path == "/metrics") return Route::Metrics;
  if (path.substr(0, 5) == "/api/") return Route::Api;
  if (path == "/ws") return Route::Socket;
  if (path == "/kgp") return Route::Kgp;
  // The client's own pages (a game, a profile, a leaderboard, friends, devices, bots, the study
  // pages: every path web/src/main.ts routes) are all its one page.
  if (path == "/" || path == "/index.html" || path.substr(0, 3) == "/g/" || path.substr(0, 3) == "/p/" ||
      path.substr(0, 5) == "/top/" || path == "/friends" || path == "/sessions" || path == "/bots" || path.substr(0, 6) == "/bots/" || path == "/daily" || path.substr(0, 7) == "/daily/" ||
      path == "/review" || path.substr(0, 8) == "/review/" || path == "/analysis" || path.substr(0, 7) == "/learn/")
    return Route::Page;
  return Route::File;
}

Result<std::string> resolveStaticPath(std::string_view path) {
  if (path.empty() || path.front() != '/') return fail("the path must start with '/'");
  if (routeOf(path) == Route::Page) return std::string("index.html");
  // Decode first, then judge the segments: "%2e%2e" is "..", and "%2f" a separator.
  std::string decoded;
  decoded.reserve(path.size());
  for (std::size_t i = 1; i < path.size(); ++i) {
    char c = path[i];
    if (c == '%') {
      if (i + 2 >= path.size()) return fail("bad percent-encoding");
      const int hi = hexValue(path[i + 1]);
      const int lo = hexValue(path[i + 2]);
      if (hi < 0 || lo < 0) return fail("bad percent-encoding");
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0' || c == '\\' || controlByte(static_cast<unsigned char>(c))) return fail("bad byte in the path");
    decoded += c;
  }
  std::size_t start = 0;
  while (start <= decoded.size()) {
    std::size_t end = decoded.find('/', start);
    if (end == std::string::npos) end = decoded.size();
    const std::string_view segment = std::string_view(decoded).substr(start, end - start);
    // Dot-files stay private too (.git, .env): the built client has none.
    if (segment.empty() || segment.front() == '.') return fail("bad path segment");
    start = end + 1;
  }
  return decoded;
}

}  // namespace semis::server
