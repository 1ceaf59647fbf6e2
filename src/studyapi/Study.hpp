#pragma once
// The study features' server side (docs/study.md): the daily challenge (each day's puzzle generated
// once, kept in the store so every instance gives the same; attempts checked against the exact
// values; streaks of signed-in players) and game reviews (cached). The solver's work runs on its
// own small pool, bounded, so it never delays a network thread, a sign-in or an AI seat's queue.

#include <atomic>
#include <chrono>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ai/WorkPool.hpp"
#include "hub/Hub.hpp"
#include "limits/Buckets.hpp"
#include "protocol/Json.hpp"
#include "store/StudyStore.hpp"
#include "study/Daily.hpp"
#include "study/Review.hpp"

namespace semis::server {

using protocol::Json;

struct StudyOptions {
  double reviewSecondsPerPosition = 0.08;  // a 60-ply Kalah review in about 3 s (bench/StudyBench.cpp)
  long long firstDay = 20788;              // 2026-12-01: the archive starts here
  std::size_t cachedReviews = 64;
  double jobsBurst = 12;  // solver jobs (reviews, puzzles, attempts) per address: a token bucket
  double jobsPerSecond = 0.2;
};

// What a request got: the answer, or a refusal (code, message) the API maps to a status.
struct StudyAnswer {
  int status = 200;
  Json body;
};

// A finished game's review as the study keeps it (cached), typed.
struct ReviewedGame {
  std::string game;
  std::string rules;  // toString(Rules)
  study::Review review;
};

class Study {
 public:
  Study(store::Store& store, Hub& hub, StudyOptions options = {});
  ~Study();
  Study(const Study&) = delete;
  Study& operator=(const Study&) = delete;

  WorkPool& work() { return work_; }
  [[nodiscard]] long long today() const;
  [[nodiscard]] const StudyOptions& options() const { return options_; }
  // False when the address has used its share of solver work (answered 429).
  bool takeJob(const std::string& address);

  // Run on the work pool (they solve):
  StudyAnswer daily(const std::string& key, long long day, const Identity& me);
  StudyAnswer archive(const std::string& key, const Identity& me);
  StudyAnswer attempt(const std::string& key, long long day, const std::vector<int>& moves, const Identity& me);
  StudyAnswer review(const std::string& gameId);
  // The same review, typed (the bots' accuracy reads it, study/Accuracy.hpp): the cached one or
  // one made now and cached, so the page's review of the game shows the same values; else the
  // refusal review() answers. `cancel` stops a review being made (a server stopping).
  tl::expected<std::shared_ptr<const ReviewedGame>, StudyAnswer> reviewed(const std::string& gameId,
                                                                          const std::atomic<bool>* cancel = nullptr);
  // The games with a daily puzzle and the days there are.
  [[nodiscard]] Json dailyIndex() const;

 private:
  // The day's puzzle: from the cache, the store, or generated and kept.
  Result<study::Puzzle> puzzle(const std::string& key, long long day);
  // The account's streak of solved days ending today or yesterday; nullopt for a guest.
  std::optional<int> streak(const std::string& key, const Identity& me);
  bool hasAccount(const Identity& me);

  store::Store& store_;
  Hub& hub_;
  StudyOptions options_;
  std::mutex mu_;
  std::map<std::pair<std::string, long long>, study::Puzzle> puzzles_;  // bounded: days x games
  study::DailyTables tables_;                                           // Awalé's daily judge
  std::list<std::shared_ptr<const ReviewedGame>> reviews_;             // newest first
  Buckets jobs_;
  WorkPool work_{1, 16};
};

// The presets with a daily puzzle (study::hasDaily at their standard options).
[[nodiscard]] const std::vector<std::string>& dailyKeys();

class Router;
// The study's HTTP paths (ApiStudy.cpp): /api/daily..., /api/games/ID/review.
void addStudyRoutes(Router& routes, Study& study);

}  // namespace semis::server
