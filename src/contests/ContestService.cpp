// Bots' matches and tournaments: starting them (checked, stored) and driving them (the tick).

#include "contests/ContestService.hpp"

#include <algorithm>
#include <set>

#include "accounts/Tokens.hpp"
#include "contests/ContestJson.hpp"
#include "hub/RoomRows.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "rules/Board.hpp"
#include "store/ContestStore.hpp"

namespace semis::server {

namespace {

constexpr long long kDriveEveryMs = 200;
constexpr long long kReloadEveryMs = 5000;  // the running contests read again (those another instance began)
constexpr long long kClaimLapseMs = 30000;  // a game claimed but never made is claimed again after this
constexpr std::size_t kNameMax = 60;

tl::unexpected<Refusal> refuse(ErrorCode code, std::string message) {
  return tl::unexpected(Refusal{code, std::move(message), std::nullopt});
}

}  // namespace

ContestService::ContestService(Hub& hub, store::Store& store, BotService& bots, KgpGateway& gateway, ContestOptions options)
    : hub_(hub), store_(store), bots_(bots), gateway_(gateway), options_(options) {}

Outcome<Rules> ContestService::rulesOf(const std::string& text) {
  auto rules = parseRules(text);
  if (!rules || !contestRules(*rules)) {
    return refuse(ErrorCode::BadMessage,
                  "bots' contests play Kalah at its standard options: kalah,houses=H,seeds=S with 4<=H<=12 and 3<=S<=12");
  }
  return *rules;
}

Outcome<int> ContestService::moveMsOf(const std::optional<int>& seconds) {
  if (!seconds) return options_.moveMs;
  if (*seconds < 1 || *seconds > 60) return refuse(ErrorCode::BadMessage, "'seconds' (a move's time) is 1 to 60");
  return *seconds * 1000;
}

Outcome<std::vector<Entrant>> ContestService::entrants(const Identity& me, const std::vector<std::string>& names) {
  std::vector<Entrant> out;
  std::set<std::string> seen;
  bool mine = false;
  for (const std::string& name : names) {
    auto bot = bots_.byName(name);
    if (!bot) return refuse(ErrorCode::NotFound, "no bot called " + name.substr(0, 64));
    if (bot->revoked) return refuse(ErrorCode::NotFound, "the bot " + bot->name + " was revoked");
    if (!seen.insert(bot->id).second) return refuse(ErrorCode::BadMessage, "the bot " + bot->name + " is named twice");
    mine = mine || (!me.id.empty() && bot->ownerId == me.id);
    out.push_back(Entrant{bot->id, bot->name});
  }
  // Owners only: the site has no administrators (docs/bots.md).
  if (!mine) return refuse(ErrorCode::NotYourBot, "only the owner of one of these bots may start this");
  return out;
}

Outcome<void> ContestService::room(const std::string& owner) {
  std::lock_guard lock(mu_);
  int mine = 0;
  for (const auto& [id, c] : running_) mine += c.owner == owner ? 1 : 0;
  if (static_cast<int>(running_.size()) >= options_.maxRunning) {
    return refuse(ErrorCode::TooManyGames, "too many contests running on this site: wait for one to end");
  }
  if (mine >= options_.maxRunningPerOwner) {
    return refuse(ErrorCode::TooManyGames,
                  "you have " + std::to_string(mine) + " contests running: wait for one to end");
  }
  return {};
}

Outcome<Contest> ContestService::startMatch(const Identity& me, const MatchRequest& request) {
  if (request.games < 1 || request.games > options_.maxMatchGames) {
    return refuse(ErrorCode::BadMessage, "'games' is 1 to " + std::to_string(options_.maxMatchGames));
  }
  auto rules = rulesOf(request.rules);
  if (!rules) return tl::unexpected(rules.error());
  auto moveMs = moveMsOf(request.seconds);
  if (!moveMs) return tl::unexpected(moveMs.error());
  auto bots = entrants(me, {request.a, request.b});
  if (!bots) return tl::unexpected(bots.error());
  for (const Entrant& e : *bots) {
    if (!present(e.id)) return refuse(ErrorCode::BotOffline, "the bot " + e.name + " is not connected");
  }
  Contest c;
  c.kind = ContestKind::Match;
  c.rules = *rules;
  c.moveMs = *moveMs;
  c.owner = me.id;
  c.bots = std::move(*bots);
  c.games = matchSchedule(request.games);
  return start(std::move(c));
}

Outcome<Contest> ContestService::startTournament(const Identity& me, const TournamentRequest& request) {
  const bool control = std::any_of(request.name.begin(), request.name.end(),
                                   [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; });
  if (request.name.empty() || request.name.size() > kNameMax || control) {
    return refuse(ErrorCode::BadMessage, "'name' is 1 to " + std::to_string(kNameMax) + " printable characters");
  }
  if (request.bots.size() < 2 || static_cast<int>(request.bots.size()) > options_.maxEntrants) {
    return refuse(ErrorCode::BadMessage, "'bots' names 2 to " + std::to_string(options_.maxEntrants) + " bots");
  }
  if (request.rounds < 1 || request.rounds > options_.maxCycles) {
    return refuse(ErrorCode::BadMessage, "'rounds' is 1 to " + std::to_string(options_.maxCycles));
  }
  auto rules = rulesOf(request.rules);
  if (!rules) return tl::unexpected(rules.error());
  auto moveMs = moveMsOf(request.seconds);
  if (!moveMs) return tl::unexpected(moveMs.error());
  auto bots = entrants(me, request.bots);
  if (!bots) return tl::unexpected(bots.error());
  Contest c;
  c.kind = ContestKind::Tournament;
  c.name = request.name;
  c.rules = *rules;
  c.moveMs = *moveMs;
  c.owner = me.id;
  c.games = roundRobin(static_cast<int>(bots->size()), request.rounds);
  c.bots = std::move(*bots);
  return start(std::move(c));
}

Outcome<Contest> ContestService::start(Contest c) {
  load();
  if (auto r = room(c.owner); !r) return tl::unexpected(r.error());
  c.id = accounts::randomId(10);
  c.created = nowMs();
  c.version = 1;
  if (auto r = store_.contests().createContest(contestRow(c, c.created)); !r) return tl::unexpected(storeRefusal(r.error()));
  logInfo("contest_started", {{"contest", c.id}, {"kind", contestKindName(c.kind)}, {"rules", toString(c.rules)},
                              {"bots", c.bots.size()}, {"games", c.games.size()}});
  std::lock_guard lock(mu_);
  running_[c.id] = c;
  return c;
}

// A contest held here is what readers see only while it is not behind the stored one: another
// instance may have driven it on (to its end) since this one last read it, and until this one's next
// step finds that out its copy is stale. Held at the stored version, it is this instance's own last
// step, written or still to be written (the store failed): newer than the row, or the same. With no
// stored version (the store could not be read) the copy held is the best there is.
const Contest* ContestService::held(const std::string& id, std::optional<long long> storedVersion) const {
  auto it = running_.find(id);
  if (it == running_.end()) return nullptr;
  return !storedVersion || it->second.version >= *storedVersion ? &it->second : nullptr;
}

Outcome<Contest> ContestService::get(ContestKind kind, const std::string& id) {
  if (id.empty() || id.size() > 32) return refuse(ErrorCode::NotFound, "no such contest");
  auto row = store_.contests().contest(id);
  if (row && !*row) return refuse(ErrorCode::NotFound, "no such contest");
  {
    std::lock_guard lock(mu_);
    const Contest* mine = held(id, row ? std::optional<long long>((*row)->version) : std::nullopt);
    if (mine != nullptr && mine->kind == kind) return *mine;
  }
  if (!row) return tl::unexpected(storeRefusal(row.error()));
  auto c = contestOf(**row);
  if (!c || c->kind != kind) return refuse(ErrorCode::NotFound, "no such contest");
  return *c;
}

Outcome<std::vector<Contest>> ContestService::recent(ContestKind kind, std::size_t limit) {
  auto rows = store_.contests().recentContests(contestKindName(kind), limit);
  if (!rows) return tl::unexpected(storeRefusal(rows.error()));
  std::vector<Contest> out;
  std::lock_guard lock(mu_);
  for (const auto& row : *rows) {
    if (const Contest* mine = held(row.id, row.version)) {
      out.push_back(*mine);
    } else if (auto c = contestOf(row)) {
      out.push_back(std::move(*c));
    }
  }
  return out;
}

bool ContestService::allowStart(const std::string& address) {
  std::lock_guard lock(mu_);
  return takeToken(starts_, address, 30, 10.0 / 60);
}

std::optional<int> ContestService::moveMsOf(const std::string& gameId) {
  std::lock_guard lock(mu_);
  if (auto it = moveMs_.find(gameId); it != moveMs_.end()) return it->second;
  return std::nullopt;
}

void ContestService::load() {
  const long long now = nowMs();
  {
    std::lock_guard lock(mu_);
    if (loaded_ && now - loadedAt_ < kReloadEveryMs) return;
  }
  auto rows = store_.contests().runningContests(static_cast<std::size_t>(options_.maxRunning) * 2);
  if (!rows) {
    logWarn("contests_load_failed", {{"what", rows.error().message}});
    return;  // the next tick tries again
  }
  // Those not held here: started on another instance (which may have stopped), or before a restart.
  std::lock_guard lock(mu_);
  loaded_ = true;
  loadedAt_ = now;
  for (const auto& row : *rows) {
    if (running_.count(row.id) != 0) continue;
    auto c = contestOf(row);
    if (!c) {
      logWarn("contest_unreadable", {{"contest", row.id}});
      continue;
    }
    for (const ContestGame& g : c->games) {
      if (g.state == ContestGame::State::Playing && !g.game.empty()) moveMs_[g.game] = c->moveMs;
    }
    running_.emplace(c->id, std::move(*c));
  }
}

bool ContestService::present(const std::string& botId) {
  return gateway_.connected(botId) || hub_.presentElsewhere(botId);
}

bool ContestService::save(Contest& c, long long now) {
  ++c.version;
  auto stored = store_.contests().updateContest(contestRow(c, now));
  std::lock_guard lock(mu_);
  if (!stored) {
    // Kept here as driven: the next tick writes it (its games are not made twice).
    logWarn("contest_store_failed", {{"contest", c.id}, {"what", stored.error().message}});
    --c.version;
    running_[c.id] = c;
    return false;
  }
  if (!*stored) {
    // Another instance drove it first: its record wins, read again on the next load.
    logInfo("contest_conflict", {{"contest", c.id}});
    running_.erase(c.id);
    loaded_ = false;
    return false;
  }
  if (c.over) {
    for (const ContestGame& g : c.games) moveMs_.erase(g.game);
    running_.erase(c.id);
    logInfo("contest_over", {{"contest", c.id}});
  } else {
    running_[c.id] = c;
  }
  return true;
}

void ContestService::tick() {
  std::unique_lock driving(driveMu_, std::try_to_lock);
  if (!driving.owns_lock()) return;
  const long long now = nowMs();
  if (now - lastDrive_ < kDriveEveryMs) return;
  lastDrive_ = now;
  load();
  std::vector<Contest> work;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, c] : running_) work.push_back(c);
  }
  for (Contest& c : work) {
    std::vector<std::size_t> claimed;
    if (!drive(c, now, claimed) || !save(c, now) || claimed.empty()) continue;
    // The games to start were claimed in the store first: of two instances driving this contest,
    // only the one whose write came first makes them.
    for (std::size_t i : claimed) begin(c, c.games[i], now);
    save(c, now);
  }
}

bool ContestService::drive(Contest& c, long long now, std::vector<std::size_t>& claimed) {
  bool changed = false;
  auto round = currentRound(c.games);
  for (ContestGame& g : c.games) {
    if (!round || g.round != *round || g.state != ContestGame::State::Playing) continue;
    if (g.game.empty()) {
      // Claimed by a step that never made its game (an instance stopped between): once more.
      if (now - g.started > kClaimLapseMs) {
        g.state = ContestGame::State::Pending;
        changed = true;
      }
      continue;
    }
    auto row = store_.game(g.game);
    if (!row) continue;  // the store failed: later
    if (!*row) {
      // Its game is gone (should not be): counted as a draw rather than held for ever.
      g.state = ContestGame::State::Over;
      g.reason = "lost";
      changed = true;
      continue;
    }
    const store::GameRow& game = **row;
    if (game.status == "over" || game.status == "abandoned") {
      readEnd(g);
      changed = true;
      continue;
    }
    // A bot silent far past its move time: it forfeits (the result is read on a later tick).
    const long long last = std::max(game.updated, g.started);
    if (now - last > static_cast<long long>(options_.stallFactor) * c.moveMs) {
      auto turn = hub_.turnOf(g.game);
      if (!turn || turn->over) continue;
      if (auto f = hub_.forfeit(g.game, turn->position.toMove, "stalled"); !f) {
        logWarn("contest_forfeit_failed", {{"contest", c.id}, {"game", g.game}, {"what", f.error().message}});
      }
    }
  }
  round = currentRound(c.games);
  for (std::size_t i = 0; round && i < c.games.size(); ++i) {
    ContestGame& g = c.games[i];
    if (g.round != *round || g.state != ContestGame::State::Pending) continue;
    changed = true;
    g.started = now;
    const std::array<bool, 2> here{present(c.bots[static_cast<std::size_t>(g.seats[0])].id),
                                   present(c.bots[static_cast<std::size_t>(g.seats[1])].id)};
    if (!here[0] || !here[1]) {
      // Not connected when its game should start: it loses by forfeit (both away: counted a
      // draw). No game is made.
      g.state = ContestGame::State::Over;
      g.reason = "absent";
      g.winner = here[0] ? ContestGame::Winner::South : here[1] ? ContestGame::Winner::North : ContestGame::Winner::Draw;
      logInfo("contest_absent", {{"contest", c.id}, {"round", g.round}});
      continue;
    }
    g.state = ContestGame::State::Playing;  // claimed, its game made once the claim is stored
    g.game.clear();
    claimed.push_back(i);
  }
  if (!currentRound(c.games)) {
    c.over = true;
    changed = true;
  }
  return changed;
}

void ContestService::begin(Contest& c, ContestGame& g, long long now) {
  protocol::GameSpec spec;
  spec.rules = c.rules;
  spec.mode = protocol::Mode::Friend;
  spec.rated = true;  // two bots: the bots' pool of the board (club/Ratings)
  const std::array<std::string, 2> seats{c.bots[static_cast<std::size_t>(g.seats[0])].id,
                                         c.bots[static_cast<std::size_t>(g.seats[1])].id};
  auto created = hub_.createPaired(spec, seats, [this](const store::GameRow& row) { return store_.createGame(row, {}); });
  if (!created) {
    logWarn("contest_game_failed", {{"contest", c.id}, {"what", created.error().message}});
    g.state = ContestGame::State::Pending;  // the next tick tries again
    return;
  }
  {
    std::lock_guard lock(mu_);
    moveMs_[*created] = c.moveMs;
  }
  g.game = *created;
  g.started = now;
}

void ContestService::readEnd(ContestGame& g) {
  auto row = store_.game(g.game);
  g.state = ContestGame::State::Over;
  {
    std::lock_guard lock(mu_);
    moveMs_.erase(g.game);
  }
  if (!row || !*row) return;
  const store::GameRow& game = **row;
  if (game.status == "abandoned") {
    g.winner = ContestGame::Winner::Draw;
    g.reason = "abandoned";
    return;
  }
  const auto summary = resultSummary(game.result);
  if (!summary) return;
  g.reason = summary->reason;
  using W = room::ResultSummary::Winner;
  g.winner = summary->winner == W::South ? ContestGame::Winner::South
             : summary->winner == W::North ? ContestGame::Winner::North
                                           : ContestGame::Winner::Draw;
  auto turn = hub_.turnOf(g.game);
  if (summary->aborted() && turn) {
    // Aborted as a no-show (its bot never made its first move): a forfeit of the side to move.
    g.winner = turn->position.toMove == Side::South ? ContestGame::Winner::North : ContestGame::Winner::South;
    g.reason = "forfeit";
  }
  // The seeds: the result's score at a normal end, the stores when it was adjudicated.
  const Json j = Json::parse(game.result, nullptr, false);
  if (j.is_object() && j.contains("score") && j["score"].is_array() && j["score"].size() == 2 &&
      j["score"][0].is_number_integer() && j["score"][1].is_number_integer()) {
    g.seeds = {j["score"][0].get<int>(), j["score"][1].get<int>()};
  } else if (turn) {
    const Board board(turn->rules);
    g.seeds = {turn->position.pits[static_cast<std::size_t>(board.storePit(Side::South))],
               turn->position.pits[static_cast<std::size_t>(board.storePit(Side::North))]};
  }
}

}  // namespace semis::server
