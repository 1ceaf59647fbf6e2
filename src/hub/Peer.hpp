#pragma once
// A connection as the hub and the club see it, and the messages they send it.

#include <memory>
#include <string>

#include "protocol/Json.hpp"

namespace semis::server {

using protocol::Json;
using Message = std::shared_ptr<const std::string>;

// A connected client as the hub sees it. send() must not block: sessions queue the message.
class Peer {
 public:
  virtual ~Peer() = default;
  virtual void send(Message message) = 0;
  // Sends what is queued, then closes the connection (server shutdown).
  virtual void closeSoon() = 0;
  [[nodiscard]] virtual const std::string& token() const = 0;
  [[nodiscard]] virtual const std::string& playerId() const = 0;
  [[nodiscard]] virtual const std::string& address() const = 0;
};

// A message as sessions queue it: dumped once, shared by every connection it goes to.
inline Message text(const Json& j) {
  return std::make_shared<const std::string>(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

}  // namespace semis::server
