#include "club/Ratings.hpp"

#include <cmath>

#include "hub/RoomRows.hpp"
#include "store/BotStore.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "rating/Glicko2.hpp"
#include "rating/RatedKey.hpp"

namespace semis::server {

namespace {

constexpr double kMsPerDay = 86'400'000.0;
constexpr std::size_t kQueueLimit = 10000;  // ends waiting to be rated (a store outage's backlog)
constexpr auto kSweepEvery = std::chrono::minutes(1);
constexpr long long kSweepDaysMs = 30LL * 86'400'000;   // the start's sweep: the ends of 30 days
constexpr long long kSweepWindowMs = 24LL * 3'600'000;  // then the last day's, every minute

rating::Glicko glickoOf(const store::RatingRow& r) { return rating::Glicko{r.rating, r.deviation, r.volatility}; }

// The deviation grows back with the days since the last rated game (none for a new player).
rating::Glicko agedAt(const store::RatingRow& r, long long nowMs) {
  if (r.at <= 0) return glickoOf(r);
  return rating::aged(glickoOf(r), std::max(0.0, static_cast<double>(nowMs - r.at) / kMsPerDay));
}

// Whether both seats are bots (store/BotStore.hpp); nothing when the store failed.
std::optional<bool> botsOnly(store::Store& store, const std::array<std::string, 2>& players) {
  for (const std::string& p : players) {
    if (p.empty() || p == room::kAiSeat) return false;
    auto bot = store.bots().bot(p);
    if (!bot) return std::nullopt;
    if (!*bot) return false;
  }
  return true;
}

}  // namespace

std::optional<std::optional<std::string>> Ratings::keyOf(const Rules& rules, const std::array<std::string, 2>& players) {
  // A rated game between two bots goes to the bots' pool of its board (rating::botsKey), never to
  // people's; people's games, to their preset's key.
  const auto bots = botsOnly(store_, players);
  if (!bots) return std::nullopt;
  return *bots ? rating::botsKey(rules) : rating::ratedKey(rules);
}

namespace {

}  // namespace

void Ratings::queue(const std::string& gameId) {
  std::lock_guard lock(mu_);
  if (pending_.count(gameId) != 0) return;
  if (queued_.size() >= kQueueLimit) {
    // Full (a long store outage): the game stays unrated in the store, where the sweep finds it.
    if (metrics_) metrics_->ratingsDeferred++;
    logWarn("rating_deferred", {{"game", gameId}});
    return;
  }
  pending_.insert(gameId);
  queued_.push_back(gameId);
}

std::optional<std::size_t> Ratings::sweep(long long sinceMs) {
  // Room for what the queue holds: the rest waits for the next sweep.
  std::size_t room = 0;
  {
    std::lock_guard lock(mu_);
    room = kQueueLimit - std::min(kQueueLimit, queued_.size());
  }
  if (room == 0) return std::size_t{0};
  auto ids = club_.unratedGames(sinceMs, std::min<std::size_t>(room, 1000));
  if (!ids) {
    logWarn("rating_sweep_failed", {{"what", ids.error().message}});
    return std::nullopt;
  }
  std::size_t found = 0;
  for (const std::string& id : *ids) {
    std::lock_guard lock(mu_);
    if (!pending_.insert(id).second) continue;
    queued_.push_back(id);
    ++found;
  }
  if (metrics_) metrics_->ratingsSwept += static_cast<long long>(found);
  if (found > 0) logInfo("rating_sweep", {{"games", found}});
  return found;
}

void Ratings::drain() {
  if (const auto now = std::chrono::steady_clock::now(); now >= nextSweep_) {
    // At start, every end of the last 30 days; then a minute's worth of ends missed, with margin.
    const bool first = nextSweep_ == std::chrono::steady_clock::time_point{};
    const long long since = nowMs() - (first ? kSweepDaysMs : kSweepWindowMs);
    nextSweep_ = now + kSweepEvery;
    (void)sweep(since);
  }
  for (int i = 0; i < 64; ++i) {  // a bounded share of one tick
    std::string id;
    {
      std::lock_guard lock(mu_);
      if (queued_.empty()) return;
      id = std::move(queued_.front());
      queued_.pop_front();
    }
    const bool done = rate(id);
    std::lock_guard lock(mu_);
    if (done) {
      pending_.erase(id);
    } else {
      queued_.push_back(id);  // the store failed: later
      return;
    }
  }
}

bool Ratings::rate(const std::string& gameId) {
  auto row = store_.game(gameId);
  if (!row) return false;
  if (!*row || !(*row)->rated || (*row)->status != "over") return true;
  const store::GameRow& g = **row;
  const auto result = resultSummary(g.result);
  if (!result || result->aborted()) return true;
  const auto rules = parseRules(g.rules);
  if (!rules) return true;
  const auto keyed = keyOf(*rules, {g.seatS, g.seatN});
  if (!keyed) return false;
  const auto& key = *keyed;
  if (!key) return true;
  if (auto done = club_.ratedResult(gameId); !done) {
    return false;
  } else if (*done) {
    return true;
  }
  using Winner = room::ResultSummary::Winner;
  const double south = result->winner == Winner::South ? 1.0 : result->winner == Winner::North ? 0.0 : 0.5;
  const long long at = g.updated > 0 ? g.updated : nowMs();
  std::array<store::RatingRow, 2> before;
  const std::array<std::string, 2> players{g.seatS, g.seatN};
  for (std::size_t s = 0; s < 2; ++s) {
    auto r = club_.rating(players[s], *key);
    if (!r) return false;
    before[s] = *r ? **r : store::RatingRow{players[s], *key};
  }
  store::RatedResult out;
  out.game = gameId;
  out.key = *key;
  out.southScore = south;
  out.at = at;
  for (std::size_t s = 0; s < 2; ++s) {
    const double score = s == 0 ? south : 1.0 - south;
    const rating::Glicko next = rating::rateGame(agedAt(before[s], at), agedAt(before[1 - s], at), score);
    store::RatingRow after = before[s];
    after.rating = next.rating;
    after.deviation = next.deviation;
    after.volatility = next.volatility;
    after.games++;
    (score == 1.0 ? after.wins : score == 0.0 ? after.losses : after.draws)++;
    after.at = at;
    out.after[s] = after;
    out.change[s] = after.rating - before[s].rating;
  }
  auto applied = club_.applyRated(out);
  if (!applied && applied.error().fault != store::Fault::Conflict) {
    logWarn("rating_failed", {{"game", gameId}, {"what", applied.error().message}});
    return false;
  }
  if (applied) {
    logInfo("game_rated", {{"game", gameId}, {"key", *key}, {"change_s", out.change[0]}, {"change_n", out.change[1]}});
    // Both players hear it at once, wherever they are connected (the page needs no polling).
    if (told_) {
      const Json message{{"type", "ratings"}, {"game", gameId}, {"key", *key}, {"ratings", resultJson(out)}};
      for (const std::string& player : players) told_(player, message);
    }
  }
  return true;  // (a Conflict: another instance rated it first)
}

store::RatingRow Ratings::current(const std::string& player, const std::string& key) {
  store::RatingRow row{player, key};
  if (auto r = club_.rating(player, key); r && *r) row = **r;
  const rating::Glicko now = agedAt(row, nowMs());
  row.deviation = now.deviation;
  return row;
}

Json Ratings::ratingJson(const store::RatingRow& row) {
  return Json{{"key", row.key},
              {"rating", std::round(row.rating)},
              {"deviation", std::round(row.deviation)},
              {"provisional", rating::provisional(glickoOf(row))},
              {"games", row.games}};
}

ClubView Ratings::view(const ClubGame& game) {
  ClubView v;
  v.key = rating::ratedKey(game.rules);
  if (!game.rated) return v;
  if (auto keyed = keyOf(game.rules, game.humans); keyed) v.key = *keyed;  // a bots' game: their pool
  if (!v.key) return v;
  for (std::size_t s = 0; s < 2; ++s) {
    if (game.humans[s].empty()) continue;
    const store::RatingRow r = current(game.humans[s], *v.key);
    v.seats[s] = ClubView::SeatRating{r.rating, rating::provisional(glickoOf(r))};
  }
  if (!game.over) return v;
  auto done = club_.ratedResult(game.id);
  if (done && *done) v.ratings = changes(**done);
  return v;
}

std::array<ClubView::Change, 2> Ratings::changes(const store::RatedResult& rr) {
  std::array<ClubView::Change, 2> out;
  for (std::size_t s = 0; s < 2; ++s)
    out[s] = ClubView::Change{rr.after[s].rating - rr.change[s], rr.after[s].rating, rr.change[s]};
  return out;
}

Json Ratings::resultJson(const store::RatedResult& rr) { return ratingChangesJson(changes(rr)); }

std::optional<Json> Ratings::leaderboard(const std::string& key) {
  auto rows = club_.leaderboard(key, 110, 100);
  if (!rows) return std::nullopt;
  Json players = Json::array();
  for (const auto& [r, card] : *rows) {
    players.push_back(Json{{"rank", players.size() + 1},
                           {"id", card.player.id},
                           {"name", card.player.name},
                           {"username", card.username},
                           {"rating", std::round(r.rating)},
                           {"deviation", std::round(r.deviation)},
                           {"games", r.games}});
  }
  Json first = nullptr;
  if (auto fp = club_.firstPlayerScore(key); fp) first = Json{{"games", fp->first}, {"score", fp->second}};
  return Json{{"key", key}, {"players", players}, {"first_player", first}};
}

}  // namespace semis::server
