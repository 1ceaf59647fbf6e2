#pragma once
// Black-box test harness: starts the real `semis serve` binary and talks to it over loopback with
// real HTTP and WebSocket clients (Beast, hidden behind this header so tests compile fast).

#include <chrono>
#include <functional>
#include <map>
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
//
// With SEMIS_SERVER_TEST_DB=cluster (and SEMIS_TEST_PG, SEMIS_TEST_REDIS), or after useCluster(),
// the "server" is a cluster (docs/scaling.md): 3 instances sharing one fresh PostgreSQL database and
// one Redis under a site name of their own (so clusters of tests running at once never see each
// other), behind an HAProxy whose port is port(). What a test does to "the server" (start, kill9,
// terminate) it does to every instance; killInstance/startInstance act on one.
struct ClusterSpec {
  std::string pgAdmin;  // the admin URL of the PostgreSQL in which the database is created
  std::string redis;    // redis://HOST:PORT
  int instances = 3;
};

// SEMIS_SERVER_TEST_DB=cluster: the tests run through HAProxy against several instances.
bool onCluster();
// The spec SEMIS_SERVER_TEST_DB=cluster asks for, or nothing when SEMIS_TEST_PG or SEMIS_TEST_REDIS is unset.
std::optional<ClusterSpec> clusterSpecFromEnv();
// The port `field` ("port", "kgp_port", "health_port") of the last `listening` line in a server's
// `logs` (a restarted server listens anew), or 0 when none names one.
unsigned short listeningPort(const std::string& logs, const std::string& field);
// A loopback port nothing listened on a moment ago (bound to 0, then closed): for programs that
// cannot take `--port 0` and say which port they got.
unsigned short freePort();
// A child process with its stdout and stderr appended to `logPath`: its pid, or -1.
int spawnProcess(const std::vector<std::string>& args, const std::string& logPath);
// Sends `signal`, waits for the process (SIGKILL after 10 s) and reaps it; pid becomes -1.
void stopProcess(int& pid, int signal);

class ServerProcess {
 public:
  // A temp directory with the database; `extra` are more `semis serve` options.
  explicit ServerProcess(std::vector<std::string> extra = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  // Before start(): run as a cluster on these services, whatever SEMIS_SERVER_TEST_DB says.
  void useCluster(ClusterSpec spec);
  // Spawns with `--port 0` and reads the port from the `listening` log line, then waits for
  // /healthz. A restart after kill9/terminate asks for the same port again. In a cluster: every
  // instance not running, then HAProxy if it is not running, until HAProxy answers /healthz.
  bool start();
  void kill9();     // SIGKILL, then reaps (every instance; HAProxy stays)
  int terminate();  // SIGTERM; returns the exit status (in a cluster the first non-zero one)
  // More options, for those that name files in dir().
  void addArgs(const std::vector<std::string>& more) { extra_.insert(extra_.end(), more.begin(), more.end()); }
  // The open-files limit (soft and hard) of the server's process, set in the child before exec.
  void setOpenFilesLimit(int n) { openFiles_ = n; }
  // The port clients use: the server's, or HAProxy's in a cluster.
  [[nodiscard]] unsigned short port() const { return clustered() ? proxy_.port : procs_[0].port; }
  [[nodiscard]] int pid() const { return procs_[0].pid; }
  [[nodiscard]] bool running();  // not exited (reaps it if it has); in a cluster: every instance
  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] const std::string& db() const { return db_; }
  // Every instance's log lines (JSON, one object a line), one instance after the other.
  [[nodiscard]] std::string logs() const;

  [[nodiscard]] bool clustered() const { return cluster_.has_value(); }
  [[nodiscard]] int instances() const { return static_cast<int>(procs_.size()); }
  [[nodiscard]] unsigned short instancePort(int i) const { return procs_.at(i).port; }
  [[nodiscard]] const std::string& site() const { return site_; }
  void killInstance(int i);  // SIGKILL, then reaps
  bool startInstance(int i);  // on the port it had, and waits for its /healthz
  [[nodiscard]] bool instanceRunning(int i);
  [[nodiscard]] std::string instanceLogs(int i) const;
  [[nodiscard]] std::string proxyLogs() const;

 private:
  struct Proc {
    int pid = -1;
    unsigned short port = 0;
    std::string log;
  };
  bool prepareDb();
  bool startProxy();
  bool waitForProxy();
  std::vector<std::string> instanceArgs(int i) const;

  std::vector<std::string> extra_;
  std::string dir_;
  std::string db_;      // the --db value
  std::string pgAdmin_;  // the admin URL of the PostgreSQL that holds pgName_
  std::string pgName_;  // the PostgreSQL database this created, or empty
  std::optional<ClusterSpec> cluster_;
  std::string site_;
  std::vector<Proc> procs_;  // the server, or the cluster's instances
  Proc proxy_;               // HAProxy, in a cluster
  int openFiles_ = 0;
};

struct HttpReply {
  int status = 0;
  std::string body;
  std::string setCookie;  // "semis_token=..." or empty
  std::string contentType;
  std::map<std::string, std::string> headers;  // every field, its name in lower case (repeated ones joined by ", ")
};
HttpReply http(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "",
               const std::string& cookie = "");
// The same from a chosen local address (loopback has all of 127/8: "127.0.0.2" is another visitor).
HttpReply httpFrom(const std::string& localAddress, unsigned short port, const std::string& method,
                   const std::string& target);
// Sends `request` byte for byte (for targets no client library would write, or headers of one's
// choosing) and reads the answer; a request that starts with "HEAD " reads an answer without a body.
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
  // Before connect(): the Origin header a browser's page would send (none by default, as a bot).
  void setOrigin(const std::string& origin);
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
