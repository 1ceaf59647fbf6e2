// Rules-engine speed: perft leaves per second per preset (items/s is leaves/s), on one core.

#include <benchmark/benchmark.h>

#include "rules/Perft.hpp"

namespace {

void perftBench(benchmark::State& state, const char* rulesText, int depth) {
  const semis::Board board(*semis::parseRules(rulesText));
  const semis::Position start = board.start();
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = semis::perft(board, start, depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(leaves) * state.iterations());
  state.counters["leaves"] = static_cast<double>(leaves);
}

BENCHMARK_CAPTURE(perftBench, kalah_d9, "kalah", 9)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, kalah_club_d8, "kalah-club", 8)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, mangala_d8, "mangala", 8)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, mangala_castle_d8, "mangala-castle", 8)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, al_manqala_d6, "al-manqala", 6)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, congkak_d5, "congkak", 5)->Unit(benchmark::kMillisecond);

}  // namespace
