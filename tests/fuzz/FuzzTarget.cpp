// Fuzzes the HTTP request-target routing and the static-file path check (src/server/Routes.cpp, no
// I/O): never crashes, and a path it accepts is relative, decoded, and free of every segment that
// could leave the web folder (empty, ".", "..", dot-files), of backslashes, NUL and control bytes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "net/Routes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace semis::server;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto target = splitTarget(text);
  if (!target) return 0;
  if (target->path.empty() || target->path.front() != '/') std::abort();
  if (target->path.find('?') != std::string_view::npos) std::abort();
  const Route route = routeOf(target->path);
  auto rel = resolveStaticPath(target->path);
  if (!rel) return 0;
  if (route == Route::Page && *rel != "index.html") std::abort();
  const std::string& p = *rel;
  if (p.empty() || p.front() == '/') std::abort();
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t end = p.find('/', start);
    if (end == std::string::npos) end = p.size();
    const std::string_view segment = std::string_view(p).substr(start, end - start);
    if (segment.empty() || segment.front() == '.') std::abort();  // covers "." and ".."
    start = end + 1;
  }
  for (char c : p) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == '\\') std::abort();
  }
  return 0;
}
