// The rules core for the browser: a C API over semis::Game and semis::Board, compiled with em++.
// The browser never re-implements the rules; it calls these for local play (two players on one
// device, a small local opponent when no server is there) and for the hover preview of a move.
// Every function answers one JSON text (the pointer stays valid until the next call), written by
// the server's own writers (protocol/GameJson.hpp, views/): tests/views/WasmCoreTest.cpp compiles
// this file natively and holds the two equal.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/Egdb.hpp"
#include "engine/Hint.hpp"
#include "engine/Levels.hpp"
#include "protocol/GameJson.hpp"
#include "rules/Notation.hpp"
#include "study/Daily.hpp"
#include "study/Review.hpp"
#include "views/Hints.hpp"
#include "views/Study.hpp"

using semis::Board;
using semis::Game;
using semis::Position;
using semis::Side;
using semis::protocol::Json;

namespace {

std::string reply;
std::vector<std::unique_ptr<semis::Record>> games;

const char* answer(const Json& j) {
  reply = j.dump();
  return reply.c_str();
}

const char* error(const std::string& message) { return answer(Json{{"error", message}}); }

using semis::protocol::legalJson;
using semis::protocol::positionJson;

// A small endgame table for the rules, built once in the page where a quick depth-first build
// exists (Egdb::retrograde is false), as the server's search has its larger ones: positions with
// few seeds left are exact at once in the hint, the analysis board and the daily judge. Its size is
// bounded (kTableEntries positions, one byte each) so the first use stays a fraction of a second.
constexpr double kTableEntries = 300000;
std::map<std::string, std::unique_ptr<semis::engine::Egdb>> tables;

// How many seeds the page's table goes up to for these rules, 0 for none.
int tableSeeds(const semis::Rules& rules) {
  using semis::engine::Egdb;
  if (Egdb::applies(rules) && !Egdb::retrograde(rules)) {
    // The table up to k seeds holds C(k + 2N, 2N) positions (South to move).
    const int m = 2 * rules.houses;
    const auto entries = [m](int k) {
      double c = 1;
      for (int i = 1; i <= m; ++i) c = c * (k + i) / i;
      return c;
    };
    int k = 1;
    while (k < Egdb::kMaxSeedsLimit && entries(k + 1) <= kTableEntries) ++k;
    return k;
  }
  // Awalé: the retrograde table its daily challenge is judged by (study/Daily.hpp), the same the
  // server builds, so the page proves the puzzle's values itself (and hints near the end).
  return semis::study::dailyTableSeeds(rules);
}

const semis::engine::Egdb* tableFor(const semis::Rules& rules) {
  using semis::engine::Egdb;
  const std::string key = semis::toString(rules);
  if (auto it = tables.find(key); it != tables.end()) return it->second.get();
  std::unique_ptr<Egdb> made;
  if (const int k = tableSeeds(rules); k > 0) {
    if (auto built = Egdb::build(rules, k, 1)) made = std::make_unique<Egdb>(std::move(*built));
  }
  return (tables[key] = std::move(made)).get();
}

semis::Record* find(int handle) {
  if (handle < 0 || handle >= static_cast<int>(games.size())) return nullptr;
  return games[static_cast<std::size_t>(handle)].get();
}

// A small negamax on the store difference: enough for a local opponent and for "Teach me" when no
// server engine is reachable. An extra turn keeps the same side to move, so the sign flips only
// when the turn passes.
int evaluate(const Board& board, const Position& pos, Side me) {
  if (pos.over) {
    const auto o = board.outcome(pos);
    const int diff = me == Side::South ? o.south - o.north : o.north - o.south;
    return diff * 1000;
  }
  const int mine = pos.pits[static_cast<std::size_t>(board.storePit(me))];
  const int theirs = pos.pits[static_cast<std::size_t>(board.storePit(semis::other(me)))];
  return mine - theirs;
}

int search(const Board& board, const Position& pos, int depth, int alpha, int beta) {
  const Side me = pos.toMove;
  if (depth == 0 || pos.over) return evaluate(board, pos, me);
  const std::uint32_t mask = board.legalMask(pos);
  int best = -1000000;
  for (int h = 1; h <= board.houses(); ++h) {
    if (((mask >> (h - 1)) & 1U) == 0) continue;
    Position next = pos;
    board.apply(next, h);
    const bool same = !next.over && next.toMove == me;
    const int v = same ? search(board, next, depth - 1, alpha, beta)
                       : (next.over ? evaluate(board, next, me) : -search(board, next, depth - 1, -beta, -alpha));
    if (v > best) best = v;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return best;
}

int bestMove(const Board& board, const Position& pos, int depth) {
  const std::uint32_t mask = board.legalMask(pos);
  int best = 0;
  int bestValue = -10000000;
  for (int h = 1; h <= board.houses(); ++h) {
    if (((mask >> (h - 1)) & 1U) == 0) continue;
    Position next = pos;
    board.apply(next, h);
    const bool same = !next.over && next.toMove == pos.toMove;
    const int v = next.over ? evaluate(board, next, pos.toMove)
                  : same    ? search(board, next, depth - 1, -10000000, 10000000)
                            : -search(board, next, depth - 1, -10000000, 10000000);
    if (v > bestValue) {
      bestValue = v;
      best = h;
    }
  }
  return best;
}

// What one move does, as the preview and the hint describe it.
Json moveSummary(const Board& board, const Position& pos, int house) {
  Position next = pos;
  semis::Trace trace;
  const semis::MoveInfo info = board.apply(next, house, semis::TraceRecorder{&trace});
  int last = -1;
  Json captures = Json::array();
  for (const auto& e : trace) {
    if (e.kind == semis::EventKind::Drop && captures.empty()) last = e.pit;
    if (e.kind == semis::EventKind::Capture) captures.push_back(Json{{"pit", e.pit}, {"count", e.count}});
  }
  return Json{{"house", house},
              {"last", last},
              {"captured", info.captured},
              {"captures", captures},
              {"extra_turn", info.extraTurn},
              {"castle", info.castleMade},
              {"relay_cut", info.relayCut},
              {"ends", next.over},
              {"trace", semis::protocol::traceJson(trace)}};
}

semis::Result<std::pair<Board, Position>> parseAt(const char* rulesText, const char* fields) {
  auto rules = semis::parseRules(rulesText);
  if (!rules) return tl::unexpected(rules.error());
  Board board(*rules);
  auto pos = semis::parsePositionFor(board, fields);
  if (!pos) return tl::unexpected(pos.error());
  return std::make_pair(board, *pos);
}

}  // namespace

extern "C" {

// Presets with their option values, and every option's range and meaning (as `/api/rules`).
const char* sm_rules() { return answer(semis::protocol::rulesCatalogJson()); }

// A new game from a whole position string ("kalah/0,0,1,.../0,0,.../20,17/N"): the daily
// challenge's endgame. Answers {"handle"} or {"error"}.
const char* sm_new_at(const char* positionText) {
  semis::Rules rules;
  auto pos = semis::parsePosition(positionText, &rules);
  if (!pos) return error(pos.error().message);
  if (pos->over) return error("the game is over in that position");
  games.push_back(std::make_unique<semis::Record>(semis::Record{{}, Game(rules, *pos), {}}));
  return answer(Json{{"handle", static_cast<int>(games.size()) - 1}});
}

// Whether a rules string is one the core plays: {"rules": its canonical form} or {"error"} saying
// why (the home page's options checked before a game is asked for).
const char* sm_check_rules(const char* rulesText) {
  auto rules = semis::parseRules(rulesText);
  if (!rules) return error(rules.error().message);
  return answer(Json{{"rules", semis::toString(*rules)}});
}

// A new game; answers {"handle"} or {"error"} (an unknown preset or a bad option says which).
const char* sm_new(const char* rulesText) {
  auto rules = semis::parseRules(rulesText);
  if (!rules) return error(rules.error().message);
  games.push_back(std::make_unique<semis::Record>(semis::Record{{}, Game(*rules), {}}));
  return answer(Json{{"handle", static_cast<int>(games.size()) - 1}});
}

const char* sm_state(int handle) {
  const semis::Record* r = find(handle);
  if (r == nullptr) return error("no such game");
  return answer(semis::protocol::localStateJson(*r));
}

// Plays a house for the side to move: {"event":{kind:"move",...},"state":{...}} or {"error"}.
const char* sm_play(int handle, int house) {
  semis::Record* r = find(handle);
  if (r == nullptr) return error("no such game");
  const Side mover = r->game.position().toMove;
  auto ply = r->game.play(house);
  if (!ply) return error(ply.error().message);
  const Board& board = r->game.board();
  // After a set ends the game already shows the next set's start; the event carries the position
  // the move reached so the animation ends where the trace does.
  Json event{{"kind", "move"},
             {"side", semis::protocol::sideName(mover)},
             {"house", house},
             {"trace", semis::protocol::traceJson((*ply)->trace)},
             {"position", positionJson(board, (*ply)->after)},
             {"legal", legalJson(board, r->game.position())}};
  return answer(Json{{"event", event}, {"state", semis::protocol::localStateJson(*r)}});
}

const char* sm_swap(int handle) {
  semis::Record* r = find(handle);
  if (r == nullptr) return error("no such game");
  auto ok = r->game.swap();
  if (!ok) return error(ok.error().message);
  return answer(Json{{"state", semis::protocol::localStateJson(*r)}});
}

const char* sm_split(int handle) {
  semis::Record* r = find(handle);
  if (r == nullptr) return error("no such game");
  auto ok = r->game.agreeSplit();
  if (!ok) return error(ok.error().message);
  return answer(Json{{"state", semis::protocol::localStateJson(*r)}});
}

// The preview of `house` in a position given as board fields ("4,4,.../4,4,.../0,0/S"): where the
// last seed lands, what it captures, whether it earns an extra turn.
const char* sm_preview(const char* rulesText, const char* fields, int house) {
  auto at = parseAt(rulesText, fields);
  if (!at) return error(at.error().message);
  const auto& [board, pos] = *at;
  if (!board.isLegal(pos, house)) return error("house " + std::to_string(house) + " is not legal here");
  return answer(moveSummary(board, pos, house));
}

// A good move for the side to move, searched `depth` plies deep, with what it does (the reason).
const char* sm_best(const char* rulesText, const char* fields, int depth) {
  auto at = parseAt(rulesText, fields);
  if (!at) return error(at.error().message);
  const auto& [board, pos] = *at;
  if (pos.over || board.legalMask(pos) == 0) return error("no move to suggest: the game is over");
  const int h = bestMove(board, pos, depth < 1 ? 1 : depth > 12 ? 12 : depth);
  return answer(moveSummary(board, pos, h));
}

// The engine's hint (engine/Hint.hpp) as the server sends it (views/Hints.hpp: the house, the
// verdict and the reasons as codes the page words), with the move's summary; each legal move is
// searched within `nodes` nodes so the page stays responsive.
const char* sm_hint(const char* rulesText, const char* fields, int nodes) {
  auto at = parseAt(rulesText, fields);
  if (!at) return error(at.error().message);
  const auto& [board, pos] = *at;
  semis::engine::Search search(board.rules(), 4);
  search.setEgdb(tableFor(board.rules()));
  semis::engine::Limits limits;
  limits.nodes = static_cast<std::uint64_t>(nodes < 1000 ? 1000 : nodes);
  auto h = semis::engine::hint(search, pos, limits);
  if (!h) return error(h.error().message);
  Json j = moveSummary(board, pos, h->move);
  const Json coded = semis::views::hintJson("", *h);  // named: items() must not outlive it
  for (const auto& [k, v] : coded.items()) {
    if (k != "type" && k != "game") j[k] = v;
  }
  return answer(j);
}

// The engine's player at a level (easy, medium, hard, perfect) chooses a move for the side to
// move. Hard and Perfect get a short budget: the page waits for the answer.
const char* sm_ai(const char* rulesText, const char* fields, const char* levelText, int seed) {
  auto at = parseAt(rulesText, fields);
  if (!at) return error(at.error().message);
  const auto& [board, pos] = *at;
  if (pos.over || board.legalMask(pos) == 0) return error("the game is over");
  auto level = semis::engine::parseLevel(levelText);
  if (!level) return error(level.error().message);
  semis::engine::LevelOptions options;
  options.hardSeconds = 0.4;
  options.tableMegabytes = 4;
  options.seed = static_cast<std::uint64_t>(seed);
  semis::engine::Player player(board.rules(), *level, options);
  return answer(Json{{"house", player.choose(pos)}});
}

// The value of every legal move as the hint values them (engine::valuedMoves: the search with the
// page's endgame table, each move within `nodes` nodes, then the opening book's proven move):
// {"moves":[{"house","value","exact"}]} (the daily challenge's judge, the analysis board).
const char* sm_values(const char* rulesText, const char* fields, int nodes) {
  auto at = parseAt(rulesText, fields);
  if (!at) return error(at.error().message);
  const auto& [board, pos] = *at;
  if (pos.over || board.legalMask(pos) == 0) return error("the game is over");
  semis::engine::Search search(board.rules(), 8);
  search.setEgdb(tableFor(board.rules()));
  semis::engine::Limits limits;
  limits.aim = semis::engine::Aim::ValueFirst;
  limits.nodes = static_cast<std::uint64_t>(nodes < 1000 ? 1000 : nodes);
  Json moves = Json::array();
  // Valued as the hint values them (engine/Hint.hpp): the opening book's proven move included.
  for (const auto& mv : semis::engine::valuedMoves(search, pos, limits)) {
    moves.push_back(Json{{"house", mv.move}, {"value", mv.value}, {"exact", mv.exact}});
  }
  return answer(Json{{"moves", moves}});
}

// The review of a game played in the page (study/Review.hpp): its moves from the rules' start or
// from `startText` (a whole position string; "" for the start), `nodes` a position.
const char* sm_review(const char* rulesText, const char* startText, const char* movesText, int nodes) {
  auto rules = semis::parseRules(rulesText);
  if (!rules) return error(rules.error().message);
  Game game(*rules);
  if (startText[0] != '\0') {
    auto pos = semis::parsePosition(startText);
    if (!pos) return error(pos.error().message);
    game = Game(*rules, *pos);
  }
  std::string moves = movesText;
  for (std::size_t at = 0; at < moves.size();) {
    const std::size_t comma = moves.find(',', at);
    const std::string item = moves.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? moves.size() : comma + 1;
    if (item.empty()) continue;
    if (!game.play(std::atoi(item.c_str()))) return error("move " + item + " is not legal");
  }
  semis::engine::Search search(*rules, 16);
  semis::study::ReviewLimits limits;
  limits.secondsPerPosition = 0;
  limits.nodesPerPosition = static_cast<std::uint64_t>(nodes < 1000 ? 1000 : nodes);
  auto r = semis::study::review(search, game, limits);
  if (!r) return error(r.error().message);
  return answer(semis::views::reviewJson(*r));
}

// A pasted game record (docs/notation.md): {"rules","start","moves":[...]} to replay it in the
// analysis board, or {"error"} naming what does not read.
const char* sm_record(const char* text) {
  auto record = semis::parseRecord(text);
  if (!record) return error(record.error().message);
  const Game& g = record->game;
  Json moves = Json::array();
  for (const auto& p : g.plies()) moves.push_back(p.move);
  return answer(Json{{"rules", semis::toString(g.rules())}, {"start", g.board().toString(g.initial())}, {"moves", moves}});
}

}  // extern "C"
