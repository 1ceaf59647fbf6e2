// Perft: the committed tables (data/perft.txt) and a cross-check against a naive move generator
// written here from docs/rules.md alone (plain loops over a vector, no precomputed ring), compared
// position by position with the engine at every node of small trees.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rules/Perft.hpp"

namespace semis {
namespace {

TEST(Perft, CommittedTablesMatch) {
  std::ifstream in(std::string(SEMIS_TEST_DATA) + "/perft.txt");
  ASSERT_TRUE(in) << "tests/rules/data/perft.txt";
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string rulesText;
    int depth = 0;
    std::uint64_t count = 0;
    ASSERT_TRUE(fields >> rulesText >> depth >> count) << line;
    auto rules = parseRules(rulesText);
    ASSERT_TRUE(rules) << line;
    const Board board(*rules);
    EXPECT_EQ(perft(board, board.start(), depth), count) << line;
    ++rows;
  }
  EXPECT_GE(rows, 40);
}

// ---- the naive generator ------------------------------------------------------------------------
struct Naive {
  Rules r;
  int n;
  std::vector<int> pit;
  int toMove = 0;  // 0 South, 1 North
  bool over = false;
  int castle[2] = {-1, -1};

  int ring() const { return 2 * n + 2; }
  int store(int side) const { return side == 0 ? n : 2 * n + 1; }
  bool isStore(int p) const { return p == n || p == 2 * n + 1; }
  int owner(int p) const { return p <= n ? 0 : 1; }
  int house(int side, int h) const { return side == 0 ? h - 1 : n + h; }
  int castleOwner(int p) const { return castle[0] == p ? 0 : castle[1] == p ? 1 : -1; }
  int rowSum(int side) const {
    int s = 0;
    for (int h = 1; h <= n; ++h) {
      if (castleOwner(house(side, h)) < 0) s += pit[static_cast<std::size_t>(house(side, h))];
    }
    return s;
  }
  int& at(int p) { return pit[static_cast<std::size_t>(p)]; }

  // Sows from house h of the player to move; returns the last pit, records the drops.
  int sow(int h, bool& cut, std::vector<int>& drops) {
    const int mover = toMove;
    int origin = house(mover, h);
    int seeds = at(origin);
    at(origin) = 0;
    auto drop = [&](int p) {
      const int o = castleOwner(p);
      ++at(o < 0 ? p : store(o));
      drops.push_back(o < 0 ? p : -1);
    };
    int cur = origin;
    if (r.sowFrom == SowFrom::Origin && seeds >= 2) {
      drop(origin);
      --seeds;
    }
    const bool sowStore = r.stores && r.sowOwnStore;
    const long lap = 2L * n + (sowStore ? 1 : 0);
    long count = 0;
    for (;;) {
      while (seeds > 0) {
        do {
          cur = (cur + 1) % ring();
        } while ((isStore(cur) && !(sowStore && cur == store(mover))) || (r.skipOrigin && cur == origin));
        drop(cur);
        --seeds;
        ++count;
      }
      if (!r.relay || isStore(cur) || at(cur) < 2) return cur;
      if (count >= r.relayLimit * lap) {
        cut = true;
        return cur;
      }
      seeds = at(cur);
      at(cur) = 0;
      origin = cur;
    }
  }

  bool feeds(int h) const {
    Naive copy = *this;
    bool cut = false;
    std::vector<int> drops;
    copy.sow(h, cut, drops);
    for (int p : drops) {
      if (p >= 0 && !isStore(p) && owner(p) != toMove) return true;
    }
    return false;
  }

  std::vector<int> moves() const {
    std::vector<int> out;
    if (over) return out;
    const bool mustFeed = r.feeding && rowSum(1 - toMove) == 0;
    for (int h = 1; h <= n; ++h) {
      const int p = house(toMove, h);
      if (pit[static_cast<std::size_t>(p)] == 0 || castleOwner(p) >= 0) continue;
      if (mustFeed && !feeds(h)) continue;
      out.push_back(h);
    }
    return out;
  }

  void take(int p, int side) {
    at(store(side)) += at(p);
    at(p) = 0;
  }

  void play(int h) {
    const int mover = toMove;
    const int rowBefore[2] = {rowSum(0), rowSum(1)};
    bool cut = false;
    std::vector<int> drops;
    const int last = sow(h, cut, drops);
    const bool emptyAfterSowing[2] = {rowSum(0) == 0, rowSum(1) == 0};
    bool extra = false;
    if (isStore(last)) {
      extra = r.extraTurn && last == store(mover) && !cut;
    } else if (!cut && castleOwner(last) < 0) {
      const int count = at(last);
      const int opp = 2 * n - last;
      if (owner(last) == mover) {
        if (r.capture != Capture::None && count == 1 && (at(opp) > 0 || r.capture == Capture::Empty)) {
          take(opp, mover);
          take(last, mover);
        }
      } else if (r.evenCapture && count % 2 == 0) {
        take(last, mover);
      } else if (r.castle && count == 3 && castle[mover] < 0 && last != house(1 - mover, n)) {
        castle[mover] = last;
        if (r.castleCapture) take(last, mover);
      }
      if (r.chainCapture && (at(last) == 2 || at(last) == 4)) {
        std::vector<int> chain;
        int p = last;
        do {
          if (at(p) != 2 && at(p) != 4) break;
          chain.push_back(p);
          do {
            p = (p + ring() - 1) % ring();
          } while (isStore(p));
        } while (p != last);
        int taken[2] = {0, 0};
        for (int c : chain) taken[owner(c)] += at(c);
        bool slam = false;
        for (int s = 0; s < 2; ++s) slam = slam || (rowBefore[s] > 0 && taken[s] > 0 && taken[s] == rowSum(s));
        if (r.grandSlam == GrandSlam::All || !slam) {
          for (int c : chain) take(c, mover);
        }
      }
    }
    int next = extra ? mover : 1 - mover;
    toMove = next;
    auto sweepRow = [&](int row, int to) {
      for (int hh = 1; hh <= n; ++hh) {
        const int p = house(row, hh);
        take(p, castleOwner(p) >= 0 ? castleOwner(p) : to);
      }
    };
    auto finish = [&] {
      over = true;
      toMove = 0;
    };
    if (r.winAt > 0 && (at(store(0)) >= r.winAt || at(store(1)) >= r.winAt)) return finish();
    if (r.feeding) {
      if (rowSum(next) == 0) {
        next = 1 - next;
        toMove = next;
        if (rowSum(next) == 0) return finish();
      }
      if (rowSum(1 - next) == 0) {
        bool can = false;
        for (int hh = 1; hh <= n; ++hh) {
          if (at(house(next, hh)) > 0 && castleOwner(house(next, hh)) < 0 && feeds(hh)) can = true;
        }
        if (!can) {
          sweepRow(next, 1 - next);
          finish();
        }
      }
      return;
    }
    int emptied = -1;
    if (r.end == EndRule::Immediate) {
      if (rowSum(0) == 0)
        emptied = 0;
      else if (rowSum(1) == 0)
        emptied = 1;
    } else if (rowSum(next) == 0) {
      emptied = next;
    }
    if (emptied < 0) return;
    const bool toEmptier = r.leftovers == Leftovers::Emptier && (r.emptierByCapture || emptyAfterSowing[emptied]);
    for (int row = 0; row < 2; ++row) sweepRow(row, toEmptier ? emptied : row);
    finish();
  }

  Position position() const {
    Position p;
    for (int i = 0; i < ring(); ++i)
      p.pits[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(pit[static_cast<std::size_t>(i)]);
    p.toMove = toMove == 0 ? Side::South : Side::North;
    p.over = over;
    p.castle = {static_cast<std::int8_t>(castle[0]), static_cast<std::int8_t>(castle[1])};
    return p;
  }
};

Naive naiveStart(const Rules& r) {
  Naive s{r, r.houses, std::vector<int>(static_cast<std::size_t>(2 * r.houses + 2), r.seeds)};
  s.at(s.store(0)) = 0;
  s.at(s.store(1)) = 0;
  return s;
}

// Perft of the naive generator, checking the engine's position and legal moves at every node.
std::uint64_t crossPerft(const Board& board, const Naive& naive, const Position& pos, int depth) {
  EXPECT_EQ(naive.position(), pos) << board.toString(pos);
  std::uint32_t naiveMask = 0;
  for (int h : naive.moves()) naiveMask |= 1U << (h - 1);
  EXPECT_EQ(naiveMask, board.legalMask(pos)) << board.toString(pos);
  if (depth == 0) return 1;
  std::uint64_t leaves = 0;
  for (int h : naive.moves()) {
    Naive child = naive;
    child.play(h);
    Position engine = pos;
    board.apply(engine, h);
    leaves += crossPerft(board, child, engine, depth - 1);
  }
  return leaves;
}

void crossCheck(const char* rulesText, int depth) {
  auto rules = parseRules(rulesText);
  ASSERT_TRUE(rules) << rulesText;
  const Board board(*rules);
  EXPECT_EQ(crossPerft(board, naiveStart(*rules), board.start(), depth), perft(board, board.start(), depth))
      << rulesText;
}

TEST(Perft, NaiveGeneratorAgreesOnEveryPreset) {
  crossCheck("kalah", 5);
  crossCheck("kalah-club", 5);
  crossCheck("mangala", 5);
  crossCheck("mangala-castle", 5);
  crossCheck("al-manqala", 4);
  crossCheck("congkak", 4);
}

TEST(Perft, NaiveGeneratorAgreesOnOptionCombinations) {
  // Small boards reach the end of the game within a few plies, so the end rules are exercised too.
  crossCheck("kalah,houses=3,seeds=2", 9);
  crossCheck("kalah,houses=3,seeds=2,capture=empty,leftovers=emptier", 9);
  crossCheck("kalah,houses=3,seeds=2,leftovers=emptier,emptier_by_capture=false", 9);
  crossCheck("kalah-club,houses=3,seeds=2", 9);
  crossCheck("kalah,houses=2,seeds=7,skip_origin=true", 8);
  crossCheck("mangala,houses=3,seeds=2", 9);
  crossCheck("mangala-castle,houses=4,seeds=2", 8);
  crossCheck("mangala-castle,houses=4,seeds=2,castle_sow_treasures=true,castle_capture=false", 8);
  crossCheck("al-manqala,houses=3,seeds=2", 9);
  crossCheck("al-manqala,houses=3,seeds=2,grand_slam=false,win_at=6", 9);
  crossCheck("congkak,houses=3,seeds=2", 8);
  crossCheck("congkak,houses=3,seeds=3,relay_limit=1,capture=standard", 8);
}

}  // namespace
}  // namespace semis
