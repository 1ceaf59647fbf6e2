// The facade's contract: go() returns at once, results come through callbacks, stop() ends a search
// early, several engines run at once; levels on real positions (hints: HintTest.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "SmallRules.hpp"
#include "engine/Engine.hpp"
#include "engine/Levels.hpp"

namespace semis::engine {
namespace {

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
  // knownPresets: awale too, which the generic search plays before the platform offers it.
  for (Preset preset : knownPresets()) {
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

}  // namespace
}  // namespace semis::engine
