#pragma once
// Bots' matches and round-robin tournaments (docs/bots.md, "Matches and tournaments"). An owner
// starts one; the server's tick drives it: a round's games are created (paired through the hub, as
// the pool's are, rated in the bots' pool of the board), their ends read back from the store, the
// next round started once the last one is over. A bot not connected when its game should start
// loses it by forfeit (reason `absent`, no game made); a bot that has not moved for `stallFactor`
// times its move time forfeits the game (Hub::forfeit, reason `forfeit`). Each step is stored
// (store/ContestStore.hpp), so a contest survives a restart and goes on.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bots/BotService.hpp"
#include "contests/Contest.hpp"
#include "gateway/Gateway.hpp"
#include "hub/Hub.hpp"
#include "limits/Buckets.hpp"

namespace semis::server {

struct ContestOptions {
  int moveMs = 5000;          // a bot's time for a move when the starter gives none (the gateway's)
  int stallFactor = 10;       // a game's bot silent this many move times forfeits it
  int maxRunning = 50;        // contests running on the site
  int maxRunningPerOwner = 3;  // ... started by one member
  int maxMatchGames = 20;
  int maxEntrants = 16;
  int maxCycles = 4;  // a tournament's `rounds`: how many times every pair plays both sides
};

struct MatchRequest {
  std::string a, b;  // the bots' names
  std::string rules;
  int games = 0;
  std::optional<int> seconds;  // a move's time
};

struct TournamentRequest {
  std::string name;
  std::string rules;
  std::vector<std::string> bots;  // names
  int rounds = 1;
  std::optional<int> seconds;
};

class ContestService {
 public:
  ContestService(Hub& hub, store::Store& store, BotService& bots, KgpGateway& gateway, ContestOptions options);

  // The owner's calls: the contest just stored, as GET answers it. Refused, nothing stored: an
  // unknown or revoked bot or a person's name (NotFound), no bot of `me` among them (NotYourBot),
  // rules that are not a Kalah board of 4..12 houses and 3..12 seeds (BadMessage), games or
  // entrants out of bounds (BadMessage), a match's bot not connected (BotOffline), too many running
  // (TooManyGames).
  Outcome<Contest> startMatch(const Identity& me, const MatchRequest& request);
  Outcome<Contest> startTournament(const Identity& me, const TournamentRequest& request);
  // As stored, or as driven here when that is not behind the store (another instance may have driven
  // it on since); NotFound for another kind's id.
  Outcome<Contest> get(ContestKind kind, const std::string& id);
  Outcome<std::vector<Contest>> recent(ContestKind kind, std::size_t limit);

  // The move time of a contest's game (the gateway offers the bot that much), if it is one.
  [[nodiscard]] std::optional<int> moveMsOf(const std::string& gameId);
  // The server's tick (every 100 ms): running contests driven a step, five times a second.
  void tick();

  // Starts asked per address (each reads the bots, then writes): 30, then 10 a minute.
  bool allowStart(const std::string& address);

  [[nodiscard]] BotService& bots() { return bots_; }
  [[nodiscard]] store::Store& store() { return store_; }

 private:
  // The contest held here (running_, mu_ held) if it is not behind the stored version, or any held
  // copy when the store could not give one (nullopt); else null.
  const Contest* held(const std::string& id, std::optional<long long> storedVersion) const;
  Outcome<std::vector<Entrant>> entrants(const Identity& me, const std::vector<std::string>& names);
  Outcome<Rules> rulesOf(const std::string& text);
  Outcome<int> moveMsOf(const std::optional<int>& seconds);
  Outcome<void> room(const std::string& owner);  // a place for one more of his running
  Outcome<Contest> start(Contest contest);
  // One step of a running contest; true when it changed (to be stored). The games to start now
  // are marked (`claimed`: playing, no game yet): begin() makes them once that step is stored.
  bool drive(Contest& contest, long long now, std::vector<std::size_t>& claimed);
  void readEnd(ContestGame& game);  // a game over in the store: its result into `game`
  void begin(Contest& contest, ContestGame& game, long long now);
  // Writes the step (the version read + 1); false when the store failed (kept, written later) or
  // another instance wrote first (dropped here, read again).
  bool save(Contest& contest, long long now);
  void load();  // the running contests of the store not held here, every few seconds
  bool present(const std::string& botId);  // connected here or on another instance

  Hub& hub_;
  store::Store& store_;
  BotService& bots_;
  KgpGateway& gateway_;
  ContestOptions options_;
  std::mutex mu_;  // running_ and moveMs_; never held across a call out
  std::map<std::string, Contest> running_;
  std::unordered_map<std::string, int> moveMs_;  // game id -> its move time
  std::mutex driveMu_;  // one tick's drive at a time
  bool loaded_ = false;
  long long loadedAt_ = 0;
  Buckets starts_;  // under mu_
  long long lastDrive_ = 0;
};

class Router;
// POST /api/bots/match, GET /api/bots/matches[/{id}], POST/GET /api/bots/tournaments,
// GET /api/bots/tournaments/{id}, GET /api/bots/leaderboard/{key} (before addBotRoutes).
void addContestRoutes(Router& routes, ContestService& contests);

}  // namespace semis::server
