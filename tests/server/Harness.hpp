#pragma once
// Black-box test harness: starts the real `semis serve` binary and talks to it over loopback with
// real HTTP and WebSocket clients (Beast, hidden behind this header so tests compile fast).

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace semis::test {

using Json = nlohmann::ordered_json;
using namespace std::chrono_literals;

class ServerProcess {
 public:
  // A temp directory with the database; `extra` are more `semis serve` options.
  explicit ServerProcess(std::vector<std::string> extra = {});
  ~ServerProcess();
  bool start();     // spawns and waits for /healthz
  void kill9();     // SIGKILL, then reaps
  int terminate();  // SIGTERM; returns the exit status
  [[nodiscard]] unsigned short port() const { return port_; }
  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] std::string logs() const;

 private:
  std::vector<std::string> extra_;
  std::string dir_;
  unsigned short port_ = 0;
  int pid_ = -1;
};

struct HttpReply {
  int status = 0;
  std::string body;
  std::string setCookie;  // "semis_token=..." or empty
  std::string contentType;
};
HttpReply http(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "",
               const std::string& cookie = "");

class WsClient {
 public:
  WsClient();
  ~WsClient();
  // Connects to /ws; with an empty cookie the server hands a new one (kept in cookie()).
  bool connect(unsigned short port, const std::string& cookie = "");
  [[nodiscard]] const std::string& cookie() const;
  void send(const Json& j);
  void sendRaw(const std::string& text, bool binary = false);
  // The next message, or nothing after `timeout` (or once the connection is closed).
  std::optional<Json> next(std::chrono::milliseconds timeout = 3000ms);
  // Reads until a message satisfies `pred`; the ones skipped are kept in skipped().
  std::optional<Json> until(const std::function<bool(const Json&)>& pred, std::chrono::milliseconds timeout = 5000ms);
  std::optional<Json> untilType(const std::string& type, std::chrono::milliseconds timeout = 5000ms);
  [[nodiscard]] bool closed() const;
  void close();
  std::vector<Json>& skipped();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace semis::test
