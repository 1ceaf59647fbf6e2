// `semis match --rules R --a LEVEL --b LEVEL [--games N] [--ms T] [--seed S] [--medium-depth D]`: N games between two
// AI levels from varied openings (0..3 random plies), each opening played twice with the sides
// swapped. T is Hard's budget per move in milliseconds (default 50, so matches run fast). Each
// game is a single set under semis::Game, so repetition and no-capture splits apply.

#include <bit>
#include <cstdio>
#include <random>
#include <string>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Levels.hpp"
#include "rules/Game.hpp"

namespace semis::app {

int matchCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "a", "b", "games", "ms", "seed", "medium-depth"});
  if (!args) return complain("match", args.error().message);
  auto rules = parseRules(args->get("rules", "kalah"));
  if (!rules) return complain("match", rules.error().message);
  auto la = engine::parseLevel(args->get("a", "hard"));
  auto lb = engine::parseLevel(args->get("b", "medium"));
  if (!la) return complain("match", la.error().message);
  if (!lb) return complain("match", lb.error().message);
  engine::LevelOptions opts0;
  int games = 20;
  int ms = 50;
  unsigned long long seed = 1;
  try {
    games = std::stoi(args->get("games", "20"));
    ms = std::stoi(args->get("ms", "50"));
    seed = std::stoull(args->get("seed", "1"));
    opts0.mediumDepth = std::stoi(args->get("medium-depth", std::to_string(opts0.mediumDepth)));
  } catch (const std::exception&) {
    return complain("match", "--games, --ms and --seed take numbers");
  }
  if (games < 1 || games > 100000 || ms < 1)
    return complain("match", "--games takes 1..100000, --ms a positive number");
  Rules oneSet = *rules;
  oneSet.sets = 1;
  if (opts0.mediumDepth < 1 || opts0.mediumDepth > engine::kMaxDepth)
    return complain("match", "--medium-depth takes 1..240");
  engine::LevelOptions opts = opts0;
  opts.hardSeconds = ms / 1000.0;
  opts.seed = seed;
  engine::Player a(oneSet, *la, opts);
  opts.seed = seed + 1;
  engine::Player b(oneSet, *lb, opts);
  int wins = 0, draws = 0, losses = 0;
  double southScore = 0;  // the first player's, whoever played it: his advantage (docs/club.md)
  int pairWins = 0, pairDraws = 0, pairLosses = 0;
  long margin = 0;
  int pairMargin = 0;
  for (int g = 0; g < games; ++g) {
    Game game(oneSet);
    // The opening: the same random plies for both games of a pair.
    std::mt19937_64 rng(seed * 1000003ULL + static_cast<unsigned long long>(g / 2));
    const int openingPlies = static_cast<int>((g / 2) % 4);
    for (int i = 0; i < openingPlies && !game.over(); ++i) {
      const std::uint32_t mask = game.board().legalMask(game.position());
      std::uniform_int_distribution<int> pick(0, std::popcount(mask) - 1);
      std::uint32_t m = mask;
      for (int k = pick(rng); k > 0; --k) m &= m - 1;
      (void)game.play(std::countr_zero(m) + 1);
    }
    const Side aSide = g % 2 == 0 ? Side::South : Side::North;
    int plies = 0;
    while (!game.over() && plies < 2000) {
      const Position& pos = game.position();
      engine::Player& p = pos.toMove == aSide ? a : b;
      const int move = p.choose(pos);
      if (!game.play(move)) return complain("match", "the AI chose an illegal move", kExitFailure);
      ++plies;
    }
    const Outcome o = game.over() ? game.setResults().back().outcome : game.board().outcome(game.position());
    const int diff = aSide == Side::South ? o.south - o.north : o.north - o.south;
    margin += diff;
    southScore += o.south > o.north ? 1.0 : o.south == o.north ? 0.5 : 0.0;
    if (diff > 0)
      ++wins;
    else if (diff < 0)
      ++losses;
    else
      ++draws;
    // A pair is one opening played from both sides: it cancels the first player's advantage, which
    // in Congkak decides most games between any two levels.
    pairMargin += diff;
    if (g % 2 == 1) {
      if (pairMargin > 0)
        ++pairWins;
      else if (pairMargin < 0)
        ++pairLosses;
      else
        ++pairDraws;
      pairMargin = 0;
    }
  }
  std::printf("%s: %s vs %s, %d games: %s wins %d, draws %d, losses %d; score %.1f-%.1f; mean margin %+.2f\n",
              toString(*rules).c_str(), std::string(engine::levelName(*la)).c_str(),
              std::string(engine::levelName(*lb)).c_str(), games, std::string(engine::levelName(*la)).c_str(), wins,
              draws, losses, wins + draws / 2.0, losses + draws / 2.0, static_cast<double>(margin) / games);
  std::printf("pairs (same opening, sides swapped, total margin): %s wins %d, draws %d, losses %d\n",
              std::string(engine::levelName(*la)).c_str(), pairWins, pairDraws, pairLosses);
  std::printf("first player (South) scored %.1f of %d (%.0f%%)\n", southScore, games, 100.0 * southScore / games);
  return kExitOk;
}

extern const Command kMatchCommand{
    "match", "play AI levels against each other",
    "usage: semis match --rules R --a LEVEL --b LEVEL [--games N] [--ms T] [--seed S] [--medium-depth D]\n"
    "  N games between two levels (easy, medium, hard, perfect) from varied openings, each opening\n"
    "  played twice with the sides swapped.\n"
    "  --ms T   Hard's budget per move in milliseconds (default 50)\n",
    matchCommand};

}  // namespace semis::app
