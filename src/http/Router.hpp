#pragma once
// The route table of the JSON HTTP API: each module registers its paths (method, pattern,
// handler) at start-up, and the HTTP session asks the table, knowing no module. Free of any
// network type, so it stays cheap to compile and is tested in-process.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/Api.hpp"

namespace semis::server {

// One request as a handler sees it. `params` are the pattern's `{name}` segments, in order, still
// percent-encoded (a `{name...}` last segment takes the rest of the path, slashes included).
struct ApiRequest {
  std::string_view method;
  std::string_view path;
  std::string_view query;
  std::string_view body;
  const Identity& me;
  std::vector<std::string_view> params;

  [[nodiscard]] bool get() const { return method == "GET" || method == "HEAD"; }
};

using ApiHandler = std::function<ApiResponse(const ApiRequest&)>;

class Router {
 public:
  // `method` is "GET" (which also answers HEAD), "POST", "DELETE", ... or "*" (the handler checks).
  // A path is matched against the patterns in the order they were added: the first whose segments
  // match decides, answering 405 if none of its methods is the request's.
  void add(std::string_view method, std::string_view pattern, ApiHandler handler);

  // The answer, or nothing when no route has the path and it is not under /api/ (a static file).
  // An unknown path under /api/ is 404 not_found.
  [[nodiscard]] std::optional<ApiResponse> dispatch(std::string_view method, std::string_view target,
                                                    std::string_view body, const Identity& me) const;

 private:
  struct Route {
    std::vector<std::string> segments;  // "{}" a parameter, "{...}" the rest
    std::vector<std::pair<std::string, ApiHandler>> methods;
  };
  static bool match(const Route& route, std::string_view path, std::vector<std::string_view>& params);

  std::vector<Route> routes_;
};

}  // namespace semis::server
