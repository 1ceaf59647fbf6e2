// The facade's contract: go() returns at once, results come through callbacks, stop() ends a search
// early, several engines run at once; levels and hints on real positions.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <vector>

#include "engine/Engine.hpp"
#include "engine/Hint.hpp"
#include "engine/Levels.hpp"

namespace semis::engine {
namespace {

Rules small(Preset preset, int houses, int seeds) {
  Rules r = presetRules(preset);
  r.houses = houses;
  r.seeds = seeds;
  return r;
}

TEST(Engine, ResultsComeThroughCallbacks) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  Engine engine(rules);
  std::atomic<int> iterations{0};
  SearchResult done;
  std::atomic<bool> called{false};
  auto ok = engine.go(
      Board(rules).start(), Limits{},
      [&](const SearchResult& r) {
        done = r;
        called = true;
      },
      [&](const SearchResult&) { ++iterations; });
  ASSERT_TRUE(ok.has_value());
  EXPECT_FALSE(engine.go(Board(rules).start(), Limits{}, {}).has_value() && engine.busy());
  engine.wait();
  EXPECT_TRUE(called);
  EXPECT_GT(iterations.load(), 0);
  EXPECT_TRUE(done.exact);
  Search reference(rules, 4);
  EXPECT_EQ(done.value, reference.run(Board(rules).start(), Limits{}).value);
}

TEST(Engine, StopEndsAnUnboundedSearch) {
  const Rules rules = presetRules(Preset::Congkak);  // far too big to solve
  Engine engine(rules);
  std::atomic<bool> called{false};
  SearchResult done;
  ASSERT_TRUE(engine
                  .go(Board(rules).start(), Limits{},
                      [&](const SearchResult& r) {
                        done = r;
                        called = true;
                      })
                  .has_value());
  engine.stop();
  engine.wait();
  EXPECT_TRUE(called);
  EXPECT_TRUE(Board(rules).isLegal(Board(rules).start(), done.bestMove));
  EXPECT_FALSE(engine.busy());
  // The engine is reusable after a stop.
  Limits limits;
  limits.depth = 2;
  ASSERT_TRUE(engine.go(Board(rules).start(), limits, [&](const SearchResult& r) { done = r; }).has_value());
  engine.wait();
  EXPECT_EQ(done.depth, 2);
}

TEST(Engine, SeveralEnginesAtOnceAgree) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  std::vector<std::unique_ptr<Engine>> engines;
  std::vector<SearchResult> results(4);
  for (int i = 0; i < 4; ++i) {
    engines.push_back(std::make_unique<Engine>(rules));
    ASSERT_TRUE(engines.back()
                    ->go(Board(rules).start(), Limits{},
                         [&results, i](const SearchResult& r) { results[static_cast<std::size_t>(i)] = r; })
                    .has_value());
  }
  for (auto& e : engines) e->wait();
  for (const auto& r : results) {
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.value, results[0].value);
  }
}

TEST(Engine, GoOnAFinishedGameIsAnError) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  Engine engine(rules);
  Position over = Board(rules).start();
  over.over = true;
  EXPECT_FALSE(engine.go(over, Limits{}, {}).has_value());
  EXPECT_FALSE(engine.busy());
}

TEST(Levels, EveryLevelPlaysLegalMovesOnEveryPreset) {
  for (Preset preset : allPresets()) {
    const Rules rules = presetRules(preset);
    const Board board(rules);
    for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
      LevelOptions opts;
      opts.hardSeconds = 0.01;
      opts.tableMegabytes = 2;
      Player player(rules, level, opts);
      Position pos = board.start();
      for (int ply = 0; ply < 6 && !pos.over; ++ply) {
        const int move = player.choose(pos);
        ASSERT_TRUE(board.isLegal(pos, move)) << presetName(preset) << " " << levelName(level);
        board.apply(pos, move);
      }
    }
  }
  EXPECT_FALSE(parseLevel("grandmaster").has_value());
  EXPECT_EQ(*parseLevel("hard"), Level::Hard);
}

TEST(Levels, EasySometimesMissesAnExtraTurn) {
  // South's house 3 (of 4 houses) holds 2 seeds: it ends in his store.
  Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  auto pos = parsePositionFor(board, "1,1,2,0/3,3,3,3/4,4/S");
  ASSERT_TRUE(pos.has_value()) << pos.error().message;
  int easyMissed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    LevelOptions opts;
    opts.seed = seed;
    Player easy(rules, Level::Easy, opts);
    const int m = easy.choose(*pos);
    Position c = *pos;
    if (!board.apply(c, m).extraTurn) ++easyMissed;
  }
  EXPECT_GT(easyMissed, 0);
  EXPECT_LT(easyMissed, 40);
}

TEST(Hint, ExplainsAnExtraTurnAndACapture) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  // House 3 with 2 seeds ends in the store; house 1 with 1 seed lands in empty house 2 opposite 4.
  auto pos = parsePositionFor(board, "1,0,2,5/3,4,3,3/2,1/S");
  ASSERT_TRUE(pos.has_value()) << pos.error().message;
  const auto extra = moveReasons(board, *pos, 3);
  EXPECT_NE(std::find(extra.begin(), extra.end(), "ends in your store: you play again"), extra.end());
  const auto cap = moveReasons(board, *pos, 1);
  // South's house 2 faces North's house 3 (3 seeds): 3 + 1 captured.
  EXPECT_NE(std::find(cap.begin(), cap.end(), "captures 4 seeds"), cap.end());
}

TEST(Hint, ProtectsAThreatenedHouse) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  // North's house 3 (1 seed) lands in his empty house 4, facing South's house 1 (4 seeds): moving
  // house 1 takes it out of reach.
  auto pos = parsePositionFor(board, "4,1,1,1/2,1,1,0/7,6/S");
  ASSERT_TRUE(pos.has_value()) << pos.error().message;
  const auto reasons = moveReasons(board, *pos, 1);
  EXPECT_NE(std::find(reasons.begin(), reasons.end(),
                      "protects your house 1 of 4 seeds that the opponent could capture next"),
            reasons.end());
  for (const auto& r : moveReasons(board, *pos, 2)) EXPECT_NE(r.rfind("protects your house", 0), 0U) << r;
}

TEST(Hint, NeverALosingMoveWhenAWinIsKnown) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  const Board board(rules);
  Search search(rules, 8);
  Position pos = board.start();
  for (int ply = 0; ply < 10 && !pos.over; ++ply) {
    auto h = hint(search, pos, Limits{});
    ASSERT_TRUE(h.has_value());
    ASSERT_TRUE(h->exact);
    for (const auto& mv : h->moves) EXPECT_LE(mv.value, h->value);
    EXPECT_TRUE(board.isLegal(pos, h->move));
    board.apply(pos, h->move);
  }
  Position over = board.start();
  over.over = true;
  EXPECT_FALSE(hint(search, over, Limits{}).has_value());
  EXPECT_EQ(verdictText(4, true), "wins by 4 with best play");
}

// A hint's budget goes first to each move's exact solve: on a Kalah(6,4) middle game it proves
// more move values than a ply-by-ply search given the same nodes, and the values it proves are the
// exact ones.
TEST(Hint, ABudgetProvesMoreMovesThanAPlyByPlySearch) {
  const Rules rules = presetRules(Preset::Kalah);
  const Board board(rules);
  auto pos = parsePositionFor(board, "1,2,3,1,1,0/1,6,4,3,3,1/9,13/S");
  ASSERT_TRUE(pos.has_value()) << pos.error().message;
  Limits budget;
  budget.nodes = 100000;  // per move: 4 of the 5 moves proven by the ply-by-ply search alone
  Search search(rules, 16);
  // One searcher: the comparison is between two ways of spending a node budget, and fibers share
  // a budget in an order that moves the count proven either way by one (4 against 4 at this budget).
  search.setFibers(1);
  auto proven = [](const std::vector<MoveValue>& values) {
    return std::count_if(values.begin(), values.end(), [](const MoveValue& mv) { return mv.exact; });
  };
  const auto plain = proven(search.moveValues(*pos, budget));
  search.clear();
  auto h = hint(search, *pos, budget);
  ASSERT_TRUE(h.has_value());
  EXPECT_GT(proven(h->moves), plain);
  search.clear();
  const std::vector<MoveValue> exact = search.moveValues(*pos, Limits{});
  ASSERT_EQ(exact.size(), h->moves.size());
  for (std::size_t i = 0; i < exact.size(); ++i) {
    ASSERT_TRUE(exact[i].exact);
    if (h->moves[i].exact) {
      EXPECT_EQ(h->moves[i].value, exact[i].value) << "move " << exact[i].move;
    }
  }
  std::printf("proven: %ld plain, %ld hint of %zu\n", static_cast<long>(plain), static_cast<long>(proven(h->moves)),
              exact.size());
}

}  // namespace
}  // namespace semis::engine
