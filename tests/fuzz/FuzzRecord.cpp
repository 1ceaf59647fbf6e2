// Fuzzes parseRecord: never crashes; a parsed record prints to text that parses and prints the same.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "rules/Notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto record = semis::parseRecord(text);
  if (!record) return 0;
  const std::string printed = semis::printRecord(*record);
  auto again = semis::parseRecord(printed);
  if (!again || semis::printRecord(*again) != printed) std::abort();
  return 0;
}
