// Fuzzes parseRules: never crashes; what parses prints to a string that parses back to the same rules.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/Rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto rules = semis::parseRules(text);
  if (!rules) return 0;
  auto again = semis::parseRules(semis::toString(*rules));
  if (!again || !(semis::rulesKey(*again) == semis::rulesKey(*rules))) std::abort();
  return 0;
}
