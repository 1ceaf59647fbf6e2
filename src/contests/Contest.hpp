#pragma once
// A bots' match or round-robin tournament as data (docs/bots.md, "Matches and tournaments"): its
// entrants, its games round by round and their results, and the table they make. Pure: no store,
// no hub (ContestService drives it; ContestJson writes it).

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "rules/Rules.hpp"

namespace semis::server {

enum class ContestKind { Match, Tournament };
[[nodiscard]] const char* contestKindName(ContestKind kind);  // match | tournament

struct Entrant {
  std::string id;    // the bot's player id
  std::string name;  // its name when the contest began
};

// One game of the schedule. `seats` are entrant indexes (South, North).
struct ContestGame {
  enum class State { Pending, Playing, Over };
  enum class Winner { South, North, Draw };
  int round = 0;  // 1, 2, ...: a round's games start once every earlier game is over
  std::array<int, 2> seats{0, 1};
  State state = State::Pending;
  std::string game;  // the hub's game id once created; "" for one forfeited before it began
  Winner winner = Winner::Draw;
  std::array<int, 2> seeds{0, 0};  // South's and North's seeds (stores) at the end
  std::string reason;  // the result's reason (normal, resign, time, forfeit, ...); `absent`: not connected
  long long started = 0;  // unix ms
};

struct Contest {
  std::string id;
  ContestKind kind = ContestKind::Match;
  std::string name;   // a tournament's name
  std::string owner;  // the member who started it
  Rules rules;
  int moveMs = 5000;  // a bot's time for a move in these games
  std::vector<Entrant> bots;
  std::vector<ContestGame> games;
  bool over = false;
  long long created = 0;
  long long version = 1;  // the stored row's (store/ContestStore.hpp)
};

// A match of `games` games between two entrants (0 and 1), one at a time, sides alternating: the
// first game entrant 0 is South.
[[nodiscard]] std::vector<ContestGame> matchSchedule(int games);
// A round robin of `n` entrants (the circle method; with an odd n one sits out each round): every
// pair meets once per cycle, no entrant twice in a round; the second cycle repeats the first with
// sides swapped, so that every pair plays both sides. `cycles` double cycles in all.
[[nodiscard]] std::vector<ContestGame> roundRobin(int n, int cycles);

// The round whose games may be played now: the first with a game not over; none when all are.
[[nodiscard]] std::optional<int> currentRound(const std::vector<ContestGame>& games);

// One line of the table.
struct Standing {
  int entrant = 0;
  int halfPoints = 0;  // win 2, draw 1 (points: halfPoints / 2)
  int games = 0, wins = 0, draws = 0, losses = 0;
  int seedsFor = 0, seedsAgainst = 0;
};
// The table of the games over: by points, then seed difference, then seeds for, then entrant order.
[[nodiscard]] std::vector<Standing> standings(const Contest& contest);

// The Kalah boards a tournament may use (like the courses' stages): kalah at its standard options,
// 4..12 houses, 3..12 seeds. A match takes the same.
[[nodiscard]] bool contestRules(const Rules& rules);

}  // namespace semis::server
