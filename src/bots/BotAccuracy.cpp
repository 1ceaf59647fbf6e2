#include "bots/BotAccuracy.hpp"

#include <array>

#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "store/AccuracyStore.hpp"
#include "store/BotStore.hpp"
#include "study/Accuracy.hpp"

namespace semis::server {

namespace {

constexpr long long kStartWindowMs = 30LL * 86'400'000;  // the first sweep: the ends of 30 days
constexpr long long kDayWindowMs = 86'400'000;           // then the last day's, every minute
constexpr auto kDaySweepEvery = std::chrono::minutes(1);

}  // namespace

BotAccuracy::BotAccuracy(store::Store& store, Study& study, AccuracyOptions options)
    : store_(store), study_(study), options_(options) {}

BotAccuracy::~BotAccuracy() {
  stop_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BotAccuracy::start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

std::optional<std::size_t> BotAccuracy::sweep(long long sinceMs) {
  std::size_t room = 0;
  {
    std::lock_guard lock(mu_);
    room = options_.queueLimit - std::min(options_.queueLimit, queued_.size());
  }
  if (room == 0) return std::size_t{0};
  auto ids = store_.accuracy().unreviewedBotGames(sinceMs, room);
  if (!ids) {
    logWarn("accuracy_sweep_failed", {{"what", ids.error().message}});
    return std::nullopt;
  }
  std::size_t found = 0;
  std::lock_guard lock(mu_);
  for (const std::string& id : *ids) {
    if (!pending_.insert(id).second) continue;
    queued_.push_back(id);
    ++found;
  }
  return found;
}

AccuracyDone BotAccuracy::reviewGame(const std::string& gameId) {
  auto row = store_.game(gameId);
  if (!row) return AccuracyDone::Later;
  if (!*row || (*row)->status != "over") return AccuracyDone::Nothing;
  const std::array<std::string, 2> seats{(*row)->seatS, (*row)->seatN};
  std::array<bool, 2> bot{false, false};
  for (std::size_t s = 0; s < 2; ++s) {
    if (seats[s].empty() || seats[s] == "ai") continue;
    auto b = store_.bots().bot(seats[s]);
    if (!b) return AccuracyDone::Later;
    bot[s] = b->has_value();
  }
  if (!bot[0] && !bot[1]) return AccuracyDone::Nothing;
  std::array<study::Accuracy, 2> tally{};
  auto reviewed = study_.reviewed(gameId, &stop_);
  if (reviewed) {
    tally = study::tally((*reviewed)->review);
  } else if (stop_ || reviewed.error().status != 500) {
    return AccuracyDone::Later;  // cancelled, not found in the store now, not over there yet
  } else {
    // A record that does not replay never will: kept with nothing proven, so it is not tried again.
    logWarn("accuracy_review_failed", {{"game", gameId}, {"what", reviewed.error().body.dump()}});
  }
  const long long at = nowMs();
  std::vector<store::BotAccuracyRow> rows;
  for (std::size_t s = 0; s < 2; ++s) {
    // One bot in both seats (its owner's test, say) is one row of both sides' moves.
    if (!bot[s] || (s == 1 && bot[0] && seats[1] == seats[0])) continue;
    const bool both = s == 0 && bot[1] && seats[1] == seats[0];
    rows.push_back(store::BotAccuracyRow{gameId, seats[s], tally[s].perfect + (both ? tally[1].perfect : 0),
                                         tally[s].proven + (both ? tally[1].proven : 0), at});
  }
  auto kept = store_.accuracy().keepAccuracy(rows);
  if (!kept && kept.error().fault != store::Fault::Conflict) {
    logWarn("accuracy_keep_failed", {{"game", gameId}, {"what", kept.error().message}});
    return AccuracyDone::Later;
  }
  if (kept && *kept) {
    logInfo("bot_game_reviewed", {{"game", gameId},
                                  {"perfect_s", tally[0].perfect},
                                  {"proven_s", tally[0].proven},
                                  {"perfect_n", tally[1].perfect},
                                  {"proven_n", tally[1].proven}});
  }
  return AccuracyDone::Kept;
}

void BotAccuracy::run() {
  auto nextRecent = std::chrono::steady_clock::now();
  auto nextDay = nextRecent + kDaySweepEvery;
  bool first = true;
  while (!stop_) {
    const auto now = std::chrono::steady_clock::now();
    if (first) {
      (void)sweep(nowMs() - kStartWindowMs);
      first = false;
    } else if (now >= nextDay) {
      (void)sweep(nowMs() - kDayWindowMs);
      nextDay = now + kDaySweepEvery;
    } else if (now >= nextRecent) {
      (void)sweep(nowMs() - options_.recentMs);
      nextRecent = now + std::chrono::milliseconds(options_.sweepEveryMs);
    }
    std::string id;
    {
      std::unique_lock lock(mu_);
      if (queued_.empty()) {
        wake_.wait_until(lock, nextRecent, [&] { return stop_.load(); });
        continue;
      }
      id = std::move(queued_.front());
      queued_.pop_front();
    }
    const AccuracyDone done = reviewGame(id);
    std::unique_lock lock(mu_);
    // A game to try later leaves the queue all the same: the sweeps find it again while it is
    // unreviewed, and a store that does not answer is not asked again at once.
    pending_.erase(id);
    if (done == AccuracyDone::Later) wake_.wait_for(lock, std::chrono::seconds(1), [&] { return stop_.load(); });
  }
}

}  // namespace semis::server
