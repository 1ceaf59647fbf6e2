// Fuzzes what a visitor sends the daily challenge: the date of the path (study::parseDay: a date
// it reads prints back to itself) and an attempt's moves (study::checkAttempt on a fixed day's
// puzzle: never crashes; an answer is either a solved game, a failure at a legal move, or an error).
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "study/Daily.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto day = semis::study::parseDay(text.substr(0, 10)); day && semis::study::dayText(*day) != text.substr(0, 10)) {
    std::abort();
  }
  static const semis::Rules rules = *semis::parseRules("kalah");
  static const auto puzzle = semis::study::dailyPuzzle(rules, 20791);
  if (!puzzle) std::abort();
  std::vector<int> moves;
  for (std::size_t i = 10; i < size && moves.size() < 64; ++i) moves.push_back(static_cast<int>(data[i] % 9) - 1);
  const auto a = semis::study::checkAttempt(rules, *puzzle, moves);
  if (a && !a->solved && (a->failedAt < 0 || a->failedAt >= static_cast<int>(moves.size()))) std::abort();
  return 0;
}
