// The study features' HTTP paths (docs/study.md, "HTTP API"): /api/daily..., /api/games/ID/review.
// Anything that solves is handed back as a `slow` job for the study's own pool, and each address
// has a bounded share of such jobs.

#include <charconv>
#include <optional>

#include "server/Api.hpp"
#include "server/Study.hpp"

namespace semis::server {

namespace {

ApiResponse json(const StudyAnswer& a) { return {a.status, "application/json", protocol::dumpJson(a.body)}; }

bool isDailyKey(std::string_view key) {
  for (const std::string& k : dailyKeys()) {
    if (k == key) return true;
  }
  return false;
}

// The whole value of the query's `date` parameter (up to the next '&'), nullopt when there is none.
// The value goes to study::parseDay as it is: a date is a whole YYYY-MM-DD or nothing, so
// "2026-12-01junk", "date=" and a second `date` are refused, never read as a day.
std::optional<std::string_view> queryDate(std::string_view query, bool& repeated) {
  constexpr std::string_view kName = "date";
  std::optional<std::string_view> found;
  repeated = false;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == kName) {
      repeated = repeated || found.has_value();
      found = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return found;
}

// A job for the study's pool; refused at once past the address's share.
ApiResponse job(Study& study, const Identity& me, std::function<StudyAnswer()> work) {
  if (!study.takeJob(me.address)) {
    return apiError(429, "rate_limited", "too many reviews and puzzles from your address: wait a minute");
  }
  ApiResponse r;
  r.slowOn = &study.work();
  r.slow = [work = std::move(work)] { return json(work()); };
  return r;
}

// "[1,2,3]" of houses, at most `limit` of them.
std::optional<std::vector<int>> movesOf(std::string_view body, std::size_t limit) {
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("moves") || !j["moves"].is_array() || j["moves"].size() > limit) return std::nullopt;
  std::vector<int> out;
  for (const Json& m : j["moves"]) {
    if (!m.is_number_integer()) return std::nullopt;
    out.push_back(m.get<int>());
  }
  return out;
}

}  // namespace

ApiResponse handleStudyApi(Study& study, std::string_view method, std::string_view path, std::string_view query,
                           std::string_view body, const Identity& me, bool& handled) {
  handled = true;
  const bool get = method == "GET" || method == "HEAD";
  constexpr std::string_view kGames = "/api/games/";
  constexpr std::string_view kReview = "/review";
  if (path.substr(0, kGames.size()) == kGames && path.size() > kGames.size() + kReview.size() &&
      path.substr(path.size() - kReview.size()) == kReview) {
    const std::string id(path.substr(kGames.size(), path.size() - kGames.size() - kReview.size()));
    if (!protocol::validGameId(id)) return apiError(404, "not_found", "no such game");
    if (!get) return apiError(405, "bad_method", "GET");
    return job(study, me, [&study, id] { return study.review(id); });
  }
  constexpr std::string_view kDaily = "/api/daily";
  if (path.substr(0, kDaily.size()) != kDaily) {
    handled = false;
    return {};
  }
  std::string_view rest = path.substr(kDaily.size());
  if (rest.empty() || rest == "/") {
    if (!get) return apiError(405, "bad_method", "GET");
    return {200, "application/json", protocol::dumpJson(study.dailyIndex())};
  }
  if (rest.front() != '/') return apiError(404, "not_found", "no such endpoint");
  rest.remove_prefix(1);
  const std::string key(rest.substr(0, rest.find('/')));
  if (!isDailyKey(key)) return apiError(404, "not_found", "no daily challenge for that game");
  rest.remove_prefix(key.size());
  if (rest.empty()) {
    if (!get) return apiError(405, "bad_method", "GET");
    bool repeated = false;
    const auto date = queryDate(query, repeated);
    if (repeated) return apiError(400, "bad_date", "one date at most");
    long long day = study.today();
    if (date) {
      auto d = study::parseDay(*date);
      if (!d) return apiError(400, "bad_date", d.error().message);
      day = *d;
    }
    return job(study, me, [&study, key, day, me] { return study.daily(key, day, me); });
  }
  if (rest == "/archive") {
    if (!get) return apiError(405, "bad_method", "GET");
    return json(study.archive(key, me));
  }
  // /<date>/attempt
  constexpr std::string_view kAttempt = "/attempt";
  if (rest.size() == 1 + 10 + kAttempt.size() && rest.substr(11) == kAttempt) {
    if (method != "POST") return apiError(405, "bad_method", "POST");
    auto day = study::parseDay(rest.substr(1, 10));
    if (!day) return apiError(400, "bad_date", day.error().message);
    auto moves = movesOf(body, 400);
    if (!moves) return apiError(400, "bad_message", "expected {\"moves\":[house, ...]} (at most 400)");
    return job(study, me, [&study, key, d = *day, m = std::move(*moves), me] { return study.attempt(key, d, m, me); });
  }
  return apiError(404, "not_found", "no such endpoint");
}

}  // namespace semis::server
