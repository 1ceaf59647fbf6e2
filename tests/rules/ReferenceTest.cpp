// The `awale` preset and its variants against an outside engine: random games played by
// StoneShark/MancalaGames (tools/oware-reference.py wrote data/awale-reference.txt from it). Each line
// is a rule set, the houses played, the reference's legal houses before each move and the board it
// ended with; the engine must offer exactly the same moves at every ply and end on the same board.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "rules/Board.hpp"

namespace semis {
namespace {

std::string boardFields(const Board& board, const Position& pos) {
  const std::string text = board.toString(pos);
  return text.substr(text.find('/') + 1);
}

TEST(Reference, MancalaGamesAgreesOnEveryRandomOwareGame) {
  std::ifstream in(std::string(SEMIS_TEST_DATA) + "/awale-reference.txt");
  ASSERT_TRUE(in) << "tests/rules/data/awale-reference.txt";
  std::map<std::string, int> games;
  int plies = 0;
  int adjudicated = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string rulesText, moves, masks, final;
    ASSERT_TRUE(fields >> rulesText >> moves >> masks >> final) << line;
    ASSERT_EQ(masks.size(), 2 * moves.size()) << line;
    auto rules = parseRules(rulesText);
    ASSERT_TRUE(rules) << line;
    const Board board(*rules);
    // The first difference of the game, if any: the engine's legal moves, or its final board.
    const std::string diff = [&]() -> std::string {
      Position pos = board.start();
      for (std::size_t i = 0; i < moves.size(); ++i) {
        const auto want = static_cast<std::uint32_t>(std::stoul(masks.substr(2 * i, 2), nullptr, 16));
        if (board.legalMask(pos) != want) {
          return "ply " + std::to_string(i + 1) + " at " + board.toString(pos) + ": legal " +
                 board.legalList(pos) + ", the reference's mask " + masks.substr(2 * i, 2);
        }
        board.apply(pos, moves[i] - '0');
        ++plies;
      }
      if (final.rfind("few:", 0) == 0) {
        // The reference ended the game on its own adjudication (fewer seeds left than a capture
        // needs; see tools/oware-reference.py): the seeds left count for their row's owner.
        const std::string owners =
            std::to_string(board.outcome(pos).south + board.rowSeeds(pos, Side::South)) + "," +
            std::to_string(board.outcome(pos).north + board.rowSeeds(pos, Side::North));
        const std::string captured = final.substr(final.find('/', final.find('/') + 1) + 1);
        if (pos.over || board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North) >= 2 ||
            captured != owners + "/-") {
          return "adjudicated " + final + " but the engine is at " + board.toString(pos);
        }
        ++adjudicated;
        return {};
      }
      if (boardFields(board, pos) != final) return "ends on " + board.toString(pos);
      return {};
    }();
    EXPECT_EQ(diff, "") << line;
    ++games[rulesText];
  }
  // Every variant the reference plays was checked, on many games each.
  EXPECT_EQ(games.size(), 7U);
  for (const auto& [rulesText, count] : games) EXPECT_GE(count, 100) << rulesText;
  std::string summary;
  for (const auto& [rulesText, count] : games) summary += rulesText + ": " + std::to_string(count) + " games; ";
  summary += std::to_string(plies) + " plies, " + std::to_string(adjudicated) + " games ended by the reference's "
             "too-few-seeds adjudication";
  RecordProperty("agreement", summary);
  std::printf("reference agreement: %s\n", summary.c_str());
}

}  // namespace
}  // namespace semis
