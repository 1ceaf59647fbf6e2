// `semis replay --rules R [--position P] [--positions] M1 M2 ...`: one JSON object per line, the
// start first; with --positions each position in the notation `--position` reads, so that a script
// can hand the position after some moves to `semis solve` without parsing JSON.

#include <cstdio>
#include <string>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "protocol/Json.hpp"
#include "rules/Game.hpp"

namespace semis::app {

int replayCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "position"}, {"positions"});
  if (!args) return complain("replay", args.error().message);
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("replay", setup.error().message);
  Game game = setup->position ? Game(setup->rules, *setup->position) : Game(setup->rules);
  const bool notation = args->has("positions");
  auto emit = [&game, notation](int ply) {
    const std::string line = notation ? game.board().toString(game.position()) : protocol::replayLine(game, ply).dump();
    std::printf("%s\n", line.c_str());
  };
  emit(0);
  int ply = 0;
  for (const std::string& word : args->positional()) {
    const int house = wholeNumber(word).value_or(-1);
    const Position before = game.position();
    auto played = game.play(house);
    if (!played) {
      std::fflush(stdout);
      if (house < 0) {
        return complain("replay", "ply " + std::to_string(ply + 1) + ": '" + word +
                                      "' is not a house number (legal: " + game.board().legalList(before) + ")");
      }
      return complain("replay", "ply " + std::to_string(ply + 1) + ": " + played.error().message);
    }
    emit(++ply);
  }
  return kExitOk;
}

extern const Command kReplayCommand{
    "replay", "apply moves and print each position (JSON lines, or the notation with --positions)",
    "usage: semis replay --rules R [--position P] [--positions] M1 M2 ...\n"
    "  One JSON object per line, the start first, then one per move (houses 1..N of the mover).\n"
    "  Exits 2 on an illegal move, after printing the plies before it.\n"
    "  --rules R      a preset with options (see `semis rules`)\n"
    "  --position P   a start position: rules/south houses/north houses/stores/to move\n"
    "  --positions    print each position in that notation instead (semis solve reads it too)\n",
    replayCommand};

}  // namespace semis::app
