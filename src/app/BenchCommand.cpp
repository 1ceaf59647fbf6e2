// `semis bench [--depth D] [--table MB]`: searches a fixed list of positions for every preset to a
// fixed depth, then solves three small Kalah boards exactly; one thread, a fixed table cleared
// between positions. It prints
// `Nodes searched : N`, a signature that changes only when the search does.

#include <bit>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Search.hpp"

namespace semis::app {
namespace {

// Positions reached from the start by a fixed, rule-independent choice of moves.
std::vector<Position> benchPositions(const Board& board) {
  std::vector<Position> out;
  for (int plies : {0, 3, 8, 15}) {
    Position pos = board.start();
    for (int i = 0; i < plies && !pos.over; ++i) {
      std::uint32_t m = board.legalMask(pos);
      int k = (i * 5 + 2) % std::popcount(m);
      for (; k > 0; --k) m &= m - 1;
      board.apply(pos, std::countr_zero(m) + 1);
    }
    if (!pos.over) out.push_back(pos);
  }
  return out;
}

}  // namespace

int benchCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"depth", "table"});
  if (!args) return complain("bench", args.error().message);
  int depth = 6;
  int tableMb = 16;
  try {
    depth = std::stoi(args->get("depth", "6"));
    tableMb = std::stoi(args->get("table", "16"));
  } catch (const std::exception&) {
    return complain("bench", "--depth and --table take numbers");
  }
  if (depth < 1 || depth > engine::kMaxDepth || tableMb < 1 || tableMb > 4096) {
    return complain("bench", "--depth takes 1.." + std::to_string(engine::kMaxDepth) + ", --table 1..4096");
  }
  std::uint64_t total = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (Preset preset : allPresets()) {
    const Rules rules = presetRules(preset);
    engine::Search search(rules, static_cast<std::size_t>(tableMb));
    engine::Limits limits;
    limits.depth = depth;
    for (const Position& pos : benchPositions(search.board())) {
      search.clear();
      const engine::SearchResult r = search.run(pos, limits);
      total += r.nodes;
      std::printf("%-16s %-48s best %d value %+d%s nodes %llu\n", std::string(presetName(preset)).c_str(),
                  search.board().toString(pos).c_str(), r.bestMove, r.value, r.exact ? " (exact)" : "",
                  static_cast<unsigned long long>(r.nodes));
    }
  }
  // Exact solves from the start: the solver's own signature (no depth limit, so --depth has no say).
  for (const char* text : {"kalah,houses=4", "kalah,houses=4,capture=empty", "kalah-club,houses=4,seeds=3"}) {
    const Rules rules = *parseRules(text);
    engine::Search search(rules, static_cast<std::size_t>(tableMb));
    const Position pos = search.board().start();
    const engine::SearchResult r = search.run(pos, engine::Limits{});
    total += r.nodes;
    std::printf("%-16s %-48s best %d value %+d%s nodes %llu\n", "solve", search.board().toString(pos).c_str(),
                r.bestMove, r.value, r.exact ? " (exact)" : "", static_cast<unsigned long long>(r.nodes));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("Total time (s) : %.3f\n", seconds);
  std::printf("Nodes/second   : %.0f\n", seconds > 0 ? static_cast<double>(total) / seconds : 0.0);
  std::printf("Nodes searched : %llu\n", static_cast<unsigned long long>(total));
  return kExitOk;
}

extern const Command kBenchCommand{
    "bench", "search fixed positions: a node-count signature",
    "usage: semis bench [--depth D] [--table MB]\n"
    "  Fixed-depth searches of every preset, then exact solves of three small Kalah boards, one thread;\n"
    "  prints \"Nodes searched : N\", a signature that changes only when the search does.\n",
    benchCommand};

}  // namespace semis::app
