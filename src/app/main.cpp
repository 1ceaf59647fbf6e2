// The `semis` command: dispatches to one subcommand. Exceptions stop here and nowhere else.

#include <cstdio>
#include <cstring>
#include <exception>

#include "app/Commands.hpp"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"rules", semis::app::rulesCommand, "list the presets and their options"},
    {"replay", semis::app::replayCommand, "apply moves and print each position as JSON lines"},
    {"play", semis::app::playCommand, "play a game in the terminal"},
    {"perft", semis::app::perftCommand, "count the positions reached after D sowings"},
    {"solve", semis::app::solveCommand, "the exact value of a position and of every move"},
    {"hint", semis::app::hintCommand, "recommend a move and explain why"},
    {"egdb", semis::app::egdbCommand, "build or inspect an endgame table"},
    {"match", semis::app::matchCommand, "play AI levels against each other"},
    {"bench", semis::app::benchCommand, "search fixed positions: a node-count signature"},
    {"book", semis::app::bookCommand, "build or read the opening book"},
    {"daily", semis::app::dailyCommand, "the daily endgame challenge of a date"},
    {"review", semis::app::reviewCommand, "every move of a game record valued"},
#ifdef SEMIS_HAS_SERVER
    {"serve", semis::app::serveCommand, "run the game server (HTTP, WebSocket, SQLite)"},
#endif
};

int usage(FILE* out) {
  std::fprintf(out, "usage: semis <command> [options]\n\ncommands:\n");
  for (const Command& c : kCommands) std::fprintf(out, "  %-8s %s\n", c.name, c.summary);
  return out == stdout ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) return usage(stderr);
    if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0) return usage(stdout);
    for (const Command& c : kCommands) {
      if (std::strcmp(argv[1], c.name) == 0) return c.run(argc - 2, argv + 2);
    }
    std::fprintf(stderr, "semis: unknown command '%s'\n", argv[1]);
    return usage(stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "semis: %s\n", e.what());
    return 1;
  }
}
