// `semis solve --rules R [--position P] [--egdb FILE | --build-egdb K] [--table MB] [--seconds S] [--threads N]
// [--fibers N] [--json] [--root-only]`: the exact value for the player to move (his final store minus the opponent's
// with perfect play), one best move and the value of every legal move, with nodes and time. With
// --json the last line is {"value":v,"exact":e,"best":m,"moves":[{"move":m,"value":v,"exact":e},...],
// "nodes":n,"seconds":s}: `exact` says whether that value is proven (a budget can cut a search short).
// --seconds S: a budget for each search (the root's, then each move's); the solve itself is the same,
// and a value the budget cut short is marked not proven.
// --threads N: the Kalah family's solver on N threads (docs/engine.md, "Threads").
// --fibers N: searches taking turns on each of those threads while memory answers (default 2;
// docs/engine.md, "Fibers").
// --build-egdb K: first builds the endgame table up to K seeds in memory (on those threads), for a
// solve that is given no table file.

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Egdb.hpp"
#include "engine/Search.hpp"

namespace semis::app {

int solveCommand(int argc, char** argv) {
  auto args =
      Args::parse(argc, argv, {"rules", "position", "egdb", "build-egdb", "table", "seconds", "threads", "fibers"},
                  {"json", "root-only"});
  if (!args) return complain("solve", args.error().message);
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("solve", setup.error().message);
  const Position pos = setup->start();
  if (pos.over) return complain("solve", "the game is over: nothing to solve");
  // With an endgame table 128 MB solves Kalah(6,4) faster than 256 (more nodes, but far fewer pages
  // for this VM to fault in); without one 256 is far better (docs/engine.md, "Speed: what was learned").
  std::size_t tableMb = args->has("egdb") || args->has("build-egdb") ? 128 : 256;
  double seconds = 0;
  int threads = 1;
  int fibers = 0;
  int buildSeeds = 0;
  try {
    if (args->has("build-egdb")) buildSeeds = std::stoi(args->get("build-egdb"));
    if (args->has("table")) tableMb = static_cast<std::size_t>(std::stoul(args->get("table")));
    if (args->has("seconds")) seconds = std::stod(args->get("seconds"));
    if (args->has("threads")) threads = std::stoi(args->get("threads"));
    if (args->has("fibers")) fibers = std::stoi(args->get("fibers"));
  } catch (const std::exception&) {
    return complain("solve", "--table MB, --seconds S, --threads N, --fibers N and --build-egdb K take numbers");
  }
  if (tableMb < 1 || tableMb > 16384) return complain("solve", "--table MB takes 1..16384");
  if (threads < 1 || threads > 64) return complain("solve", "--threads N takes 1..64");
  if (args->has("fibers") && (fibers < 1 || fibers > 16)) return complain("solve", "--fibers N takes 1..16");
  std::unique_ptr<engine::Egdb> egdb;
  if (args->has("egdb")) {
    auto db = engine::Egdb::open(args->get("egdb"), engine::Egdb::Access::Resident);
    if (!db) return complain("solve", db.error().message);
    if (!db->serves(setup->rules)) return complain("solve", notServed(*db, setup->rules));
    egdb = std::make_unique<engine::Egdb>(std::move(*db));
  }
  double buildSeconds = 0;
  if (args->has("build-egdb")) {
    if (egdb) return complain("solve", "--egdb FILE and --build-egdb K exclude each other");
    if (buildSeeds < 1 || buildSeeds > engine::Egdb::kMaxSeedsLimit) {
      return complain("solve", "--build-egdb K takes 1.." + std::to_string(engine::Egdb::kMaxSeedsLimit));
    }
    if (!engine::Egdb::applies(setup->rules)) return complain("solve", "these rules have no endgame table");
    const auto b0 = std::chrono::steady_clock::now();
    auto db = engine::Egdb::build(setup->rules, buildSeeds, threads);
    if (!db) return complain("solve", db.error().message);
    buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
    egdb = std::make_unique<engine::Egdb>(std::move(*db));
  }
  engine::Search search(setup->rules, tableMb);
  search.setEgdb(egdb.get());
  search.setThreads(threads);
  // Without --fibers the solver's default, two a thread: they searched bench/solve-suite's positions
  // faster than three or four on one thread (docs/engine.md, Speed, "Tried on 2026-12-07, evening").
  if (fibers > 0) search.setFibers(fibers);
  engine::Limits limits;
  limits.seconds = seconds;
  limits.aim = engine::Aim::Value;  // a budget bounds the exact solve; it does not turn it into a deepening
  const auto t0 = std::chrono::steady_clock::now();
  const engine::SearchResult root = search.run(pos, limits);
  std::uint64_t moveNodes = 0;
  // --root-only: only the root's value and best move (for timing the solver itself).
  const auto moves =
      args->has("root-only") ? std::vector<engine::MoveValue>{} : search.moveValues(pos, limits, &moveNodes);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::uint64_t nodes = root.nodes + moveNodes;
  const Board& board = search.board();
  std::printf("rules    : %s\n", toString(setup->rules).c_str());
  std::printf("position : %s\n", board.toString(pos).c_str());
  std::printf("value    : %+d for %s%s\n", root.value, pos.toMove == Side::South ? "South" : "North",
              root.exact ? " (exact)" : " (NOT proven: budget reached)");
  std::printf("best     : %d\n", root.bestMove);
  for (const auto& mv : moves) std::printf("  move %d : %+d%s\n", mv.move, mv.value, mv.exact ? "" : " (not proven)");
  std::printf("nodes    : %llu (root %llu)\n", static_cast<unsigned long long>(nodes),
              static_cast<unsigned long long>(root.nodes));
  std::printf("time     : %.3f s (root %.3f s)\n", elapsed, root.seconds);
  if (buildSeconds > 0) {
    std::printf("table    : built up to %d seeds in %.3f s (%.3f s in all)\n", buildSeeds, buildSeconds,
                buildSeconds + elapsed);
  }
  if (args->has("json")) {
    nlohmann::ordered_json j;
    j["value"] = root.value;
    j["exact"] = root.exact;
    j["best"] = root.bestMove;
    auto arr = nlohmann::ordered_json::array();
    for (const auto& mv : moves) arr.push_back({{"move", mv.move}, {"value", mv.value}, {"exact", mv.exact}});
    j["moves"] = arr;
    j["nodes"] = nodes;
    j["seconds"] = elapsed;
    std::printf("%s\n", j.dump().c_str());
  }
  return root.exact ? kExitOk : kExitFailure;
}

extern const Command kSolveCommand{
    "solve", "the exact value of a position and of every move",
    "usage: semis solve --rules R [--position P] [--egdb FILE | --build-egdb K] [--table MB] [--seconds S]\n"
    "                   [--threads N] [--fibers N] [--json] [--root-only]\n"
    "  The exact value for the player to move (his final store minus the opponent's with perfect play),\n"
    "  a best move and the value of every legal move, each marked proven or not.\n"
    "  --egdb FILE      an endgame table to probe (`semis egdb build`)\n"
    "  --build-egdb K   build the endgame table up to K seeds in memory first\n"
    "  --table MB       the most the transposition table may take (default 256, 128 with a table; it grows)\n"
    "  --seconds S      a budget for each search; a value it cuts short is marked not proven (exit 1)\n"
    "  --threads N      solver threads (Kalah family), --fibers N searches taking turns on each (default 2)\n"
    "  --json           a last line "
    "{\"value\",\"exact\",\"best\",\"moves\":[{\"move\",\"value\",\"exact\"}],\"nodes\",\"seconds\"}\n"
    "  --root-only      only the root's value and best move\n",
    solveCommand};

}  // namespace semis::app
