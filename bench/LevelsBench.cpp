// The playing levels on Kalah boards from 6x6 to 12x12 (issue 24): how long each level takes a move
// against its budget, and whether it plays sensibly (its score against Easy).
//   semis_bench_levels [games per size] [hard budget in ms]
// Each level plays `games` games against Easy (sides alternate) on each board; every move of the
// level is timed. Reports wall times and scores; nothing here is asserted.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/Levels.hpp"
#include "rules/Game.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using semis::engine::Level;

struct Tally {
  std::vector<double> seconds;  // one per move of the measured level
  double points = 0;            // 1 a win, 0.5 a draw
  int seedsFor = 0;
  int seedsAgainst = 0;
};

void playGame(const semis::Rules& rules, Level level, bool levelSouth, std::uint64_t seed, double hardSeconds,
              Tally& tally) {
  semis::engine::LevelOptions options;
  options.hardSeconds = hardSeconds;
  options.tableMegabytes = 8;
  options.seed = seed;
  semis::engine::Player measured(rules, level, options);
  options.seed = seed + 1000;
  semis::engine::Player easy(rules, Level::Easy, options);
  semis::Game game(rules);
  const semis::Side mine = levelSouth ? semis::Side::South : semis::Side::North;
  while (!game.over()) {
    const semis::Position& pos = game.position();
    int house = 0;
    if (pos.toMove == mine) {
      const auto t0 = Clock::now();
      house = measured.choose(pos);
      tally.seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    } else {
      house = easy.choose(pos);
    }
    if (!game.play(house)) {
      std::fprintf(stderr, "illegal move %d in %s\n", house, game.board().toString(pos).c_str());
      std::exit(1);
    }
  }
  const semis::Outcome o = game.board().outcome(game.position());
  const int me = levelSouth ? o.south : o.north;
  const int them = levelSouth ? o.north : o.south;
  tally.points += me > them ? 1.0 : me == them ? 0.5 : 0.0;
  tally.seedsFor += me;
  tally.seedsAgainst += them;
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2;
  const double hardSeconds = (argc > 2 ? std::max(1, std::atoi(argv[2])) : 200) / 1000.0;
  std::printf("levels against Easy, %d games a board, Hard's budget %.3f s (Medium's cap too), Perfect's %.3f s\n",
              games, hardSeconds, 5 * hardSeconds);
  std::printf("%-26s %-8s %7s %9s %9s %9s %8s %11s\n", "rules", "level", "moves", "mean ms", "p95 ms", "max ms",
              "points", "seeds");
  for (int size : {6, 8, 10, 12}) {
    const std::string text = "kalah,houses=" + std::to_string(size) + ",seeds=" + std::to_string(size);
    const semis::Rules rules = *semis::parseRules(text);
    for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
      Tally tally;
      for (int g = 0; g < games; ++g) playGame(rules, level, g % 2 == 0, 7 + static_cast<std::uint64_t>(g), hardSeconds, tally);
      std::vector<double> s = tally.seconds;
      std::sort(s.begin(), s.end());
      double sum = 0;
      for (double v : s) sum += v;
      const double mean = s.empty() ? 0 : sum / static_cast<double>(s.size());
      const double p95 = s.empty() ? 0 : s[static_cast<std::size_t>(0.95 * static_cast<double>(s.size() - 1))];
      const double max = s.empty() ? 0 : s.back();
      std::printf("%-26s %-8s %7zu %9.1f %9.1f %9.1f %4.1f/%-3d %5d-%-5d\n", text.c_str(),
                  std::string(semis::engine::levelName(level)).c_str(), s.size(), mean * 1000, p95 * 1000, max * 1000,
                  tally.points, games, tally.seedsFor, tally.seedsAgainst);
      std::fflush(stdout);
    }
  }
  return 0;
}
