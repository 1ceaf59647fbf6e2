// Fuzzes parsePosition: never crashes; a parsed position prints back to itself, keeps its seeds
// through a legal move, and an illegal move changes nothing.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/Board.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  semis::Rules rules;
  auto pos = semis::parsePosition(text, &rules);
  if (!pos) return 0;
  const semis::Board board(rules);
  const std::string printed = board.toString(*pos);
  auto again = semis::parsePosition(printed);
  if (!again || !(*again == *pos) || board.toString(*again) != printed) std::abort();
  for (int house = 0; house <= board.houses() + 1; ++house) {
    semis::Position copy = *pos;
    semis::Trace trace;
    auto played = board.play(copy, house, &trace);
    if (!played) {
      if (!(copy == *pos)) std::abort();
      continue;
    }
    int total = 0;
    for (int pit = 0; pit < rules.ringSize(); ++pit) total += copy.pits[static_cast<std::size_t>(pit)];
    if (total != rules.totalSeeds()) std::abort();
  }
  return 0;
}
