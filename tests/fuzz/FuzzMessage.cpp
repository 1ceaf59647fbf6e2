// Fuzzes the WebSocket client-message parser: never crashes, and whatever it answers (a message or
// an error quoting the client's text) dumps to JSON without throwing, strictly and leniently.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/Json.hpp"
#include "protocol/Messages.hpp"

namespace {

bool validUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace semis::protocol;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto m = parseClientMessage(text);
  // An uncaught exception ends the run as a crash: that is the check.
  if (!m) {
    const Json e = errorMessage(m.error().code, m.error().message, m.error().id);
    (void)e.dump();
    (void)dumpJson(e);
  } else {
    Json echo{{"id", m->id}, {"t", m->t}, {"game", m->game}};
    if (m->spec) echo["level"] = m->spec->level;
    (void)echo.dump();
  }
  // clipUtf8 gives a prefix no longer than asked, and keeps valid text valid.
  for (std::size_t limit : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32}, size / 2}) {
    const std::string clipped = clipUtf8(text, limit);
    if (clipped.size() > limit) std::abort();
    if (text.substr(0, clipped.size()) != clipped) std::abort();
    if (validUtf8(text) && !validUtf8(clipped)) std::abort();
  }
  (void)dumpJson(Json(std::string(text)));
  return 0;
}
