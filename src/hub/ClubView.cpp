#include "hub/ClubHooks.hpp"

#include <cmath>

#include "room/Room.hpp"

namespace semis::server {

void writeClubView(protocol::Json& state, const ClubView& view) {
  using protocol::Json;
  state["key"] = view.key ? Json(*view.key) : Json(nullptr);
  for (std::size_t s = 0; s < 2; ++s) {
    const auto& seat = view.seats[s];
    if (!seat) continue;
    state["seats"][s == 0 ? "S" : "N"]["rating"] =
        Json{{"rating", std::round(seat->rating)}, {"provisional", seat->provisional}};
  }
  if (view.ratings) state["ratings"] = ratingChangesJson(*view.ratings);
}

protocol::Json ratingChangesJson(const std::array<ClubView::Change, 2>& changes) {
  using protocol::Json;
  Json ratings = Json::object();
  for (std::size_t s = 0; s < 2; ++s) {
    const ClubView::Change& c = changes[s];
    ratings[s == 0 ? "S" : "N"] =
        Json{{"before", std::round(c.before)}, {"after", std::round(c.after)}, {"change", std::round(c.change)}};
  }
  return ratings;
}

ClubGame clubGameOf(const room::Room& room) {
  ClubGame g{room.id(), room.spec().rules, room.spec().rated, room.status() == "over", {}};
  for (std::size_t s = 0; s < 2; ++s) {
    const std::string& player = room.seats()[s].player;
    if (!player.empty() && player != room::kAiSeat) g.humans[s] = player;
  }
  return g;
}

}  // namespace semis::server
