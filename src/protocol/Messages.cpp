#include "protocol/Messages.hpp"

#include <array>
#include <cctype>

namespace semis::protocol {

namespace {

struct TypeName {
  std::string_view name;
  MsgType type;
  bool needsGame;
};

constexpr std::array<TypeName, 25> kTypes{{
    {"join", MsgType::Join, true},
    {"leave", MsgType::Leave, true},
    {"move", MsgType::Move, true},
    {"resign", MsgType::Resign, true},
    {"offer_draw", MsgType::OfferDraw, true},
    {"offer_split", MsgType::OfferDraw, true},
    {"accept_draw", MsgType::AcceptDraw, true},
    {"accept_split", MsgType::AcceptDraw, true},
    {"decline_draw", MsgType::DeclineDraw, true},
    {"decline_split", MsgType::DeclineDraw, true},
    {"swap", MsgType::Swap, true},
    {"rematch", MsgType::Rematch, true},
    {"ping", MsgType::Ping, false},
    {"create", MsgType::Create, false},
    {"hello", MsgType::Hello, false},
    {"hint", MsgType::Hint, true},
    {"seek", MsgType::Seek, false},
    {"cancel_seek", MsgType::CancelSeek, false},
    {"accept_seek", MsgType::AcceptSeek, false},
    {"lobby", MsgType::Lobby, false},
    {"invite", MsgType::Invite, false},
    {"decline", MsgType::Decline, true},
    {"abort", MsgType::Abort, true},
    {"claim", MsgType::Claim, true},
    {"takeback", MsgType::TakeBack, true},
}};

tl::unexpected<ProtocolError> bad(std::string message, const Json& id = nullptr) {
  return tl::unexpected(ProtocolError{ErrorCode::BadMessage, std::move(message), id});
}

bool validMoveId(const Json& id) {
  if (id.is_number_integer()) return true;
  if (!id.is_string()) return false;
  const auto& s = id.get_ref<const std::string&>();
  return !s.empty() && s.size() <= 64;
}

}  // namespace

const char* modeName(Mode m) {
  switch (m) {
    case Mode::Ai:
      return "ai";
    case Mode::Friend:
      return "friend";
    case Mode::Local:
      return "local";
  }
  return "ai";
}

bool validGameId(std::string_view id) {
  if (id.empty() || id.size() > 32) return false;
  for (char c : id) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

Json errorMessage(ErrorCode code, std::string_view message, const Json& id) {
  Json j{{"type", "error"}};
  if (!id.is_null()) j["id"] = id;
  j["code"] = wireName(code);
  j["message"] = message;
  return j;
}

Json httpErrorBody(ErrorCode code, std::string_view message) {
  return Json{{"error", {{"code", wireName(code)}, {"message", message}}}};
}

Result<GameSpec> parseGameSpec(const Json& j) {
  if (!j.is_object()) return fail("the game spec must be a JSON object");
  GameSpec spec;
  const auto rulesIt = j.find("rules");
  if (rulesIt == j.end() || !rulesIt->is_string())
    return fail("'rules' (a string like \"kalah,houses=4\") is required");
  const auto& text = rulesIt->get_ref<const std::string&>();
  if (text.size() > 256) return fail("'rules' is too long");
  auto rules = parseRules(text);
  if (!rules) return fail("rules: " + rules.error().message);
  spec.rules = *rules;
  if (auto it = j.find("mode"); it != j.end()) {
    if (!it->is_string()) return fail("'mode' must be \"ai\", \"friend\", \"local\" or \"bot\"");
    const auto& m = it->get_ref<const std::string&>();
    if (m == "ai")
      spec.mode = Mode::Ai;
    else if (m == "friend" || m == "bot")
      spec.mode = Mode::Friend;  // a game against a bot is a two-player game whose second seat is taken at once
    else if (m == "local")
      spec.mode = Mode::Local;
    else
      return fail("'mode' must be \"ai\", \"friend\", \"local\" or \"bot\", not \"" + clipUtf8(m, 32) + "\"");
    if (m == "bot") {
      const auto bot = j.find("bot");
      if (bot == j.end() || !bot->is_string() || bot->get_ref<const std::string&>().empty() ||
          bot->get_ref<const std::string&>().size() > 64) {
        return fail("'bot' (the bot's name) is required with mode \"bot\"");
      }
      spec.bot = bot->get<std::string>();
    }
  }
  if (auto it = j.find("level"); it != j.end()) {
    if (!it->is_string()) return fail("'level' must be a string");
    const auto& l = it->get_ref<const std::string&>();
    if (l != "easy" && l != "medium" && l != "hard" && l != "perfect") {
      return fail("'level' must be easy, medium, hard or perfect");
    }
    spec.level = l;
  }
  if (auto it = j.find("side"); it != j.end()) {
    if (!it->is_string()) return fail("'side' must be \"S\", \"N\" or \"random\"");
    const auto& s = it->get_ref<const std::string&>();
    if (s != "S" && s != "N" && s != "random") return fail("'side' must be \"S\", \"N\" or \"random\"");
    spec.side = s;
  }
  if (auto it = j.find("clock"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) return fail("'clock' must be {\"minutes\":M,\"increment\":S}");
    const auto mins = it->find("minutes");
    const auto secs = it->find("seconds");
    long long base = 0;
    if (mins != it->end()) {
      if (!mins->is_number_integer()) return fail("'clock.minutes' must be an integer");
      const long long m = mins->get<long long>();
      if (m < 1 || m > 180) return fail("'clock.minutes' must be 1..180");
      base = m * 60;
    } else if (secs != it->end()) {
      // Seconds: blitz games and tests that need a flag to fall quickly.
      if (!secs->is_number_integer()) return fail("'clock.seconds' must be an integer");
      base = secs->get<long long>();
      if (base < 1 || base > 10800) return fail("'clock.seconds' must be 1..10800");
    } else {
      return fail("'clock.minutes' (an integer) is required");
    }
    long long inc = 0;
    if (auto i = it->find("increment"); i != it->end()) {
      if (!i->is_number_integer()) return fail("'clock.increment' must be an integer");
      inc = i->get<long long>();
      if (inc < 0 || inc > 60) return fail("'clock.increment' must be 0..60 seconds");
    }
    spec.clock = ClockSpec{static_cast<int>(base), static_cast<int>(inc)};
  }
  return spec;
}

tl::expected<ClientMessage, ProtocolError> parseClientMessage(std::string_view text) {
  if (text.size() > kMaxMessageBytes) {
    return tl::unexpected(ProtocolError{ErrorCode::TooLarge, "messages are limited to 4096 bytes", nullptr});
  }
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return bad("malformed JSON");
  if (!j.is_object()) return bad("a message must be a JSON object");
  const auto typeIt = j.find("type");
  if (typeIt == j.end() || !typeIt->is_string()) return bad("'type' (a string) is required");
  const auto& type = typeIt->get_ref<const std::string&>();
  const TypeName* found = nullptr;
  for (const TypeName& t : kTypes) {
    if (t.name == type) found = &t;
  }
  Json id = nullptr;
  if (auto it = j.find("id"); it != j.end() && validMoveId(*it)) id = *it;
  if (found == nullptr) {
    return tl::unexpected(ProtocolError{ErrorCode::UnknownType, "unknown message type '" + clipUtf8(type, 32) + "'", id});
  }
  ClientMessage m;
  m.type = found->type;
  if (found->needsGame) {
    const auto g = j.find("game");
    if (g == j.end() || !g->is_string() || !validGameId(g->get_ref<const std::string&>())) {
      return bad("'game' (a game id) is required", id);
    }
    m.game = g->get<std::string>();
  }
  auto readCount = [&j](const char* name, std::optional<long long>& out) -> bool {
    const auto it = j.find(name);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_number_integer() || it->get<long long>() < 0) return false;
    out = it->get<long long>();
    return true;
  };
  switch (m.type) {
    case MsgType::Join:
      if (!readCount("last_event", m.lastEvent)) return bad("'last_event' must be a non-negative integer");
      break;
    case MsgType::Move: {
      const auto idIt = j.find("id");
      if (idIt == j.end() || !validMoveId(*idIt))
        return bad("'id' (a string of 1..64 characters or an integer) is required");
      m.id = *idIt;
      const auto h = j.find("house");
      if (h == j.end() || !h->is_number_integer()) return bad("'house' (an integer) is required", m.id);
      const long long house = h->get<long long>();
      if (house < 1 || house > kMaxHouses) return bad("'house' must be 1.." + std::to_string(kMaxHouses), m.id);
      m.house = static_cast<int>(house);
      if (!readCount("after", m.after)) return bad("'after' must be a non-negative integer", m.id);
      break;
    }
    case MsgType::Ping:
      if (auto t = j.find("t"); t != j.end()) {
        if (!t->is_number() && !t->is_string()) return bad("'t' must be a number or a string");
        if (t->is_string() && t->get_ref<const std::string&>().size() > 64) return bad("'t' is too long");
        m.t = *t;
      }
      break;
    case MsgType::Create: {
      auto spec = parseGameSpec(j);
      if (!spec) return bad(spec.error().message);
      m.spec = *spec;
      break;
    }
    default:
      if (const std::string problem = parseClubFields(j, m); !problem.empty()) return bad(problem);
      break;
  }
  return m;
}

}  // namespace semis::protocol
