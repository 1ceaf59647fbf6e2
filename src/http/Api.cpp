#include "http/Api.hpp"

namespace semis::server {

ApiResponse apiError(int status, std::string_view code, std::string_view message) {
  Metrics::refused("http", code);
  // Messages quote client text: dumpJson never throws on it.
  return {status, "application/json", protocol::dumpJson(Json{{"error", {{"code", code}, {"message", message}}}})};
}

ApiResponse apiRefused(const Refusal& r) {
  int status = 400;
  if (r.code == "rate_limited" || r.code == "too_many_games") status = 429;
  if (r.code == "busy" || r.code == "unavailable") status = 503;
  if (r.code == "internal") status = 500;
  if (r.code == "not_found") status = 404;
  if (r.code == "blocked") status = 403;
  return apiError(status, r.code, r.message);
}

}  // namespace semis::server
