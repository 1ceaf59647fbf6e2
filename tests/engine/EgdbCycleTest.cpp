// Endgame tables of rules whose positions cycle (Al-manqala, the castle rule) against an
// independent solver of the same game: every position reachable from a few random late positions,
// whole (stores, castles, real side to move; no ranking, no mirroring), valued for South by a plain
// fixpoint iteration per threshold. Play that never takes a seed again is a split: South's final
// difference is the current one (the table's rule, docs/engine.md "Endgame tables").

#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "RandomPlay.hpp"
#include "engine/Egdb.hpp"
#include "engine/Hint.hpp"
#include "engine/Search.hpp"

namespace semis::engine {
namespace {

struct Graph {
  const Board& board;
  std::vector<Position> nodes;
  std::map<std::string, int> ids;
  std::vector<std::vector<int>> kids;  // child node ids (finished games are nodes too)

  int add(const Position& pos) {
    auto [it, fresh] = ids.emplace(board.toString(pos), static_cast<int>(nodes.size()));
    if (!fresh) return it->second;
    nodes.push_back(pos);
    kids.emplace_back();
    for (std::size_t i = nodes.size() - 1; i < nodes.size(); ++i) {
      // Breadth-first from here: the position's children are added before they are looked at.
      if (!kids[i].empty() || nodes[i].over) continue;
      for (std::uint32_t m = board.legalMask(nodes[i]); m != 0; m &= m - 1) {
        Position c = nodes[i];
        board.apply(c, std::countr_zero(m) + 1);
        auto [cit, cfresh] = ids.emplace(board.toString(c), static_cast<int>(nodes.size()));
        if (cfresh) {
          nodes.push_back(c);
          kids.emplace_back();
        }
        kids[i].push_back(cit->second);
      }
    }
    return it->second;
  }

  [[nodiscard]] int left(int id) const {
    return board.rowSeeds(nodes[id], Side::South) + board.rowSeeds(nodes[id], Side::North) + castled(id);
  }
  [[nodiscard]] int castled(int id) const {
    int c = 0;  // stones kept in a castle (castle_capture=false) are on the board too
    for (const std::int8_t pit : nodes[id].castle) {
      if (pit != kNoCastle) c += nodes[id].pits[static_cast<std::size_t>(pit)];
    }
    return c;
  }
  [[nodiscard]] int diff(int id) const {
    return nodes[id].pits[static_cast<std::size_t>(board.storePit(Side::South))] -
           nodes[id].pits[static_cast<std::size_t>(board.storePit(Side::North))];
  }

  // South's final difference for every node, seed levels bottom-up.
  [[nodiscard]] std::vector<int> solve() const {
    const int n = static_cast<int>(nodes.size());
    std::vector<int> value(static_cast<std::size_t>(n), 0);
    std::vector<bool> done(static_cast<std::size_t>(n), false);
    int top = 0;
    for (int i = 0; i < n; ++i) top = std::max(top, left(i));
    for (int s = 0; s <= top; ++s) {
      std::vector<int> level;
      for (int i = 0; i < n; ++i) {
        if (nodes[i].over && left(i) == s) {
          value[i] = diff(i);
          done[i] = true;
        } else if (!nodes[i].over && left(i) == s) {
          level.push_back(i);
        }
      }
      const int span = board.rules().totalSeeds();
      std::vector<bool> win(static_cast<std::size_t>(n));
      std::vector<bool> set(static_cast<std::size_t>(n), false);
      for (int t = span; t >= -span; --t) {
        // South reaches >= t: a least fixpoint where endless play (worth diff) falls short of t,
        // a greatest one where it does not.
        for (int i : level) win[i] = diff(i) >= t;
        for (bool changed = true; changed;) {
          changed = false;
          for (int i : level) {
            const bool south = nodes[i].toMove == Side::South;
            bool w = !south;
            for (int c : kids[i]) {
              const bool good = done[c] ? value[c] >= t : win[c];
              w = south ? (w || good) : (w && good);
            }
            if (w != win[i]) {
              win[i] = w;
              changed = true;
            }
          }
        }
        for (int i : level) {
          if (win[i] && !set[i]) {
            value[i] = t;
            set[i] = true;
          }
        }
      }
      for (int i : level) done[i] = true;
    }
    return value;
  }
};

// Positions of random games with at most maxSeeds left; every one is checked with all it reaches.
void checkCycles(const Rules& rules, int maxSeeds, int games, int minChecked) {
  auto db = Egdb::build(rules, maxSeeds);
  ASSERT_TRUE(db.has_value()) << db.error().message;
  const Board board(rules);
  Graph g{board, {}, {}, {}};
  std::mt19937 rng(5);
  for (int game = 0; game < games; ++game) {
    Position pos = board.start();
    for (int ply = 0; !pos.over && ply < 400; ++ply) {
      const int left = rules.totalSeeds() - pos.pits[static_cast<std::size_t>(board.storePit(Side::South))] -
                       pos.pits[static_cast<std::size_t>(board.storePit(Side::North))];
      if (left <= maxSeeds) {
        g.add(pos);
        break;
      }
      playRandomMove(board, pos, rng);
    }
  }
  const std::vector<int> value = g.solve();
  int checked = 0;
  int zeros = 0;
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    const Position& pos = g.nodes[i];
    if (pos.over) continue;
    const int v = db->probe(board, pos);
    ASSERT_NE(v, Egdb::kUnknown) << board.toString(pos);
    const int mover = pos.toMove == Side::South ? 1 : -1;
    EXPECT_EQ(mover * (mover * g.diff(i) + v), value[i]) << board.toString(pos);
    ++checked;
    zeros += v == 0 ? 1 : 0;
  }
  EXPECT_GE(checked, minChecked) << toString(rules);
  std::printf("%s: %d positions checked, %d of value 0\n", toString(rules).c_str(), checked, zeros);
  EXPECT_GT(zeros, 0) << "no split positions among those checked: " << toString(rules);
}

TEST(EgdbCycles, AlManqalaSmallBoards) {
  checkCycles(*parseRules("al-manqala,houses=3,seeds=2"), 8, 40, 100);
  checkCycles(*parseRules("al-manqala,houses=4,seeds=2"), 8, 30, 100);
}

// A threshold the stores reach: the stores are part of the position (blocks per store).
TEST(EgdbCycles, AlManqalaWithItsWinThreshold) {
  checkCycles(*parseRules("al-manqala,houses=4,seeds=2,win_at=7"), 10, 60, 100);
}

TEST(EgdbCycles, CastleSmallBoards) {
  checkCycles(*parseRules("mangala-castle,houses=3,seeds=2"), 8, 40, 100);
  checkCycles(*parseRules("mangala-castle,houses=4,seeds=2"), 8, 30, 100);
  checkCycles(*parseRules("mangala-castle,houses=4,seeds=2,castle_capture=false"), 8, 30, 100);
}

// Awalé (oware abapa): no stores on the ring, seeds circulate, 2s and 3s taken, feeding, a grand slam
// that takes nothing, and the win threshold (25 of 48) in the index; on small boards a threshold the
// stores reach (win_at=9 of 16) keeps the stores in the index, as the preset's does. The variants
// change which moves are legal and what a capture takes.
TEST(EgdbCycles, AwaleSmallBoards) {
  checkCycles(*parseRules("awale,houses=4,seeds=2,win_at=9"), 7, 12, 100);
  checkCycles(*parseRules("awale,houses=4,seeds=2"), 7, 12, 100);
  checkCycles(*parseRules("awale,houses=4,seeds=2,win_at=9,grand_slam=illegal"), 7, 12, 100);
  checkCycles(*parseRules("awale,houses=4,seeds=2,win_at=9,grand_slam=all"), 7, 12, 100);
  checkCycles(*parseRules("awale,houses=4,seeds=2,win_at=9,feeding=false"), 7, 12, 100);
}

TEST(EgdbCycles, AwalePreset) { checkCycles(*parseRules("awale"), 5, 200, 100); }

// The search (Perfect, hints) with such a table: late positions are proven at once, with the table's
// value, and the move it plays keeps that value.
void checkSearchUsesTable(const Rules& rules, int maxSeeds) {
  auto db = Egdb::build(rules, maxSeeds);
  ASSERT_TRUE(db.has_value()) << db.error().message;
  const Board board(rules);
  Search search(rules, 4);
  search.setEgdb(&*db);
  std::mt19937 rng(9);
  int proven = 0;
  for (int game = 0; game < 30; ++game) {
    Position pos = board.start();
    for (int ply = 0; !pos.over && ply < 400; ++ply) {
      const int v = db->probe(board, pos);
      if (v != Egdb::kUnknown) {
        const int mover = static_cast<int>(pos.toMove);
        const int d = pos.pits[static_cast<std::size_t>(board.storePit(pos.toMove))] -
                      pos.pits[static_cast<std::size_t>(board.storePit(other(pos.toMove)))];
        Limits limits;
        limits.nodes = 100000;
        limits.aim = Aim::ValueFirst;
        const SearchResult r = search.run(pos, limits);
        ASSERT_TRUE(r.exact) << board.toString(pos);
        EXPECT_EQ(r.value, d + v) << board.toString(pos);
        Position child = pos;
        board.apply(child, r.bestMove);
        const int after = child.over ? 0 : db->probe(board, child);
        const int sign = child.toMove == pos.toMove ? 1 : -1;
        const int dc = child.pits[static_cast<std::size_t>(board.storePit(child.toMove))] -
                       child.pits[static_cast<std::size_t>(board.storePit(other(child.toMove)))];
        EXPECT_EQ(child.over ? (mover == 0 ? 1 : -1) * (child.pits[static_cast<std::size_t>(board.storePit(Side::South))] -
                                                       child.pits[static_cast<std::size_t>(board.storePit(Side::North))])
                             : sign * (dc + after),
                  d + v)
            << board.toString(pos) << " move " << r.bestMove;
        auto h = hint(search, pos, limits);
        ASSERT_TRUE(h.has_value());
        EXPECT_TRUE(h->exact);
        EXPECT_EQ(h->value, d + v) << board.toString(pos);
        ++proven;
        break;
      }
      playRandomMove(board, pos, rng);
    }
  }
  EXPECT_GE(proven, 20) << toString(rules);
}

TEST(EgdbCycles, SearchAndHintsUseTheTables) {
  checkSearchUsesTable(*parseRules("al-manqala,houses=4,seeds=2"), 8);
  checkSearchUsesTable(*parseRules("mangala-castle,houses=4,seeds=2"), 8);
  checkSearchUsesTable(*parseRules("al-manqala,houses=4,seeds=2,win_at=7"), 10);
  checkSearchUsesTable(*parseRules("awale,houses=4,seeds=2,win_at=9"), 10);
}

// Above the table: positions a few seeds above K that the search proves with the table must have
// the independent solver's value (the graph holds every position they reach, table levels included).
// The search plays the bare board, so a position whose level can cycle is proven only where every
// line it must consider leaves the level; at least `minProven` are.
void checkSearchAboveTable(const Rules& rules, int tableSeeds, int maxSeeds, int games, int minProven) {
  auto db = Egdb::build(rules, tableSeeds);
  ASSERT_TRUE(db.has_value()) << db.error().message;
  const Board board(rules);
  Graph g{board, {}, {}, {}};
  std::mt19937 rng(13);
  std::vector<int> roots;
  for (int game = 0; game < games; ++game) {
    Position pos = board.start();
    auto left = [&] { return board.rowSeeds(pos, Side::South) + board.rowSeeds(pos, Side::North); };
    for (int ply = 0; !pos.over && ply < 400 && left() > maxSeeds; ++ply) playRandomMove(board, pos, rng);
    if (!pos.over && left() > tableSeeds) roots.push_back(g.add(pos));
  }
  const std::vector<int> value = g.solve();
  Search search(rules, 4);
  search.setEgdb(&*db);
  int proven = 0;
  for (const int i : roots) {
    Limits limits;
    limits.nodes = 50000;
    limits.aim = Aim::Value;
    const SearchResult r = search.run(g.nodes[i], limits);
    if (!r.exact) continue;
    const int mover = g.nodes[i].toMove == Side::South ? 1 : -1;
    EXPECT_EQ(mover * r.value, value[i]) << board.toString(g.nodes[i]);
    ++proven;
  }
  std::printf("%s: %d of %zu positions of %d..%d seeds proven with the %d-seed table\n", toString(rules).c_str(),
              proven, roots.size(), tableSeeds + 1, maxSeeds, tableSeeds);
  EXPECT_GE(proven, minProven) << toString(rules);
}

TEST(EgdbCycles, AwaleSearchAboveTheTable) {
  checkSearchAboveTable(*parseRules("awale,houses=4,seeds=2,win_at=9"), 5, 8, 60, 6);
}

// The history rules (repetitions, turns without a capture) do not enter the table: it is the same
// table with them or without them (docs/engine.md says what that means in a game).
TEST(EgdbCycles, HistoryRulesLeaveTheTableAlone) {
  auto with = Egdb::build(*parseRules("al-manqala,houses=4,seeds=2"), 8);
  auto without = Egdb::build(*parseRules("al-manqala,houses=4,seeds=2,idle_limit=0,repetitions=0"), 8);
  ASSERT_TRUE(with.has_value() && without.has_value());
  ASSERT_EQ(with->entries(), without->entries());
  const Board board(with->rules());
  std::mt19937 rng(2);
  int compared = 0;
  for (int game = 0; game < 20; ++game) {
    Position pos = board.start();
    for (int ply = 0; !pos.over && ply < 400; ++ply) {
      EXPECT_EQ(with->probe(board, pos), without->probe(board, pos));
      compared += with->probe(board, pos) != Egdb::kUnknown ? 1 : 0;
      playRandomMove(board, pos, rng);
    }
  }
  EXPECT_GT(compared, 50);
}

}  // namespace
}  // namespace semis::engine
