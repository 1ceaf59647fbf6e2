// The `semis` command: dispatches to one subcommand. Exceptions stop here and nowhere else.

#include <cstdio>
#include <exception>
#include <string_view>

#include "app/Commands.hpp"

namespace {

using semis::app::Command;

constexpr const Command* kCommands[] = {
    &semis::app::kRulesCommand, &semis::app::kReplayCommand, &semis::app::kPlayCommand,  &semis::app::kPerftCommand,
    &semis::app::kSolveCommand, &semis::app::kHintCommand,   &semis::app::kEgdbCommand,  &semis::app::kMatchCommand,
    &semis::app::kBenchCommand, &semis::app::kBookCommand,   &semis::app::kDailyCommand, &semis::app::kReviewCommand,
#ifdef SEMIS_HAS_SERVER
    &semis::app::kServeCommand,
#endif
};

int usage(FILE* out) {
  std::fprintf(out, "usage: semis <command> [options]\n       semis <command> --help\n\ncommands:\n");
  for (const Command* c : kCommands) {
    std::fprintf(out, "  %-8.*s %.*s\n", static_cast<int>(c->name.size()), c->name.data(),
                 static_cast<int>(c->summary.size()), c->summary.data());
  }
  return out == stdout ? 0 : 2;
}

const Command* find(std::string_view name) {
  for (const Command* c : kCommands) {
    if (c->name == name) return c;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) return usage(stderr);
    const std::string_view word = argv[1];
    if (word == "--help" || word == "-h") return usage(stdout);
    if (word == "help") {  // `semis help`, `semis help COMMAND`
      if (argc < 3) return usage(stdout);
      char help[] = "--help";
      char* words[] = {help};
      if (const Command* c = find(argv[2])) return semis::app::runCommand(*c, 1, words);
      std::fprintf(stderr, "semis: unknown command '%s'\n", argv[2]);
      return usage(stderr);
    }
    if (const Command* c = find(word)) return semis::app::runCommand(*c, argc - 2, argv + 2);
    std::fprintf(stderr, "semis: unknown command '%s'\n", argv[1]);
    return usage(stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "semis: %s\n", e.what());
    return 1;
  }
}
