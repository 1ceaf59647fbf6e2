// `semis egdb build --rules R --seeds K --out FILE [--threads N]`: builds the endgame table of every position
// with at most K seeds in the houses. `semis egdb info FILE`: its header and how full it is.
// `semis egdb probe FILE --position P`: the table's value of P (the mover's final difference).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Egdb.hpp"

namespace semis::app {

int egdbCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "seeds", "out", "threads", "position"});
  if (!args) return complain("egdb", args.error().message);
  const auto& words = args->positional();
  if (words.empty())
    return complain("egdb", "usage: semis egdb build --rules R --seeds K --out FILE | semis egdb info FILE | "
                    "semis egdb probe FILE --position P");
  if (words[0] == "build") {
    if (!args->has("rules") || !args->has("seeds") || !args->has("out")) {
      return complain("egdb", "build needs --rules R --seeds K --out FILE");
    }
    auto rules = parseRules(args->get("rules"));
    if (!rules) return complain("egdb", rules.error().message);
    int seeds = 0;
    try {
      seeds = std::stoi(args->get("seeds"));
    } catch (const std::exception&) {
      seeds = 0;
    }
    int threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    if (args->has("threads")) {
      try {
        threads = std::stoi(args->get("threads"));
      } catch (const std::exception&) {
        threads = 0;
      }
      if (threads < 1 || threads > 256) return complain("egdb", "--threads N takes 1..256");
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto db = engine::Egdb::build(*rules, seeds, threads);
    if (!db) return complain("egdb", db.error().message);
    const double built = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (auto saved = db->save(args->get("out")); !saved) return complain("egdb", saved.error().message, kExitFailure);
    std::printf("built %s: %s, up to %d seeds, %llu entries in %.2f s (%d threads)\n", args->get("out").c_str(),
                toString(*rules).c_str(), seeds, static_cast<unsigned long long>(db->entries()), built,
                engine::Egdb::retrograde(*rules) ? 1 : threads);
    return kExitOk;
  }
  if (words[0] == "info") {
    if (words.size() != 2) return complain("egdb", "usage: semis egdb info FILE");
    auto db = engine::Egdb::open(words[1]);
    if (!db) return complain("egdb", db.error().message);
    std::printf("rules   : %s\nseeds   : up to %d\nentries : %llu\n", toString(db->rules()).c_str(), db->maxSeeds(),
                static_cast<unsigned long long>(db->entries()));
    return kExitOk;
  }
  if (words[0] == "probe") {
    if (words.size() != 2 || !args->has("position")) return complain("egdb", "usage: semis egdb probe FILE --position P");
    auto db = engine::Egdb::open(words[1]);
    if (!db) return complain("egdb", db.error().message);
    auto setup = setupFromArgs(*args);
    if (!setup) return complain("egdb", setup.error().message);
    if (!db->serves(setup->rules)) return complain("egdb", notServed(*db, setup->rules));
    const auto pos = setup->position;
    const Board board(db->rules());
    const int v = db->probe(board, *pos);
    if (v == engine::Egdb::kUnknown) {
      std::printf("not in the table\n");
      return kExitFailure;
    }
    const Side me = pos->toMove;
    const int d = pos->pits[static_cast<std::size_t>(board.storePit(me))] -
                  pos->pits[static_cast<std::size_t>(board.storePit(other(me)))];
    std::printf("seeds left: %+d for %c (final difference %+d)\n", v, sideLetter(me), d + v);
    return kExitOk;
  }
  return complain("egdb", "unknown egdb action '" + words[0] + "' (build, info, probe)");
}

extern const Command kEgdbCommand{
    "egdb", "build or inspect an endgame table",
    "usage: semis egdb build --rules R --seeds K --out FILE [--threads N]\n"
    "       semis egdb info FILE\n"
    "       semis egdb probe FILE --position P\n"
    "  build: the table of every position with at most K seeds in the houses.\n"
    "  info: its header and how full it is. probe: its value of P (the mover's final difference).\n",
    egdbCommand};

}  // namespace semis::app
