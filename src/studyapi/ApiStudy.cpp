// The study features' HTTP paths (docs/study.md, "HTTP API"): /api/daily..., /api/games/ID/review.
// Anything that solves is handed back as a `slow` job for the study's own pool, and each address
// has a bounded share of such jobs.

#include <charconv>
#include <optional>

#include "http/Router.hpp"
#include "studyapi/Study.hpp"

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
    return apiError(ErrorCode::RateLimited, "too many reviews and puzzles from your address: wait a minute");
  }
  ApiResponse r;
  r.slowOn = &study.work();
  r.slow = [work = std::move(work)] { return json(work()); };
  return r;
}

// "[1,2,3]" of houses, at most `limit` of them.
std::optional<std::vector<int>> movesOf(std::string_view body, std::size_t limit) {
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("moves") || !j["moves"].is_array() || j["moves"].size() > limit)
    return std::nullopt;
  std::vector<int> out;
  for (const Json& m : j["moves"]) {
    if (!m.is_number_integer()) return std::nullopt;
    out.push_back(m.get<int>());
  }
  return out;
}

}  // namespace

void addStudyRoutes(Router& routes, Study& study) {
  routes.add("GET", "/api/games/{id}/review", [&study](const ApiRequest& r) {
    const std::string id(r.params[0]);
    if (!protocol::validGameId(id)) return apiError(ErrorCode::NotFound, "no such game");
    return job(study, r.me, [&study, id] { return study.review(id); });
  });
  // The index, with or without the trailing slash the page's links may add.
  const ApiHandler index = [&study](const ApiRequest&) -> ApiResponse {
    return {200, "application/json", protocol::dumpJson(study.dailyIndex())};
  };
  routes.add("GET", "/api/daily", index);
  routes.add("GET", "/api/daily/", index);
  routes.add("GET", "/api/daily/{key}", [&study](const ApiRequest& r) {
    const std::string key(r.params[0]);
    if (!isDailyKey(key)) return apiError(ErrorCode::NotFound, "no daily challenge for that game");
    bool repeated = false;
    const auto date = queryDate(r.query, repeated);
    if (repeated) return apiError(ErrorCode::BadDate, "one date at most");
    long long day = study.today();
    if (date) {
      auto d = study::parseDay(*date);
      if (!d) return apiError(ErrorCode::BadDate, d.error().message);
      day = *d;
    }
    return job(study, r.me, [&study, key, day, me = r.me] { return study.daily(key, day, me); });
  });
  routes.add("GET", "/api/daily/{key}/archive", [&study](const ApiRequest& r) {
    const std::string key(r.params[0]);
    if (!isDailyKey(key)) return apiError(ErrorCode::NotFound, "no daily challenge for that game");
    return json(study.archive(key, r.me));
  });
  routes.add("POST", "/api/daily/{key}/{date}/attempt", [&study](const ApiRequest& r) {
    const std::string key(r.params[0]);
    if (!isDailyKey(key)) return apiError(ErrorCode::NotFound, "no daily challenge for that game");
    auto day = study::parseDay(r.params[1]);
    if (!day) return apiError(ErrorCode::BadDate, day.error().message);
    auto moves = movesOf(r.body, 400);
    if (!moves) return apiError(ErrorCode::BadMessage, "expected {\"moves\":[house, ...]} (at most 400)");
    return job(study, r.me,
               [&study, key, d = *day, m = std::move(*moves), me = r.me] { return study.attempt(key, d, m, me); });
  });
}

}  // namespace semis::server
