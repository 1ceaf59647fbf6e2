#include "contests/Contest.hpp"

#include <algorithm>

#include "rating/RatedKey.hpp"

namespace semis::server {

const char* contestKindName(ContestKind kind) { return kind == ContestKind::Match ? "match" : "tournament"; }

std::vector<ContestGame> matchSchedule(int games) {
  std::vector<ContestGame> out;
  for (int g = 0; g < games; ++g) {
    ContestGame cg;
    cg.round = g + 1;
    cg.seats = g % 2 == 0 ? std::array<int, 2>{0, 1} : std::array<int, 2>{1, 0};
    out.push_back(cg);
  }
  return out;
}

std::vector<ContestGame> roundRobin(int n, int cycles) {
  std::vector<ContestGame> out;
  if (n < 2 || cycles < 1) return out;
  // The circle method: entrant `fixed` stays, the others turn one place a round. An odd count
  // gets a phantom entrant (index n): whoever meets it sits the round out.
  const int m = n % 2 == 0 ? n : n + 1;
  std::vector<int> ring(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) ring[static_cast<std::size_t>(i)] = i;
  std::vector<std::vector<std::array<int, 2>>> cycle;  // one cycle's rounds
  for (int r = 0; r < m - 1; ++r) {
    std::vector<std::array<int, 2>> round;
    for (int i = 0; i < m / 2; ++i) {
      int a = ring[static_cast<std::size_t>(i)];
      int b = ring[static_cast<std::size_t>(m - 1 - i)];
      if (a >= n || b >= n) continue;
      // Sides alternate with the round (and the fixed entrant's with it), so nobody opens every game.
      if ((r + i) % 2 == 1) std::swap(a, b);
      round.push_back({a, b});
    }
    cycle.push_back(std::move(round));
    std::rotate(ring.begin() + 1, ring.end() - 1, ring.end());
  }
  int round = 0;
  for (int c = 0; c < 2 * cycles; ++c) {
    const bool swapped = c % 2 == 1;
    for (const auto& pairs : cycle) {
      ++round;
      for (const auto& p : pairs) {
        ContestGame g;
        g.round = round;
        g.seats = swapped ? std::array<int, 2>{p[1], p[0]} : p;
        out.push_back(g);
      }
    }
  }
  return out;
}

std::optional<int> currentRound(const std::vector<ContestGame>& games) {
  std::optional<int> first;
  for (const ContestGame& g : games) {
    if (g.state != ContestGame::State::Over && (!first || g.round < *first)) first = g.round;
  }
  return first;
}

std::vector<Standing> standings(const Contest& contest) {
  std::vector<Standing> table(contest.bots.size());
  for (std::size_t i = 0; i < table.size(); ++i) table[i].entrant = static_cast<int>(i);
  for (const ContestGame& g : contest.games) {
    if (g.state != ContestGame::State::Over) continue;
    for (std::size_t s = 0; s < 2; ++s) {
      const auto e = static_cast<std::size_t>(g.seats[s]);
      if (e >= table.size()) continue;
      Standing& line = table[e];
      line.games++;
      line.seedsFor += g.seeds[s];
      line.seedsAgainst += g.seeds[1 - s];
      const bool won = (g.winner == ContestGame::Winner::South && s == 0) || (g.winner == ContestGame::Winner::North && s == 1);
      if (g.winner == ContestGame::Winner::Draw) {
        line.draws++;
        line.halfPoints += 1;
      } else if (won) {
        line.wins++;
        line.halfPoints += 2;
      } else {
        line.losses++;
      }
    }
  }
  std::stable_sort(table.begin(), table.end(), [](const Standing& a, const Standing& b) {
    if (a.halfPoints != b.halfPoints) return a.halfPoints > b.halfPoints;
    const int da = a.seedsFor - a.seedsAgainst;
    const int db = b.seedsFor - b.seedsAgainst;
    if (da != db) return da > db;
    if (a.seedsFor != b.seedsFor) return a.seedsFor > b.seedsFor;
    return a.entrant < b.entrant;
  });
  return table;
}

bool contestRules(const Rules& rules) { return rating::botsKey(rules).has_value(); }

}  // namespace semis::server
