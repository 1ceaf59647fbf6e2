// The study features' speed (issue 17's targets; docs/study.md, Measurements):
//   hint   : engine::hint on Kalah positions of every stage of generated games, with the server's
//            budget (250 ms for all the legal moves): p50, p95, max;
//   review : study::review of generated 60-ply Kalah games at the server's 80 ms a position;
//   daily  : study::dailyPuzzle for each preset with one, several days.
// `semis_bench_study [hints] [games] [days]`. Reports wall times; nothing here is asserted.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/Hint.hpp"
#include "engine/Levels.hpp"
#include "study/Daily.hpp"
#include "study/Review.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A game between two seeded players (Medium or Easy against Easy): human-like, with mistakes to find.
semis::Game generatedGame(const semis::Rules& rules, std::uint64_t seed,
                          semis::engine::Level first = semis::engine::Level::Medium) {
  semis::engine::LevelOptions options;
  options.tableMegabytes = 2;
  options.seed = seed;
  semis::engine::Player a(rules, first, options);
  options.seed = seed * 7 + 1;
  semis::engine::Player b(rules, semis::engine::Level::Easy, options);
  semis::Game game(rules);
  while (!game.over()) {
    auto& p = game.position().toMove == semis::Side::South ? a : b;
    if (!game.play(p.choose(game.position()))) break;
  }
  return game;
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  const int hints = argc > 1 ? std::atoi(argv[1]) : 120;
  const int games = argc > 2 ? std::atoi(argv[2]) : 5;
  const int days = argc > 3 ? std::atoi(argv[3]) : 7;
  const semis::Rules kalah = *semis::parseRules("kalah");

  // Hints: positions taken evenly along generated games.
  std::vector<semis::Position> positions;
  for (std::uint64_t seed = 1; static_cast<int>(positions.size()) < hints; ++seed) {
    const semis::Game g = generatedGame(kalah, seed);
    semis::Position pos = g.initial();
    for (const auto& ply : g.plies()) {
      if (static_cast<int>(positions.size()) < hints && (ply.move + seed) % 3 == 0) positions.push_back(pos);
      pos = ply.after;
    }
  }
  std::vector<double> hintTimes;
  int exact = 0;
  for (const auto& pos : positions) {
    semis::engine::Search search(kalah, 16);  // as the server: a fresh search per hint
    const int legal = __builtin_popcount(search.board().legalMask(pos));
    semis::engine::Limits limits;
    limits.seconds = 0.250 / legal;
    const auto t0 = Clock::now();
    const auto h = semis::engine::hint(search, pos, limits);
    hintTimes.push_back(since(t0) * 1000);
    exact += h && h->exact ? 1 : 0;
  }
  std::printf("hint   kalah  %zu positions: p50 %.0f ms, p95 %.0f ms, max %.0f ms; %d proven exact\n", hintTimes.size(),
              percentile(hintTimes, 0.5), percentile(hintTimes, 0.95), percentile(hintTimes, 1.0), exact);

  // Reviews of whole generated games of at least 60 plies (the measure).
  std::uint64_t seed = 100;
  for (int i = 0; i < games; ++i) {
    semis::Game g = generatedGame(kalah, seed++);
    while (g.plies().size() < 60) g = generatedGame(kalah, seed++, semis::engine::Level::Easy);
    semis::engine::Search search(kalah, 64);
    semis::study::ReviewLimits limits;  // the server's: 80 ms a position
    const auto t0 = Clock::now();
    const auto r = semis::study::review(search, g, limits);
    const double s = since(t0);
    int proven = 0;
    for (const auto& p : r->plies) proven += p.bestExact ? 1 : 0;
    std::printf("review kalah  game %d: %zu plies in %.2f s, %d proven exact, %llu nodes\n", i + 1, r->plies.size(), s,
                proven, static_cast<unsigned long long>(r->nodes));
  }

  // Daily puzzles.
  // Awalé's are judged by its 8-seed table: built once, before the timings (about 0.3 s).
  semis::study::DailyTables tables;
  for (const char* name : {"kalah", "kalah-club", "mangala", "mangala-castle", "congkak", "awale"}) {
    const semis::Rules rules = *semis::parseRules(name);
    const semis::engine::Egdb* table = tables.find(rules);
    std::vector<double> times;
    for (int d = 0; d < days; ++d) {
      const auto t0 = Clock::now();
      const auto p = semis::study::dailyPuzzle(rules, 20791 + d, {}, table);
      times.push_back(since(t0));
      if (!p) std::printf("daily  %s day %d: %s\n", name, d, p.error().message.c_str());
    }
    std::printf("daily  %-14s %d days: median %.2f s, max %.2f s\n", name, days, percentile(times, 0.5),
                percentile(times, 1.0));
  }
  return 0;
}
