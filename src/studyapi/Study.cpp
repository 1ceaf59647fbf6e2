#include "studyapi/Study.hpp"

#include <sstream>

#include "ops/WallClock.hpp"
#include "rules/Notation.hpp"
#include "store/ClubStore.hpp"
#include "views/Study.hpp"

namespace semis::server {

namespace {

constexpr long long kDayMs = 86'400'000;
constexpr std::size_t kArchiveDays = 60;

StudyAnswer refuse(ErrorCode code, const std::string& message) {
  return {protocol::httpStatus(code), protocol::httpErrorBody(code, message)};
}

std::string lineText(const std::vector<int>& line) {
  std::string out;
  for (const int m : line) out += (out.empty() ? "" : ",") + std::to_string(m);
  return out;
}

std::vector<int> lineOf(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(std::stoi(item));
  }
  return out;
}

Json resultJson(const store::DailyResultRow& r) {
  return Json{{"date", study::dayText(r.day)}, {"solved", r.solved}, {"result", r.result}};
}

}  // namespace

const std::vector<std::string>& dailyKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const Preset p : allPresets()) {
      if (study::hasDaily(presetRules(p))) out.emplace_back(presetName(p));
    }
    return out;
  }();
  return keys;
}

Study::Study(store::Store& store, Hub& hub, StudyOptions options) : store_(store), hub_(hub), options_(options) {}

Study::~Study() = default;

long long Study::today() const { return nowMs() / kDayMs; }

bool Study::takeJob(const std::string& address) {
  std::lock_guard lock(mu_);
  return takeToken(jobs_, address, options_.jobsBurst, options_.jobsPerSecond);
}

Json Study::dailyIndex() const {
  return Json{{"games", dailyKeys()}, {"today", study::dayText(today())}, {"first", study::dayText(options_.firstDay)}};
}

Result<study::Puzzle> Study::puzzle(const std::string& key, long long day) {
  {
    std::lock_guard lock(mu_);
    if (auto it = puzzles_.find({key, day}); it != puzzles_.end()) return it->second;
  }
  auto rules = parseRules(key);
  if (!rules) return tl::unexpected(rules.error());
  const Board board(*rules);
  auto stored = store_.study().puzzle(key, day);
  if (!stored) return fail("the store did not answer: " + stored.error().message);
  store::PuzzleRow row;
  if (*stored) {
    row = **stored;
  } else {
    // A position any earlier day was given is passed over (a store that does not answer: also).
    auto made = study::dailyPuzzle(
        *rules, day,
        [&](const Position& pos) {
          auto given = store_.study().puzzleGiven(key, board.toString(pos));
          return !given || *given;
        },
        tables_.find(*rules));
    if (!made) return tl::unexpected(made.error());
    auto kept = store_.study().keepPuzzle(store::PuzzleRow{key, day, board.toString(made->position), made->value,
                                                           lineText(made->line), made->decisions, nowMs()});
    if (!kept) return fail("the store did not keep the puzzle: " + kept.error().message);
    row = *kept;
  }
  auto pos = parsePosition(row.position);
  if (!pos) return fail("a stored puzzle does not parse: " + pos.error().message);
  study::Puzzle p{row.day, *pos, row.value, lineOf(row.line), row.decisions, 0};
  std::lock_guard lock(mu_);
  // Days x games is small, but bounded all the same: a year of every game.
  if (puzzles_.size() > 400 * dailyKeys().size()) puzzles_.clear();
  puzzles_.emplace(std::make_pair(key, day), p);
  return p;
}

bool Study::hasAccount(const Identity& me) {
  if (!me.stored) return false;
  auto a = store_.club().accountOf(me.id);
  return a && *a;
}

std::optional<int> Study::streak(const std::string& key, const Identity& me) {
  if (!hasAccount(me)) return std::nullopt;
  auto rows = store_.study().results(me.id, key, 400);
  if (!rows) return std::nullopt;
  // Days solved in a row, back from today; from yesterday while today is still to play.
  std::map<long long, bool> days;
  for (const auto& r : *rows) days.emplace(r.day, r.solved);
  long long d = today();
  if (days.find(d) == days.end()) --d;
  int n = 0;
  for (auto it = days.find(d); it != days.end() && it->second; it = days.find(--d)) ++n;
  return n;
}

StudyAnswer Study::daily(const std::string& key, long long day, const Identity& me) {
  const long long now = today();
  if (day > now) return refuse(ErrorCode::NotFound, "that day's puzzle is not out yet");
  if (day < options_.firstDay)
    return refuse(ErrorCode::NotFound, "the daily challenge starts on " + study::dayText(options_.firstDay));
  auto p = puzzle(key, day);
  if (!p) return refuse(ErrorCode::Internal, p.error().message);
  const Rules rules = *parseRules(key);
  Json j = views::puzzleJson(rules, *p, day < now);
  j["today"] = day == now;
  const auto s = streak(key, me);
  j["streak"] = s ? Json(*s) : Json(nullptr);
  j["signed_in"] = s.has_value();
  j["result"] = nullptr;
  if (s) {
    if (auto rows = store_.study().results(me.id, key, 400); rows) {
      for (const auto& r : *rows) {
        if (r.day == day) j["result"] = resultJson(r);
      }
    }
  }
  if (day == now && day - 1 >= options_.firstDay) {
    if (auto y = puzzle(key, day - 1); y) j["yesterday"] = views::puzzleJson(rules, *y, true);
  }
  return {200, std::move(j)};
}

StudyAnswer Study::archive(const std::string& key, const Identity& me) {
  Json days = Json::array();
  std::map<long long, store::DailyResultRow> mine;
  if (hasAccount(me)) {
    if (auto rows = store_.study().results(me.id, key, 400); rows) {
      for (const auto& r : *rows) mine.emplace(r.day, r);
    }
  }
  for (long long d = today() - 1; d >= options_.firstDay && days.size() < kArchiveDays; --d) {
    Json entry{{"date", study::dayText(d)}};
    if (auto it = mine.find(d); it != mine.end()) entry["result"] = resultJson(it->second);
    days.push_back(std::move(entry));
  }
  return {200, Json{{"game", key}, {"days", std::move(days)}}};
}

StudyAnswer Study::attempt(const std::string& key, long long day, const std::vector<int>& moves, const Identity& me) {
  if (day > today() || day < options_.firstDay) return refuse(ErrorCode::NotFound, "no puzzle that day");
  auto p = puzzle(key, day);
  if (!p) return refuse(ErrorCode::Internal, p.error().message);
  const Rules rules = *parseRules(key);
  auto a = study::checkAttempt(rules, *p, moves, tables_.find(rules));
  if (!a) return refuse(ErrorCode::BadAttempt, a.error().message);
  Json j{{"solved", a->solved}, {"value", p->value}, {"line", p->line}, {"recorded", false}};
  if (a->solved)
    j["result"] = a->result;
  else {
    j["failed_at"] = a->failedAt;
    j["best"] = a->bestAtFailure;
  }
  // Only the first attempt of the day itself counts, and only for an account.
  if (day == today() && hasAccount(me)) {
    auto added = store_.study().addResult(
        store::DailyResultRow{me.id, key, day, a->solved, a->solved ? a->result : a->failedAt, nowMs()});
    if (!added) return refuse(ErrorCode::Busy, "the result was not stored: try again");
    j["recorded"] = *added;
  }
  const auto s = streak(key, me);
  j["streak"] = s ? Json(*s) : Json(nullptr);
  return {200, std::move(j)};
}

StudyAnswer Study::review(const std::string& gameId) {
  auto r = reviewed(gameId);
  if (!r) return r.error();
  Json j = views::reviewJson((*r)->review);
  j["game"] = gameId;
  j["rules"] = (*r)->rules;
  return {200, std::move(j)};
}

tl::expected<std::shared_ptr<const ReviewedGame>, StudyAnswer> Study::reviewed(const std::string& gameId,
                                                                               const std::atomic<bool>* cancel) {
  {
    std::lock_guard lock(mu_);
    for (auto it = reviews_.begin(); it != reviews_.end(); ++it) {
      if ((*it)->game == gameId) {
        reviews_.splice(reviews_.begin(), reviews_, it);
        return *reviews_.begin();
      }
    }
  }
  const auto text = hub_.record(gameId);
  if (!text) return tl::unexpected(refuse(ErrorCode::NotFound, "no such game"));
  auto record = parseRecord(*text);
  if (!record) {
    return tl::unexpected(
        refuse(ErrorCode::Internal, "the game's record does not read back: " + record.error().message));
  }
  if (!record->game.over() && record->adjudicated.empty()) {
    return tl::unexpected(refuse(ErrorCode::NotOver, "a game is reviewed once it is over"));
  }
  engine::Search search(record->game.rules(), 64);
  study::ReviewLimits limits;
  limits.secondsPerPosition = options_.reviewSecondsPerPosition;
  limits.cancel = cancel;
  auto r = study::review(search, record->game, limits);
  if (!r) return tl::unexpected(refuse(ErrorCode::Internal, r.error().message));
  auto made = std::make_shared<const ReviewedGame>(ReviewedGame{gameId, toString(record->game.rules()), std::move(*r)});
  std::lock_guard lock(mu_);
  // Two reviews of one game at once (a visitor's and the bots' accuracy): the first kept wins, so
  // every answer about the game agrees with the others.
  for (const auto& kept : reviews_) {
    if (kept->game == gameId) return kept;
  }
  reviews_.push_front(made);
  while (reviews_.size() > options_.cachedReviews) reviews_.pop_back();
  return made;
}

}  // namespace semis::server
