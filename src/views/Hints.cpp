#include "views/Hints.hpp"

namespace semis::views {

std::string_view verdictCode(engine::VerdictCode code) {
  switch (code) {
    case engine::VerdictCode::WinsBy:
      return "wins_by";
    case engine::VerdictCode::Draws:
      return "draws";
    case engine::VerdictCode::LosesByAtMost:
      return "loses_by_at_most";
    case engine::VerdictCode::Estimate:
      return "estimate";
  }
  return "estimate";
}

std::string_view reasonCode(engine::Reason reason) {
  switch (reason) {
    case engine::Reason::ExtraTurn:
      return "extra_turn";
    case engine::Reason::Captures:
      return "captures";
    case engine::Reason::Protects:
      return "protects";
    case engine::Reason::StopsCapture:
      return "stops_capture";
    case engine::Reason::NoExtraTurnForOpponent:
      return "no_extra_turn_for_opponent";
    case engine::Reason::Feeds:
      return "feeds";
    case engine::Reason::ChainCaptures:
      return "chain_captures";
    case engine::Reason::GrandSlamTakesNothing:
      return "grand_slam_takes_nothing";
    case engine::Reason::GrandSlamAvoided:
      return "grand_slam_avoided";
  }
  return "?";
}

Json verdictJson(const engine::Verdict& verdict) {
  Json j{{"code", verdictCode(verdict.code)}};
  if (verdict.code != engine::VerdictCode::Draws) j["n"] = verdict.n;
  return j;
}

Json reasonJson(const engine::MoveReason& reason) {
  Json j{{"code", reasonCode(reason.code)}};
  switch (reason.code) {
    case engine::Reason::Captures:
    case engine::Reason::Protects:
    case engine::Reason::StopsCapture:
    case engine::Reason::GrandSlamTakesNothing:
      j["n"] = reason.n;
      break;
    case engine::Reason::ChainCaptures:
      j["n"] = reason.n;
      j["houses"] = reason.houses;
      break;
    case engine::Reason::GrandSlamAvoided:
      j["n"] = reason.n;
      j["house"] = reason.house;
      break;
    default:
      break;
  }
  return j;
}

Json hintJson(const std::string& gameId, const engine::Hint& hint) {
  Json reasons = Json::array();
  for (const engine::MoveReason& r : hint.reasons) reasons.push_back(reasonJson(r));
  Json moves = Json::array();
  for (const engine::MoveValue& mv : hint.moves)
    moves.push_back(Json{{"house", mv.move}, {"value", mv.value}, {"exact", mv.exact}});
  return Json{{"type", "hint"},       {"game", gameId},
              {"house", hint.move},   {"exact", hint.exact},
              {"value", hint.value},  {"verdict", verdictJson(hint.verdict)},
              {"reasons", reasons},   {"moves", moves}};
}

}  // namespace semis::views
