// Fuzzes what an instance reads from the bus (src/server/ClusterLink.cpp): a message on a game's
// channel or the instances' channel. Never crashes or throws; an action it accepts has numbered
// events in order, and writes back to JSON that reads as the same action.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "hub/ClusterLink.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace semis::server;
  if (size == 0) return 0;
  const std::string channel =
      data[0] % 2 == 0 ? ClusterLink::instancesChannel("semis") : ClusterLink::gameChannel("semis", "g1");
  const std::string payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto m = decodeBusMessage("semis", channel, payload);
  if (!m || m->kind != BusMessage::Kind::Action) return 0;
  const auto& events = m->action.events;
  if (events.empty()) std::abort();
  for (std::size_t i = 1; i < events.size(); ++i) {
    if (events[i].n != events[i - 1].n + 1) std::abort();
  }
  auto again = actionFromJson(actionJson(m->action));
  if (!again || actionJson(*again) != actionJson(m->action)) std::abort();
  return 0;
}
