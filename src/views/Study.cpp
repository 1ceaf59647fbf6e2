#include "views/Study.hpp"

namespace semis::views {

std::string_view markCode(study::Mark mark) {
  switch (mark) {
    case study::Mark::Forced:
      return "forced";
    case study::Mark::Best:
      return "best";
    case study::Mark::Good:
      return "good";
    case study::Mark::Inaccuracy:
      return "inaccuracy";
    case study::Mark::Mistake:
      return "mistake";
    case study::Mark::Blunder:
      return "blunder";
  }
  return "best";
}

Json reviewJson(const study::Review& review) {
  Json plies = Json::array();
  for (const study::PlyReview& p : review.plies) {
    Json moves = Json::array();
    for (const auto& mv : p.moves) moves.push_back(Json{{"house", mv.move}, {"value", mv.value}, {"exact", mv.exact}});
    Json j{{"set", p.set},
           {"mover", protocol::sideName(p.mover)},
           {"move", p.move},
           {"best", p.best},
           {"best_value", p.bestValue},
           {"best_exact", p.bestExact},
           {"played", p.played},
           {"played_exact", p.playedExact},
           {"loss", p.loss},
           {"mark", markCode(p.mark)},
           {"moves", std::move(moves)}};
    plies.push_back(std::move(j));
  }
  return Json{{"plies", std::move(plies)},
              {"turning", review.turning < 0 ? Json(nullptr) : Json(review.turning)},
              {"nodes", review.nodes}};
}

Json puzzleJson(const Rules& rules, const study::Puzzle& puzzle, bool withSolution) {
  const Board board(rules);
  Json j{{"rules", toString(rules)},
         {"date", study::dayText(puzzle.day)},
         {"position", protocol::positionJson(board, puzzle.position)},
         {"position_text", board.toString(puzzle.position)},
         {"value", puzzle.value},
         {"decisions", puzzle.decisions}};
  if (withSolution) j["line"] = puzzle.line;
  return j;
}

}  // namespace semis::views
