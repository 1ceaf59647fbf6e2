// `semis perft --rules R --depth D [--position P] [--divide]`: leaf positions after D sowings.

#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/FastPerft.hpp"
#include "rules/Perft.hpp"

namespace semis::app {

int perftCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "position", "depth"}, {"divide"});
  if (!args) return complain("perft", args.error().message);
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("perft", setup.error().message);
  const int depth = wholeNumber(args->get("depth", "0")).value_or(-1);
  if (depth < 1 || depth > 40) return complain("perft", "--depth D takes 1..40");
  const Board board(setup->rules);
  const Position start = setup->start();
  // The Kalah family counts on the solver's kernel (same counts: tests/engine/FastPerftTest.cpp).
  std::optional<engine::FastBoard> fast;
  if (engine::FastBoard::supports(setup->rules)) fast.emplace(setup->rules);
  const auto leaves = [&](const Position& pos, int d) -> std::uint64_t {
    if (d == 0) return 1;
    if (fast) {
      if (pos.over) return 0;
      const engine::FastPos f = fast->fromPosition(pos);
      if (engine::FastBoard::legalMask(f) == board.legalMask(pos)) return engine::fastPerft(*fast, f, d);
    }
    return perft(board, pos, d);
  };
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();  // CPU time too: on a shared machine wall time includes waiting
  std::uint64_t total = 0;
  if (args->has("divide")) {
    for (std::uint32_t m = board.legalMask(start); m != 0; m &= m - 1) {
      Position child = start;
      const int house = std::countr_zero(m) + 1;
      board.apply(child, house);
      const std::uint64_t n = leaves(child, depth - 1);
      std::printf("%d: %llu\n", house, static_cast<unsigned long long>(n));
      total += n;
    }
  } else {
    total = leaves(start, depth);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  std::printf("perft %s depth %d: %llu\n", toString(setup->rules).c_str(), depth,
              static_cast<unsigned long long>(total));
  std::printf("time %.3f s, %.1f million leaves per second (cpu %.3f s, %.1f million per cpu second)\n", seconds,
              seconds > 0 ? static_cast<double>(total) / seconds / 1e6 : 0.0, cpu,
              cpu > 0 ? static_cast<double>(total) / cpu / 1e6 : 0.0);
  return kExitOk;
}

extern const Command kPerftCommand{"perft", "count the positions reached after D sowings",
                                   "usage: semis perft --rules R --depth D [--position P] [--divide]\n"
                                   "  Leaf positions after D sowings, and the speed.\n"
                                   "  --divide   the count under each first move\n",
                                   perftCommand};

}  // namespace semis::app
