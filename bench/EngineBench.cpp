// Google Benchmark programs of the engine: fixed-depth searches and a small endgame table build.
// Figures are for comparison between versions; tests never assert them.

#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>
#include <utility>

#include "engine/Egdb.hpp"
#include "engine/FastBoard.hpp"
#include "engine/HugeBuffer.hpp"
#include "engine/Search.hpp"

namespace {

// A 64-bit linear congruential step: cheap pseudo-random numbers for the memory benchmarks.
std::uint64_t nextRandom(std::uint64_t x) { return x * 6364136223846793005ULL + 1442695040888963407ULL; }

void searchDepth(benchmark::State& state, semis::Preset preset) {
  const semis::Rules rules = semis::presetRules(preset);
  semis::engine::Search search(rules, 16);
  const semis::Position start = semis::Board(rules).start();
  semis::engine::Limits limits;
  limits.depth = static_cast<int>(state.range(0));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    search.clear();
    nodes += search.run(start, limits).nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void BM_SearchKalah(benchmark::State& state) { searchDepth(state, semis::Preset::Kalah); }
void BM_SearchCongkak(benchmark::State& state) { searchDepth(state, semis::Preset::Congkak); }
BENCHMARK(BM_SearchKalah)->Arg(8)->Arg(12);
BENCHMARK(BM_SearchCongkak)->Arg(6)->Arg(8);

void BM_SolveKalah44(benchmark::State& state) {
  semis::Rules rules = semis::presetRules(semis::Preset::Kalah);
  rules.houses = 4;
  semis::engine::Search search(rules, 16);
  const semis::Position start = semis::Board(rules).start();
  for (auto _ : state) {
    search.clear();
    benchmark::DoNotOptimize(search.run(start, semis::engine::Limits{}).value);
  }
}
BENCHMARK(BM_SolveKalah44)->Unit(benchmark::kMillisecond);

// Where the exact solver's time goes: the same solve with a table small enough for the cache and
// with the default one. Compare nodes/s between the two (docs/engine.md, "Anatomy").
void BM_SolveKalah63Table(benchmark::State& state) {
  semis::Rules rules = semis::presetRules(semis::Preset::Kalah);
  rules.seeds = 3;
  semis::engine::Search search(rules, static_cast<std::size_t>(state.range(0)));
  const semis::Position start = semis::Board(rules).start();
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    search.clear();
    nodes += search.run(start, semis::engine::Limits{}).nodes;
  }
  state.counters["nodes"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SolveKalah63Table)->Arg(1)->Arg(256)->Unit(benchmark::kMillisecond);

// The latency of one random read in memory allocated as the big tables are (HugeBuffer), for the
// sizes the solver uses: a chase through one random cycle of all the block's cache lines, so every
// read waits for the one before.
void BM_HugeBufferRandomRead(benchmark::State& state) {
  const std::size_t lines = static_cast<std::size_t>(state.range(0)) * 1024 * 1024 / 64;
  semis::engine::HugeBuffer memory(lines * 64);
  auto* line = static_cast<std::uint64_t*>(memory.data());  // word 0 of each line: the next line
  for (std::size_t i = 0; i < lines; ++i) line[i * 8] = i;
  std::uint64_t seed = 1;
  for (std::size_t i = lines - 1; i > 0; --i) {  // Sattolo's shuffle: one cycle through every line
    seed = nextRandom(seed);
    std::swap(line[i * 8], line[((seed >> 33) % i) * 8]);
  }
  std::uint64_t at = 0;
  for (auto _ : state) at = line[at * 8];
  benchmark::DoNotOptimize(at);
}
BENCHMARK(BM_HugeBufferRandomRead)->Arg(1)->Arg(4)->Arg(16)->Arg(256)->Arg(1024);

// Whether a prefetch hides a miss behind the work that follows it, as a fiber's turn hides another
// fiber's (engine/SolverSearch.cpp): each round computes six random addresses in 256 MB (they
// depend on the round before), then does `steps` steps of eight independent operations, then reads
// the six. Mode 0 reads them only then, mode 1 prefetches each as soon as it is known, mode 2 does
// the work alone. Mode 1 costs about the larger of mode 2 and one latency: the miss is hidden.
void BM_PrefetchUnderWork(benchmark::State& state) {
  const int steps = static_cast<int>(state.range(0));
  const int mode = static_cast<int>(state.range(1));
  const std::size_t lines = std::size_t{256} * 1024 * 1024 / 64;
  semis::engine::HugeBuffer memory(lines * 64);
  auto* line = static_cast<std::uint64_t*>(memory.data());
  for (std::size_t i = 0; i < lines; ++i) line[i * 8] = i * 0x9E3779B97F4A7C15ULL;
  std::uint64_t x = 12345;
  std::uint64_t read = 0;
  std::uint64_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (auto _ : state) {
    std::size_t at[6];
    for (std::size_t& a : at) {
      x = nextRandom(x);
      a = (((x ^ read) >> 20) % lines) * 8;
      if (mode == 1) __builtin_prefetch(&line[a]);
    }
    for (int i = 0; i < steps; ++i) {
      for (int k = 0; k < 8; ++k) w[k] += w[(k + 1) & 7] ^ static_cast<std::uint64_t>(i);
      benchmark::DoNotOptimize(w);
    }
    if (mode == 2) {
      read += x & 1;
    } else {
      for (const std::size_t a : at) read += line[a];
    }
  }
  benchmark::DoNotOptimize(read);
}
BENCHMARK(BM_PrefetchUnderWork)->ArgsProduct({{0, 25, 50, 100}, {0, 1, 2}});

// The Kalah-family kernel alone: random legal moves from the start, restarting finished games.
void BM_FastBoardPlay(benchmark::State& state) {
  const semis::Rules rules = semis::presetRules(semis::Preset::Kalah);
  const semis::engine::FastBoard board(rules);
  const semis::engine::FastPos start = board.fromPosition(semis::Board(rules).start());
  semis::engine::FastPos p = start;
  std::uint32_t seed = 1;
  for (auto _ : state) {
    std::uint32_t m = board.legalMask(p);
    seed = seed * 1664525U + 1013904223U;
    for (int k = static_cast<int>((seed >> 16) % static_cast<unsigned>(std::popcount(m))); k > 0; --k) m &= m - 1;
    if (board.play(p, std::countr_zero(m) + 1).over) p = start;
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FastBoardPlay);

void BM_EgdbBuildKalah6(benchmark::State& state) {
  const semis::Rules rules = semis::presetRules(semis::Preset::Kalah);
  for (auto _ : state) {
    auto db = semis::engine::Egdb::build(rules, static_cast<int>(state.range(0)));
    benchmark::DoNotOptimize(db.has_value());
  }
}
BENCHMARK(BM_EgdbBuildKalah6)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace
