// The quick-pairing pass (lobby/Pairing.hpp) over N open seeks of one pool, ratings spread like a
// club's (1000..2200), half of them waiting long enough for any difference: the worst case of the
// pass the server runs twice a second.
#include <benchmark/benchmark.h>

#include <random>

#include "lobby/Pairing.hpp"

static void pairQuickOnePool(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> rating(1000, 2200);
  std::uniform_int_distribution<long long> waited(0, 120'000);
  std::vector<semis::lobby::Seeker> seekers;
  for (std::size_t i = 0; i < n; ++i) {
    seekers.push_back({"s" + std::to_string(i), "p" + std::to_string(i), "kalah|180+2|r", rating(rng), 1'000'000 - waited(rng), true});
  }
  const auto none = [](const std::string&, const std::string&) { return false; };
  std::size_t pairs = 0;
  for (auto _ : state) pairs = semis::lobby::pairQuick(seekers, 1'000'000, none).size();
  state.counters["pairs"] = static_cast<double>(pairs);
}
BENCHMARK(pairQuickOnePool)->Arg(100)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);
