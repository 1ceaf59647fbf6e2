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

// The server under test: SEMIS_SERVER_BINARY overrides the binary built with the tests (to run the
// tests against another build, e.g. the one before a fix). The database is a temp SQLite file, or,
// with SEMIS_SERVER_TEST_DB=postgresql and SEMIS_TEST_PG=<admin url>, a fresh PostgreSQL database
// created for this server (and dropped after it).
class ServerProcess {
 public:
  // A temp directory with the database; `extra` are more `semis serve` options.
  explicit ServerProcess(std::vector<std::string> extra = {});
  ~ServerProcess();
  // Spawns with `--port 0` and reads the port from the `listening` log line, then waits for
  // /healthz. A restart after kill9/terminate asks for the same port again.
  bool start();
  void kill9();     // SIGKILL, then reaps
  int terminate();  // SIGTERM; returns the exit status
  // More options, for those that name files in dir().
  void addArgs(const std::vector<std::string>& more) { extra_.insert(extra_.end(), more.begin(), more.end()); }
  // The open-files limit (soft and hard) of the server's process, set in the child before exec.
  void setOpenFilesLimit(int n) { openFiles_ = n; }
  [[nodiscard]] unsigned short port() const { return port_; }
  [[nodiscard]] int pid() const { return pid_; }
  [[nodiscard]] bool running();  // not exited (reaps it if it has)
  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] const std::string& db() const { return db_; }
  [[nodiscard]] std::string logs() const;

 private:
  bool prepareDb();
  unsigned short readPort(std::size_t fromOffset);

  std::vector<std::string> extra_;
  std::string dir_;
  std::string db_;      // the --db value
  std::string pgName_;  // the PostgreSQL database this created, or empty
  unsigned short port_ = 0;
  int pid_ = -1;
  int openFiles_ = 0;
};

struct HttpReply {
  int status = 0;
  std::string body;
  std::string setCookie;  // "semis_token=..." or empty
  std::string contentType;
};
HttpReply http(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "",
               const std::string& cookie = "");
// The same from a chosen local address (loopback has all of 127/8: "127.0.0.2" is another visitor).
HttpReply httpFrom(const std::string& localAddress, unsigned short port, const std::string& method,
                   const std::string& target);
// Sends `request` byte for byte (for targets no client library would write) and reads the answer.
HttpReply rawHttp(unsigned short port, const std::string& request);

class WsClient {
 public:
  WsClient();
  ~WsClient();
  // Connects to /ws; with an empty cookie the server hands a new one (kept in cookie()).
  bool connect(unsigned short port, const std::string& cookie = "");
  // Before connect(): the kernel's receive buffer of the socket (small: a slow reader fills up soon).
  void setReceiveBuffer(int bytes);
  // Before connect(): the address to connect from (loopback has all of 127/8).
  void setLocalAddress(const std::string& address);
  // The HTTP status of the last handshake (101 when it upgraded, 503 when refused, 0: no answer).
  [[nodiscard]] int handshakeStatus() const;
  [[nodiscard]] const std::string& cookie() const;
  void send(const Json& j);
  void sendRaw(const std::string& text, bool binary = false);
  // The next message, or nothing after `timeout` (or once the connection is closed).
  std::optional<Json> next(std::chrono::milliseconds timeout = 3000ms);
  // Reads until a message satisfies `pred`; the ones skipped are kept in skipped().
  std::optional<Json> until(const std::function<bool(const Json&)>& pred, std::chrono::milliseconds timeout = 5000ms);
  std::optional<Json> untilType(const std::string& type, std::chrono::milliseconds timeout = 5000ms);
  [[nodiscard]] bool closed() const;
  // The code of the server's close frame once closed() (1008: policy), 0 when none came.
  [[nodiscard]] int closeCode() const;
  void close();
  std::vector<Json>& skipped();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace semis::test
