// The club's WebSocket messages (docs/club.md): seeks, the lobby switch, invitations.

#include "protocol/Messages.hpp"

#include <cctype>

namespace semis::protocol {

bool validPublicId(std::string_view id) {
  if (id.empty() || id.size() > 32) return false;
  for (char c : id) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

namespace {

// "" or why the field is wrong; an absent field keeps `out`.
std::string readBool(const Json& j, const char* name, bool& out) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return "";
  if (!it->is_boolean()) return std::string("'") + name + "' must be true or false";
  out = it->get<bool>();
  return "";
}

std::string readId(const Json& j, const char* name, std::string& out) {
  const auto it = j.find(name);
  if (it == j.end() || !it->is_string() || !validPublicId(it->get_ref<const std::string&>()))
    return std::string("'") + name + "' (an id) is required";
  out = it->get<std::string>();
  return "";
}

}  // namespace

std::string parseClubFields(const Json& j, ClientMessage& m) {
  ClubRequest& c = m.club;
  switch (m.type) {
    case MsgType::Seek: {
      auto spec = parseGameSpec(j);
      if (!spec) return spec.error().message;
      m.spec = *spec;
      if (auto e = readBool(j, "rated", c.rated); !e.empty()) return e;
      if (auto e = readBool(j, "quick", c.quick); !e.empty()) return e;
      if (auto it = j.find("range"); it != j.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1000)
          return "'range' must be 0..1000 (0: any)";
        c.range = it->get<int>();
      }
      return "";
    }
    case MsgType::CancelSeek:
    case MsgType::AcceptSeek:
      return readId(j, "seek", c.seek);
    case MsgType::Lobby: {
      const auto it = j.find("on");
      if (it == j.end() || !it->is_boolean()) return "'on' (true or false) is required";
      c.on = it->get<bool>();
      return "";
    }
    case MsgType::Invite: {
      if (auto e = readId(j, "friend", c.friendId); !e.empty()) return e;
      const auto s = j.find("spec");
      if (s == j.end()) return "'spec' (as create's) is required";
      auto spec = parseGameSpec(*s);
      if (!spec) return "spec: " + spec.error().message;
      m.spec = *spec;
      m.spec->mode = Mode::Friend;
      return readBool(*s, "rated", c.rated);
    }
    default:
      return "";
  }
}

}  // namespace semis::protocol
