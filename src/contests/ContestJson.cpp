#include "contests/ContestJson.hpp"

#include "rating/RatedKey.hpp"

namespace semis::server {

namespace {

const char* stateName(ContestGame::State s) {
  switch (s) {
    case ContestGame::State::Pending: return "pending";
    case ContestGame::State::Playing: return "playing";
    case ContestGame::State::Over: break;
  }
  return "over";
}

const char* winnerName(ContestGame::Winner w) {
  return w == ContestGame::Winner::South ? "S" : w == ContestGame::Winner::North ? "N" : "draw";
}

// The stored game: everything to go on after a restart.
Json storedGame(const ContestGame& g) {
  return Json{{"round", g.round}, {"seats", g.seats},     {"state", stateName(g.state)}, {"game", g.game},
              {"winner", winnerName(g.winner)}, {"seeds", g.seeds}, {"reason", g.reason}, {"started", g.started}};
}

std::optional<ContestGame> readGame(const Json& j, std::size_t entrants) {
  if (!j.is_object()) return std::nullopt;
  ContestGame g;
  try {
    g.round = j.at("round").get<int>();
    g.seats = j.at("seats").get<std::array<int, 2>>();
    const std::string state = j.at("state").get<std::string>();
    g.state = state == "pending" ? ContestGame::State::Pending
              : state == "playing" ? ContestGame::State::Playing
                                   : ContestGame::State::Over;
    g.game = j.at("game").get<std::string>();
    const std::string w = j.at("winner").get<std::string>();
    g.winner = w == "S" ? ContestGame::Winner::South : w == "N" ? ContestGame::Winner::North : ContestGame::Winner::Draw;
    g.seeds = j.at("seeds").get<std::array<int, 2>>();
    g.reason = j.at("reason").get<std::string>();
    g.started = j.at("started").get<long long>();
  } catch (const Json::exception&) {
    return std::nullopt;
  }
  for (int s : g.seats) {
    if (s < 0 || static_cast<std::size_t>(s) >= entrants) return std::nullopt;
  }
  return g;
}

Json points(int halfPoints) { return halfPoints % 2 == 0 ? Json(halfPoints / 2) : Json(halfPoints / 2.0); }

}  // namespace

store::ContestRow contestRow(const Contest& c, long long nowMs) {
  Json bots = Json::array();
  for (const Entrant& e : c.bots) bots.push_back(Json{{"id", e.id}, {"name", e.name}});
  Json games = Json::array();
  for (const ContestGame& g : c.games) games.push_back(storedGame(g));
  const Json body{{"move_ms", c.moveMs}, {"bots", bots}, {"games", games}};
  return store::ContestRow{c.id,    contestKindName(c.kind), c.name,    c.owner,  toString(c.rules),
                           c.over ? "over" : "running", c.created, nowMs, c.version, protocol::dumpJson(body)};
}

std::optional<Contest> contestOf(const store::ContestRow& row) {
  Contest c;
  c.id = row.id;
  if (row.kind != "match" && row.kind != "tournament") return std::nullopt;
  c.kind = row.kind == "match" ? ContestKind::Match : ContestKind::Tournament;
  c.name = row.name;
  c.owner = row.owner;
  auto rules = parseRules(row.rules);
  if (!rules) return std::nullopt;
  c.rules = *rules;
  c.over = row.status == "over";
  c.created = row.created;
  c.version = row.version;
  const Json body = Json::parse(row.body, nullptr, false);
  if (!body.is_object()) return std::nullopt;
  try {
    c.moveMs = body.at("move_ms").get<int>();
    for (const Json& e : body.at("bots")) c.bots.push_back(Entrant{e.at("id").get<std::string>(), e.at("name").get<std::string>()});
    for (const Json& j : body.at("games")) {
      auto g = readGame(j, c.bots.size());
      if (!g) return std::nullopt;
      c.games.push_back(std::move(*g));
    }
  } catch (const Json::exception&) {
    return std::nullopt;
  }
  return c;
}

Json contestJson(const Contest& c) {
  Json bots = Json::array();
  for (const Entrant& e : c.bots) bots.push_back(Json{{"id", e.id}, {"name", e.name}});
  Json games = Json::array();
  for (const ContestGame& g : c.games) {
    const auto& south = c.bots[static_cast<std::size_t>(g.seats[0])];
    const auto& north = c.bots[static_cast<std::size_t>(g.seats[1])];
    Json line{{"round", g.round},
              {"south", south.name},
              {"north", north.name},
              {"state", stateName(g.state)},
              {"game", g.game.empty() ? Json(nullptr) : Json(g.game)}};
    if (g.state == ContestGame::State::Over) {
      line["winner"] = winnerName(g.winner);
      line["seeds"] = g.seeds;
      line["reason"] = g.reason;
    }
    games.push_back(std::move(line));
  }
  Json table = Json::array();
  const auto lines = standings(c);
  for (const Standing& s : lines) {
    const Entrant& e = c.bots[static_cast<std::size_t>(s.entrant)];
    table.push_back(Json{{"rank", table.size() + 1},
                         {"id", e.id},
                         {"name", e.name},
                         {"points", points(s.halfPoints)},
                         {"games", s.games},
                         {"wins", s.wins},
                         {"draws", s.draws},
                         {"losses", s.losses},
                         {"seeds_for", s.seedsFor},
                         {"seeds_against", s.seedsAgainst}});
  }
  const auto key = rating::botsKey(c.rules);
  Json out{{"id", c.id},
           {"kind", contestKindName(c.kind)},
           {"name", c.name},
           {"rules", toString(c.rules)},
           {"key", key ? Json(*key) : Json(nullptr)},
           {"move_seconds", c.moveMs / 1000.0},
           {"status", c.over ? "over" : "running"},
           {"created", c.created},
           {"bots", bots},
           {"games", games},
           {"table", table}};
  if (c.kind == ContestKind::Match && c.bots.size() == 2) {
    std::array<int, 2> half{0, 0};
    for (const Standing& s : lines) half[static_cast<std::size_t>(s.entrant)] = s.halfPoints;
    out["score"] = Json::array({points(half[0]), points(half[1])});
  }
  return out;
}

Json contestLineJson(const Contest& c) {
  Json names = Json::array();
  for (const Entrant& e : c.bots) names.push_back(e.name);
  const auto lines = standings(c);
  Json leader = nullptr;
  if (!lines.empty() && lines.front().games > 0) leader = c.bots[static_cast<std::size_t>(lines.front().entrant)].name;
  return Json{{"id", c.id},           {"kind", contestKindName(c.kind)}, {"name", c.name},
              {"rules", toString(c.rules)}, {"status", c.over ? "over" : "running"}, {"created", c.created},
              {"bots", names},        {"leader", leader}};
}

}  // namespace semis::server
