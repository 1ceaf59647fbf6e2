#include "http/Router.hpp"

namespace semis::server {

namespace {

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> out;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (true) {
    const auto slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) return out;
    path.remove_prefix(slash + 1);
  }
}

}  // namespace

void Router::add(std::string_view method, std::string_view pattern, ApiHandler handler) {
  std::vector<std::string> segments;
  for (std::string_view s : split(pattern)) {
    if (s.size() > 5 && s.substr(s.size() - 4) == "...}") {
      segments.emplace_back("{...}");
    } else if (s.size() > 2 && s.front() == '{' && s.back() == '}') {
      segments.emplace_back("{}");
    } else {
      segments.emplace_back(s);
    }
  }
  for (Route& r : routes_) {
    if (r.segments == segments) {
      r.methods.emplace_back(method, std::move(handler));
      return;
    }
  }
  routes_.push_back(Route{std::move(segments), {{std::string(method), std::move(handler)}}});
}

bool Router::match(const Route& route, std::string_view path, std::vector<std::string_view>& params) {
  params.clear();
  std::string_view rest = path.substr(path.empty() || path.front() != '/' ? 0 : 1);
  for (std::size_t i = 0; i < route.segments.size(); ++i) {
    const std::string& want = route.segments[i];
    if (want == "{...}") {
      params.push_back(rest);
      return true;
    }
    const auto slash = rest.find('/');
    const std::string_view seg = rest.substr(0, slash);
    const bool last = i + 1 == route.segments.size();
    if (want == "{}") {
      if (seg.empty()) return false;
      params.push_back(seg);
    } else if (seg != want) {
      return false;
    }
    if (last) return slash == std::string_view::npos;
    if (slash == std::string_view::npos) return false;
    rest.remove_prefix(slash + 1);
  }
  return false;
}

std::optional<ApiResponse> Router::dispatch(std::string_view method, std::string_view target, std::string_view body,
                                            const Identity& me) const {
  const std::string_view path = target.substr(0, target.find('?'));
  const std::string_view query = target.size() > path.size() ? target.substr(path.size() + 1) : std::string_view();
  ApiRequest request{method, path, query, body, me, {}};
  for (const Route& route : routes_) {
    if (!match(route, path, request.params)) continue;
    std::string allowed;
    for (const auto& [m, handler] : route.methods) {
      if (m == "*" || m == method || (m == "GET" && method == "HEAD")) return handler(request);
      allowed += (allowed.empty() ? "" : " or ") + m;
    }
    return apiError(405, "bad_method", allowed);
  }
  if (path.substr(0, 5) == "/api/") return apiError(404, "not_found", "no such endpoint");
  return std::nullopt;
}

}  // namespace semis::server
