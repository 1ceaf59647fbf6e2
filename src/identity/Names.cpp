#include "identity/Names.hpp"

#include <vector>

namespace semis::server {

namespace {

// Characters a name may not hold: controls (C0, DEL, C1) and the invisible ones that let a name
// look empty or like another's (zero-width, bidirectional overrides, fillers, tags).
bool hiddenCharacter(char32_t c) {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xad || c == 0x34f || c == 0x61c || c == 0x115f || c == 0x1160 ||
         c == 0x180e || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) ||
         c == 0x3164 || c == 0xfeff || c == 0xffa0 || (c >= 0xfff0 && c <= 0xffff) || (c >= 0xe0000 && c <= 0xe0fff);
}

bool spaceCharacter(char32_t c) {
  return c == 0x20 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x205f || c == 0x3000;
}

}  // namespace

std::string nameProblem(const std::string& name) {
  std::vector<char32_t> chars;
  for (std::size_t i = 0; i < name.size();) {
    const auto b = static_cast<unsigned char>(name[i]);
    const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > name.size()) return "a name is UTF-8 text";
    char32_t c = len == 1 ? b : b & (0x7f >> len);
    for (int k = 1; k < len; ++k) {
      const auto x = static_cast<unsigned char>(name[i + k]);
      if ((x >> 6) != 2) return "a name is UTF-8 text";
      c = (c << 6) | (x & 0x3f);
    }
    chars.push_back(c);
    i += len;
  }
  if (chars.empty() || chars.size() > 24) return "a name has 1..24 characters";
  for (char32_t c : chars) {
    if (hiddenCharacter(c)) return "a name has printable characters only";
  }
  if (spaceCharacter(chars.front()) || spaceCharacter(chars.back())) return "a name does not start or end with a space";
  return {};
}

}  // namespace semis::server
