// `semis play --rules R [--position P] [--ai LEVEL [--ai-side S|N] [--ai-seconds T]]`: two people
// play at one terminal, or one person against the AI (easy, medium, hard, perfect; it takes North
// unless --ai-side S). Bad input is refused with the reason and the game goes on; "quit" (or the
// end of input) leaves, printing the record so far.

#include <iostream>
#include <memory>
#include <string>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Levels.hpp"
#include "rules/Notation.hpp"
#include "rules/Text.hpp"

namespace semis::app {
namespace {

std::string sideWord(Side s) { return s == Side::South ? "South" : "North"; }

void announce(const Ply& ply) {
  if (ply.info.captured > 0) std::cout << sideWord(ply.mover) << " captures " << ply.info.captured << ".\n";
  if (ply.info.castleMade) std::cout << sideWord(ply.mover) << " builds a castle.\n";
  if (ply.info.relayCut) std::cout << "The relay reached its limit; the turn ends.\n";
  if (ply.info.extraTurn) std::cout << "Last seed in the store: " << sideWord(ply.mover) << " plays again.\n";
  if (ply.info.pass) std::cout << sideWord(other(ply.mover)) << " has no seeds and passes.\n";
  if (ply.autoSplit) std::cout << "The position repeats (or no capture for too long): the seeds are shared.\n";
}

}  // namespace

int playCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "position", "ai", "ai-side", "ai-seconds"});
  if (!args) return complain("play", args.error().message);
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("play", setup.error().message);
  std::unique_ptr<engine::Player> ai;
  Side aiSide = Side::North;
  if (args->has("ai")) {
    auto level = engine::parseLevel(args->get("ai"));
    if (!level) return complain("play", level.error().message);
    const std::string side = args->get("ai-side", "N");
    if (side != "S" && side != "N") return complain("play", "--ai-side takes S or N");
    aiSide = side == "S" ? Side::South : Side::North;
    engine::LevelOptions opts;
    try {
      opts.hardSeconds = std::stod(args->get("ai-seconds", "1"));
    } catch (const std::exception&) {
      opts.hardSeconds = -1;
    }
    if (!(opts.hardSeconds > 0 && opts.hardSeconds <= 600))
      return complain("play", "--ai-seconds takes a positive number");
    ai = std::make_unique<engine::Player>(setup->rules, *level, opts);
  } else if (args->has("ai-side") || args->has("ai-seconds")) {
    return complain("play", "--ai-side and --ai-seconds need --ai LEVEL");
  }
  Record record{{}, setup->position ? Game(setup->rules, *setup->position) : Game(setup->rules), {}};
  Game& game = record.game;
  const Board& board = game.board();
  std::cout << "Semis: " << toString(game.rules()) << ". Type a house number (1 is the farthest from your store), "
            << "'split' to share the board, 'swap' for the pie rule, 'quit' to stop.\n";
  int shownSets = 0;
  while (!game.over()) {
    std::cout << "\n" << drawBoard(board, game.position());
    if (game.setCount() > 1) std::cout << "Set " << game.currentSet() << " of " << game.setCount() << "\n";
    const Side mover = game.position().toMove;
    if (ai && mover == aiSide) {
      const int house = ai->choose(game.position());
      auto ply = game.play(house);
      if (!ply) return complain("play", "the AI chose an illegal move: " + ply.error().message, kExitFailure);
      std::cout << sideWord(mover) << " (AI, " << engine::levelName(ai->level()) << ") plays house " << house << ".\n";
      announce(**ply);
      while (shownSets < static_cast<int>(game.setResults().size())) {
        const Outcome& o = game.setResults()[static_cast<std::size_t>(shownSets++)].outcome;
        std::cout << "\nSet over: South " << o.south << ", North " << o.north << ".\n";
      }
      continue;
    }
    std::cout << sideWord(mover) << ", your move (legal: " << board.legalList(game.position()) << "): " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line) || line == "quit" || line == "q") break;
    if (line == "split" || line == "swap") {
      auto r = line == "split" ? game.agreeSplit() : game.swap();
      if (!r) std::cout << "Not now: " << r.error().message << "\n";
    } else {
      int house = 0;
      try {
        std::size_t used = 0;
        house = std::stoi(line, &used);
        if (used != line.size()) house = 0;
      } catch (const std::exception&) {
        house = 0;
      }
      auto ply = game.play(house);
      if (!ply) {
        std::cout << "Not a legal move: " << (house == 0 ? "'" + line + "' is not a house number" : ply.error().message)
                  << ". Try again.\n";
        continue;
      }
      announce(**ply);
    }
    while (shownSets < static_cast<int>(game.setResults().size())) {
      const Outcome& o = game.setResults()[static_cast<std::size_t>(shownSets++)].outcome;
      std::cout << "\nSet over: South " << o.south << ", North " << o.north << " - "
                << (o.winner == Winner::Draw
                        ? "a draw"
                        : sideWord(o.winner == Winner::South ? Side::South : Side::North) + " wins")
                << ".\n";
    }
  }
  std::cout << "\nThe record:\n" << printRecord(record);
  return kExitOk;
}

extern const Command kPlayCommand{
    "play", "play a game in the terminal",
    "usage: semis play --rules R [--position P] [--ai LEVEL [--ai-side S|N] [--ai-seconds T]]\n"
    "  Two people at one terminal, or one against the computer. \"quit\" (or the end of input) leaves,\n"
    "  printing the record so far.\n"
    "  --ai LEVEL        easy, medium, hard or perfect; it takes North unless --ai-side S\n"
    "  --ai-seconds T    the computer's time for a move\n",
    playCommand};

}  // namespace semis::app
