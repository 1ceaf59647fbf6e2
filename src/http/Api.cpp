#include "http/Api.hpp"

namespace semis::server {

ApiResponse apiError(ErrorCode code, std::string_view message) {
  Metrics::refused("http", code);
  return apiErrorUncounted(code, message);
}

ApiResponse apiErrorUncounted(ErrorCode code, std::string_view message) {
  // Messages quote client text: dumpJson never throws on it.
  return {protocol::httpStatus(code), "application/json", protocol::dumpJson(protocol::httpErrorBody(code, message))};
}

ApiResponse apiRefused(const Refusal& r) { return apiError(r.code, r.message); }

}  // namespace semis::server
