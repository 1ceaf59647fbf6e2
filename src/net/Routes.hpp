#pragma once
// Where an HTTP request target leads, decided from the text alone (no I/O, no Beast): the session
// routes with it, and tests/fuzz/FuzzTarget.cpp throws arbitrary targets at it.

#include <string>
#include <string_view>

#include "rules/Rules.hpp"

namespace semis::server {

// Origin-form targets only: "/" then at most this many bytes, no control byte.
inline constexpr std::size_t kMaxTargetBytes = 2048;

struct Target {
  std::string_view path;   // up to the '?', still percent-encoded
  std::string_view query;  // after the '?', or empty
};

enum class Route {
  Health,   // /healthz
  Metrics,  // /metrics
  Api,      // /api/...
  Kgp,      // /kgp: bots over the Kalah Game Protocol (gateway/)
  Socket,   // /ws
  Page,     // the web client's pages: /, /index.html, /g/<id>
  File,     // anything else: a file under --web
};

// Refuses what is not origin-form (`.db`, `*`, `http://host/x`), control bytes and over-long targets.
[[nodiscard]] Result<Target> splitTarget(std::string_view target);
[[nodiscard]] Route routeOf(std::string_view path);
// Only the pages, the API and the socket need a guest identity: probes and assets create none.
[[nodiscard]] inline bool needsIdentity(Route r) { return r == Route::Api || r == Route::Socket || r == Route::Page; }

// The file a GET of `path` (a Target's path) names under the web folder, relative to it:
// percent-decoded; no empty, `.`, `..` or dot-file segment, no backslash, NUL or control byte
// (each an error). Pages map to "index.html". The caller still resolves symlinks and checks that
// the real file lies inside the real web folder and is a regular file (see HttpSession.cpp).
[[nodiscard]] Result<std::string> resolveStaticPath(std::string_view path);

}  // namespace semis::server
