#include "ops/Log.hpp"

#include <chrono>
#include <cstdio>

namespace semis::server {

void logLine(std::string_view level, std::string_view event, protocol::Json fields) {
  using namespace std::chrono;
  protocol::Json j{{"ts", duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()},
                   {"level", level},
                   {"event", event}};
  for (auto& [k, v] : fields.items()) j[k] = v;
  std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line += '\n';
  // One write per line: lines from different threads never interleave.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace semis::server
