#include "protocol/GameJson.hpp"

namespace semis::protocol {

Json rulesCatalogJson() {
  Json presets = Json::array();
  for (Preset p : allPresets()) {
    const Rules r = presetRules(p);
    Json values = Json::object();
    for (const OptionInfo& o : optionInfos()) values[o.name] = optionValue(r, o.name);
    presets.push_back(Json{{"name", std::string(presetName(p))}, {"options", values}});
  }
  Json options = Json::array();
  for (const OptionInfo& o : optionInfos()) {
    options.push_back(Json{{"name", o.name}, {"values", o.values}, {"meaning", o.meaning}});
  }
  return Json{{"presets", presets}, {"options", options}};
}

Json legalJson(const Board& board, const Position& pos) {
  Json legal = Json::array();
  const std::uint32_t mask = board.legalMask(pos);
  for (int h = 1; h <= board.houses(); ++h) {
    if (((mask >> (h - 1)) & 1U) != 0) legal.push_back(h);
  }
  return legal;
}

Json pliesJson(const Game& game) {
  Json plies = Json::array();
  for (const Ply& p : game.plies())
    plies.push_back(Json{{"mover", sideName(p.mover)}, {"move", p.move}, {"set", p.set}});
  return plies;
}

Json setResultsJson(const Game& game) {
  Json sets = Json::array();
  for (const SetResult& s : game.setResults()) sets.push_back(outcomeJson(s.outcome));
  return sets;
}

Json pointsJson(const Game& game) {
  const std::array<int, 2> doubled = game.doubledPoints();
  return Json::array({doubled[0] / 2.0, doubled[1] / 2.0});
}

const char* matchWinnerName(const Game& game) {
  const std::optional<Winner> w = game.matchWinner();
  return !w || *w == Winner::Draw ? "draw" : *w == Winner::South ? "S" : "N";
}

Json localStateJson(const Record& record) {
  const Game& g = record.game;
  const Board& board = g.board();
  Json result = nullptr;
  if (g.over()) {
    // The last set's result as the server words it (score, and why it ended), the match's winner.
    result = outcomeJson(g.setResults().back().outcome);
    result["winner"] = matchWinnerName(g);
  }
  return Json{{"rules", toString(g.rules())},
              {"position", positionJson(board, g.position())},
              {"legal", legalJson(board, g.position())},
              {"status", g.over() ? "over" : "playing"},
              {"result", result},
              {"set", g.currentSet()},
              {"sets", g.setCount()},
              {"points", pointsJson(g)},
              {"set_results", setResultsJson(g)},
              {"can_swap", g.canSwap()},
              {"plies", pliesJson(g)},
              {"record", printRecord(record)}};
}

}  // namespace semis::protocol
