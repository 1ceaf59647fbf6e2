// Endgame tables against the plain solver: every probed value must equal the searched value of the
// seeds left; files round-trip through the memory mapping; unknown stays unknown.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "RandomPlay.hpp"
#include "SmallRules.hpp"
#include "engine/Egdb.hpp"
#include "engine/Search.hpp"
#include "engine/Solver.hpp"

namespace semis::engine {
namespace {

// cycles: the rules' bare games can cycle; positions whose search proves nothing are skipped (the
// cycle tests, EgdbCycleTest.cpp, check those).
void checkTable(Rules rules, int maxSeeds, bool cycles = false) {
  auto db = Egdb::build(rules, maxSeeds);
  ASSERT_TRUE(db.has_value()) << db.error().message;
  const Board board(rules);
  // The general search, not the Kalah-family Solver: the table builder shares the Solver's kernel.
  Search search(rules, 4, Search::Kernel::General);
  std::mt19937 rng(11);
  int probed = 0;
  for (int game = 0; game < (cycles ? 12 : 60); ++game) {
    Position pos = board.start();
    for (int ply = 0; !pos.over && ply < 1000; ++ply) {  // a bare Al-manqala game may never end
      const int left = board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North);
      if (left <= maxSeeds) {
        const int v = db->probe(board, pos);
        ASSERT_NE(v, Egdb::kUnknown) << board.toString(pos);
        Limits limits;
        if (cycles) {
          limits.nodes = 20000;
          limits.aim = Aim::Value;
        }
        const SearchResult r = search.run(pos, limits);
        if (cycles && !r.exact) {
          playRandomMove(board, pos, rng);
          continue;
        }
        ASSERT_TRUE(r.exact);
        const int d = pos.pits[static_cast<std::size_t>(board.storePit(pos.toMove))] -
                      pos.pits[static_cast<std::size_t>(board.storePit(other(pos.toMove)))];
        EXPECT_EQ(d + v, r.value) << board.toString(pos);
        ++probed;
      }
      playRandomMove(board, pos, rng);
    }
  }
  EXPECT_GT(probed, 20) << toString(rules);
  // Too many seeds: unknown, not a made-up value.
  EXPECT_EQ(db->probe(board, board.start()), Egdb::kUnknown);
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
// Castles: a block of houses per castle combination.
TEST(Egdb, CastleMatchesSearch) { checkTable(small(Preset::MangalaCastle, 4, 3), 12, true); }
TEST(Egdb, AlManqalaMatchesSearch) { checkTable(small(Preset::AlManqala, 4, 3), 12, true); }

// The solver's table layout follows the endgame table's size: exact keys below
// Solver::kHashedFromEgdbSeeds seeds, hashed ones from it on. Either way, with its table, on one
// thread or two sharing the table, it proves the values the general search proves with none.
TEST(Egdb, SolverLayoutsWithATableMatchSearch) {
  for (const Capture capture : {Capture::Standard, Capture::Empty}) {
    Rules rules = small(Preset::Kalah, 4, 3);  // 24 seeds, above both tables
    rules.capture = capture;
    const Board board(rules);
    // Positions above both tables, valued by the general search without a table.
    Search plain(rules, 4, Search::Kernel::General);
    std::mt19937 rng(5);
    std::vector<std::pair<Position, int>> cases;
    for (int plies = 0; plies < 6; ++plies) {
      Position pos = board.start();
      for (int ply = 0; ply < plies && !pos.over; ++ply) playRandomMove(board, pos, rng);
      const int left = board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North);
      if (pos.over || left <= Solver::kHashedFromEgdbSeeds) continue;
      plain.clear();
      const SearchResult r = plain.run(pos, Limits{});
      ASSERT_TRUE(r.exact);
      cases.emplace_back(pos, r.value);
    }
    ASSERT_GE(cases.size(), 3U) << toString(rules);
    for (const int seeds : {8, Solver::kHashedFromEgdbSeeds}) {
      auto db = Egdb::build(rules, seeds);
      ASSERT_TRUE(db.has_value()) << db.error().message;
      for (const int threads : {1, 2}) {
        Solver solver(rules, 4);
        solver.setEgdb(&*db);
        solver.setThreads(threads);
        for (const auto& [pos, value] : cases) {
          solver.clear();
          const SearchResult r = solver.run(pos, Limits{});
          EXPECT_EQ(solver.exactKeys(), seeds < Solver::kHashedFromEgdbSeeds) << seeds;
          ASSERT_TRUE(r.exact);
          EXPECT_EQ(r.value, value) << board.toString(pos) << " with the " << seeds << "-seed table, " << threads
                                    << " thread(s)";
        }
      }
    }
  }
}

// The Kalah-family builder splits each level across threads; the table must not depend on it.
TEST(Egdb, ThreadsBuildTheSameTable) {
  for (const char* text : {"kalah,houses=5", "kalah-club,houses=4,capture=empty"}) {
    const Rules rules = *parseRules(text);
    auto one = Egdb::build(rules, 13, 1);
    auto three = Egdb::build(rules, 13, 3);
    ASSERT_TRUE(one.has_value() && three.has_value());
    const std::string a = ::testing::TempDir() + "semis_egdb_t1.egdb";
    const std::string b = ::testing::TempDir() + "semis_egdb_t3.egdb";
    ASSERT_TRUE(one->save(a).has_value() && three->save(b).has_value());
    auto slurp = [](const std::string& path) {
      std::string bytes;
      FILE* f = std::fopen(path.c_str(), "rb");
      for (int c; f != nullptr && (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<char>(c));
      if (f != nullptr) std::fclose(f);
      return bytes;
    };
    const std::string bytesA = slurp(a);
    EXPECT_GT(bytesA.size(), one->entries());
    EXPECT_TRUE(bytesA == slurp(b)) << text;
    std::remove(a.c_str());
    std::remove(b.c_str());
  }
}

// The index from two rows of bytes (FastBoard's layout) numbers the positions of up to K seeds
// one to one: every distribution of every level gets its own entry, and together they are all of
// them. (The tables' tests above check that it agrees with probe(): the builder writes through it.)
TEST(Egdb, RowIndexNumbersEveryPositionOnce) {
  for (int houses : {2, 3, 6}) {
    const int maxSeeds = houses == 6 ? 7 : 10;
    auto db = Egdb::build(small(Preset::Kalah, houses, 1), maxSeeds);
    ASSERT_TRUE(db.has_value()) << db.error().message;
    std::vector<int> seen(db->entries(), 0);
    long long positions = 0;
    // Every distribution of at most K seeds into the 2N houses, house by house.
    auto each = [&](auto& self, int house, int left, std::uint64_t mine, std::uint64_t theirs) -> void {
      if (house == 2 * houses) {
        const std::uint64_t at = db->index(mine, theirs, maxSeeds - left);
        ASSERT_LT(at, db->entries());
        ++seen[at];
        ++positions;
        return;
      }
      for (int c = 0; c <= left; ++c) {
        const auto add = static_cast<std::uint64_t>(c) << (8 * (house % houses));
        if (house < houses) {
          self(self, house + 1, left - c, mine | add, theirs);
        } else {
          self(self, house + 1, left - c, mine, theirs | add);
        }
      }
    };
    each(each, 0, maxSeeds, 0, 0);
    EXPECT_EQ(positions, static_cast<long long>(db->entries())) << houses;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(seen.size())) << houses;
  }
}

TEST(Egdb, RefusesSizesItCannotBuild) {
  EXPECT_FALSE(Egdb::build(presetRules(Preset::Kalah), 0).has_value());
  EXPECT_FALSE(Egdb::build(presetRules(Preset::AlManqala), Egdb::kMaxSeedsLimit + 1).has_value());
}

TEST(Egdb, FileRoundTripAndSearchUsesIt) {
  const Rules rules = small(Preset::Kalah, 4, 3);
  auto db = Egdb::build(rules, 10);
  ASSERT_TRUE(db.has_value());
  const std::string path = ::testing::TempDir() + "semis_egdb_test.egdb";
  ASSERT_TRUE(db->save(path).has_value());
  auto mapped = Egdb::open(path);
  ASSERT_TRUE(mapped.has_value()) << mapped.error().message;
  auto resident = Egdb::open(path, Egdb::Access::Resident);
  ASSERT_TRUE(resident.has_value()) << resident.error().message;
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
  // Mapped and resident tables hold the built table's entries.
  std::mt19937 rng(3);
  int compared = 0;
  for (int game = 0; game < 20; ++game) {
    for (Position pos = board.start(); !pos.over;) {
      EXPECT_EQ(db->probe(board, pos), mapped->probe(board, pos)) << board.toString(pos);
      EXPECT_EQ(db->probe(board, pos), resident->probe(board, pos)) << board.toString(pos);
      compared += mapped->probe(board, pos) != Egdb::kUnknown ? 1 : 0;
      playRandomMove(board, pos, rng);
    }
  }
  EXPECT_GT(compared, 10);
  // A file that is not a table is refused.
  const std::string bad = ::testing::TempDir() + "semis_egdb_bad.egdb";
  FILE* f = std::fopen(bad.c_str(), "wb");
  std::fputs("not a table at all, just some text that is long enough to have a header-sized prefix? no", f);
  std::fclose(f);
  EXPECT_FALSE(Egdb::open(bad).has_value());
  std::remove(path.c_str());
  std::remove(bad.c_str());
}

// A table's values do not depend on what serves() sets aside: two tables built for rules that
// differ only there hold the same entries, and each serves the other's rules; what the values do
// depend on (the board, the capture and end rules, a win threshold the seeds can reach) is refused.
TEST(Egdb, ATableServesRulesThatDifferOnlyInWhatItsValuesIgnore) {
  const std::pair<const char*, const char*> same[] = {
      {"kalah,houses=4,seeds=3", "kalah,houses=4,seeds=5,pie=true,first=north"},
      {"kalah-club,houses=3,seeds=4", "kalah-club,houses=3,seeds=6,repetitions=3,idle_limit=50,sets=3"},
      // 42 and 48 seeds: the win at 50 is out of reach, so the stores are not in the index.
      {"al-manqala,houses=3,seeds=7", "al-manqala,houses=3,seeds=8"},
  };
  for (const auto& [a, b] : same) {
    const Rules ra = *parseRules(a);
    const Rules rb = *parseRules(b);
    auto ta = Egdb::build(ra, 10);
    auto tb = Egdb::build(rb, 10);
    ASSERT_TRUE(ta.has_value() && tb.has_value()) << a;
    EXPECT_TRUE(ta->serves(rb) && tb->serves(ra) && ta->serves(ra)) << a << " / " << b;
    ASSERT_EQ(ta->entries(), tb->entries()) << a;
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < ta->entries(); ++i) differ += ta->at(i) != tb->at(i) ? 1 : 0;
    EXPECT_EQ(differ, 0U) << a << " / " << b;
  }
  const std::pair<const char*, const char*> other[] = {
      {"kalah,houses=4,seeds=3", "kalah,houses=5,seeds=3"},
      {"kalah,houses=4,seeds=3", "kalah,houses=4,seeds=3,capture=empty"},
      {"kalah,houses=4,seeds=3", "kalah-club,houses=4,seeds=3"},       // the end rule
      {"al-manqala,houses=3,seeds=7", "al-manqala,houses=3,seeds=9"},  // 54 seeds: 50 wins
  };
  for (const auto& [a, b] : other) {
    auto ta = Egdb::build(*parseRules(a), 6);
    ASSERT_TRUE(ta.has_value()) << a;
    EXPECT_FALSE(ta->serves(*parseRules(b))) << a << " / " << b;
  }
}

// Both searches take a table that serves their rules: a Kalah(4,4) game with the pie rule solves
// with the table built for Kalah(4,3), to the same value in fewer nodes.
TEST(Egdb, SearchesUseATableBuiltForOtherStartingSeeds) {
  const Rules built = small(Preset::Kalah, 4, 3);
  auto db = Egdb::build(built, 12);
  ASSERT_TRUE(db.has_value());
  const Rules rules = *parseRules("kalah,houses=4,seeds=4,pie=true");
  const Board board(rules);
  for (const Search::Kernel kernel : {Search::Kernel::Auto, Search::Kernel::General}) {
    Search plain(rules, 4, kernel);
    Search probed(rules, 4, kernel);
    probed.setEgdb(&*db);
    const SearchResult a = plain.run(board.start(), Limits{});
    const SearchResult b = probed.run(board.start(), Limits{});
    EXPECT_TRUE(a.exact && b.exact);
    EXPECT_EQ(a.value, b.value);
    EXPECT_LT(b.nodes, a.nodes) << "the table went unused";
  }
}

}  // namespace
}  // namespace semis::engine
