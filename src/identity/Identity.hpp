#pragma once
// Who a request or a connection is. A guest is known by his cookie's token from his first visit,
// but has a row in the store only once he acts (creates or joins a game, renames himself, moves):
// visits alone write nothing and keep nothing in memory.

#include <string>

namespace semis::server {

struct Identity {
  std::string token;
  std::string id;
  std::string name;
  bool created = false;  // a new token: the answer sets the cookie
  bool stored = false;   // the player's row exists
  std::string address;   // the client's IP address, for per-address limits
  std::string device;    // its User-Agent (HTTP only): what a new session is described as
};

// A guest's name until he chooses one (or signs up: then his username).
[[nodiscard]] std::string guestName(const std::string& id);

}  // namespace semis::server
