#include "club/Club.hpp"

namespace semis::server {

void Club::onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg) {
  using protocol::MsgType;
  switch (msg.type) {
    case MsgType::Seek:
      return matchmaker_.seek(peer, msg);
    case MsgType::CancelSeek:
      return matchmaker_.cancel(peer, msg.club.seek);
    case MsgType::AcceptSeek:
      return matchmaker_.accept(peer, msg.club.seek);
    case MsgType::Lobby:
      return matchmaker_.watchLobby(peer, msg.club.on);
    case MsgType::Invite:
      return friends_.invite(peer, msg);
    case MsgType::Decline:
      return friends_.decline(peer, msg.game);
    default:
      return;
  }
}

}  // namespace semis::server
