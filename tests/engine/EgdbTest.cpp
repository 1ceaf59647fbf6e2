// Endgame tables against the plain solver: every probed value must equal the searched value of the
// seeds left; files round-trip through the memory mapping; unknown stays unknown.

#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <random>

#include "engine/Egdb.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

void checkTable(Rules rules, int maxSeeds) {
  auto db = Egdb::build(rules, maxSeeds);
  ASSERT_TRUE(db.has_value()) << db.error().message;
  const Board board(rules);
  Search search(rules, 4);
  std::mt19937 rng(11);
  int probed = 0;
  for (int game = 0; game < 60; ++game) {
    Position pos = board.start();
    while (!pos.over) {
      const int left = board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North);
      if (left <= maxSeeds) {
        const int v = db->probe(board, pos);
        ASSERT_NE(v, Egdb::kUnknown) << board.toString(pos);
        const SearchResult r = search.run(pos, Limits{});
        ASSERT_TRUE(r.exact);
        const int d = pos.pits[static_cast<std::size_t>(board.storePit(pos.toMove))] -
                      pos.pits[static_cast<std::size_t>(board.storePit(other(pos.toMove)))];
        EXPECT_EQ(d + v, r.value) << board.toString(pos);
        ++probed;
      }
      std::uint32_t m = board.legalMask(pos);
      for (int k = static_cast<int>(rng() % static_cast<unsigned>(std::popcount(m))); k > 0; --k) m &= m - 1;
      board.apply(pos, std::countr_zero(m) + 1);
    }
  }
  EXPECT_GT(probed, 20) << toString(rules);
  // Too many seeds: unknown, not a made-up value.
  EXPECT_EQ(db->probe(board, board.start()), Egdb::kUnknown);
}

Rules small(Preset preset, int houses, int seeds) {
  Rules r = presetRules(preset);
  r.houses = houses;
  r.seeds = seeds;
  return r;
}

TEST(Egdb, KalahMatchesSearch) { checkTable(small(Preset::Kalah, 4, 3), 12); }
TEST(Egdb, KalahEmptyCaptureMatchesSearch) {
  Rules r = small(Preset::Kalah, 4, 3);
  r.capture = Capture::Empty;
  checkTable(r, 12);
}
TEST(Egdb, KalahClubMatchesSearch) { checkTable(small(Preset::KalahClub, 4, 3), 12); }
TEST(Egdb, MangalaMatchesSearch) { checkTable(small(Preset::Mangala, 4, 3), 12); }
TEST(Egdb, CongkakMatchesSearch) { checkTable(small(Preset::Congkak, 4, 3), 10); }

TEST(Egdb, RefusesRulesItCannotServe) {
  EXPECT_FALSE(Egdb::build(presetRules(Preset::AlManqala), 8).has_value());
  EXPECT_FALSE(Egdb::build(presetRules(Preset::MangalaCastle), 8).has_value());
  EXPECT_FALSE(Egdb::build(presetRules(Preset::Kalah), 0).has_value());
}

TEST(Egdb, FileRoundTripAndSearchUsesIt) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  auto db = Egdb::build(rules, 10);
  ASSERT_TRUE(db.has_value());
  const std::string path = ::testing::TempDir() + "semis_egdb_test.egdb";
  ASSERT_TRUE(db->save(path).has_value());
  auto mapped = Egdb::open(path);
  ASSERT_TRUE(mapped.has_value()) << mapped.error().message;
  EXPECT_EQ(mapped->rules(), rules);
  EXPECT_EQ(mapped->maxSeeds(), 10);
  EXPECT_EQ(mapped->entries(), db->entries());
  // The searched value is the same with and without the table, and the table saves nodes.
  const Board board(rules);
  Search plain(rules, 4);
  Search probed(rules, 4);
  probed.setEgdb(&*mapped);
  const SearchResult a = plain.run(board.start(), Limits{});
  const SearchResult b = probed.run(board.start(), Limits{});
  EXPECT_TRUE(a.exact && b.exact);
  EXPECT_EQ(a.value, b.value);
  EXPECT_LT(b.nodes, a.nodes);
  // A file that is not a table is refused.
  const std::string bad = ::testing::TempDir() + "semis_egdb_bad.egdb";
  FILE* f = std::fopen(bad.c_str(), "wb");
  std::fputs("not a table at all, just some text that is long enough to have a header-sized prefix? no", f);
  std::fclose(f);
  EXPECT_FALSE(Egdb::open(bad).has_value());
  std::remove(path.c_str());
  std::remove(bad.c_str());
}

}  // namespace
}  // namespace semis::engine
