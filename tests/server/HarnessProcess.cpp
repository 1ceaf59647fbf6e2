// The server under test as processes: one `semis serve`, or a cluster of them behind HAProxy
// (Harness.hpp says which and how).

#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "Harness.hpp"

namespace semis::test {

namespace {

std::string makeTempDir() {
  char tmpl[] = "/tmp/semis-server-test-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d != nullptr ? d : "/tmp";
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string readFrom(const std::string& path, std::size_t offset) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(static_cast<std::streamoff>(offset));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t fileSize(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// The admin URL with its database replaced by `name` (postgresql://u:p@h:5432/postgres?x=y -> .../name?x=y).
std::string withDatabase(const std::string& url, const std::string& name) {
  const auto scheme = url.find("://");
  const std::size_t hostStart = scheme == std::string::npos ? 0 : scheme + 3;
  const auto query = url.find('?', hostStart);
  const auto slash = url.find('/', hostStart);
  const std::size_t pathStart = slash != std::string::npos && slash < query ? slash : std::min(query, url.size());
  const std::string rest = query == std::string::npos ? std::string() : url.substr(query);
  return url.substr(0, pathStart) + "/" + name + rest;
}

std::string randomHex() {
  std::random_device rd;
  char s[20];
  std::snprintf(s, sizeof s, "%08x%08x", rd(), rd());
  return s;
}

// The sanitizer options of a process started at an open-files limit, or "" to keep the test's.
// UBSan's vptr check reads a vtable only once a pipe has shown it readable (sanitizer_common's
// IsAccessibleMemoryRange, Clang 14); a process out of descriptors cannot make the pipe, and every
// virtual call whose type the check has not cached yet is reported as "invalid vptr" and stops the
// server (seen on Boost's error category while it logs the EMFILE, and on the club's store in the
// rating sweep). Such a server is starved on purpose, so its vptr checks are suppressed
// (tests/ubsan-starved-suppressions.txt); its other checks and AddressSanitizer stay.
std::string starvedUbsanOptions() {
  const char* options = std::getenv("UBSAN_OPTIONS");
  if (options == nullptr) return "";
  return std::string(options) + ":suppressions=" SEMIS_SOURCE_DIR "/tests/ubsan-starved-suppressions.txt";
}

// Forks `args` with stdout and stderr appended to `logPath`; -1 when fork fails.
int spawn(const std::vector<std::string>& args, const std::string& logPath, int openFiles) {
  std::vector<std::string> copy = args;
  const std::string ubsan = openFiles > 0 ? starvedUbsanOptions() : "";
  const int pid = fork();
  if (pid != 0) return pid;
  if (openFiles > 0) {
    const rlimit lim{static_cast<rlim_t>(openFiles), static_cast<rlim_t>(openFiles)};
    setrlimit(RLIMIT_NOFILE, &lim);
    if (!ubsan.empty()) setenv("UBSAN_OPTIONS", ubsan.c_str(), 1);
  }
  FILE* log = std::fopen(logPath.c_str(), "a");
  if (log != nullptr) {
    dup2(fileno(log), 1);
    dup2(fileno(log), 2);
  }
  // The test's own sockets must not live on in the child (nor count against its limit).
  for (int fd = 3; fd < 65536; ++fd) ::close(fd);
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  _exit(127);
}

bool exited(int& pid) {
  if (pid <= 0) return true;
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) == pid) {
    pid = -1;
    return true;
  }
  return false;
}

void killAndReap(int& pid) {
  if (pid <= 0) return;
  ::kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  pid = -1;
}

// The port of the `listening` line of the log after `fromOffset` (this start's), or 0.
unsigned short readPort(const std::string& logPath, std::size_t fromOffset) {
  return listeningPort(readFrom(logPath, fromOffset), "port");
}

}  // namespace

int spawnProcess(const std::vector<std::string>& args, const std::string& logPath) { return spawn(args, logPath, 0); }

void stopProcess(int& pid, int signal) {
  if (pid <= 0) return;
  ::kill(pid, signal);
  for (int k = 0; k < 400; ++k) {
    if (exited(pid)) return;
    std::this_thread::sleep_for(25ms);
  }
  killAndReap(pid);
}

bool onCluster() { return env("SEMIS_SERVER_TEST_DB") == "cluster"; }

std::optional<ClusterSpec> clusterSpecFromEnv() {
  ClusterSpec spec;
  spec.pgAdmin = env("SEMIS_TEST_PG");
  spec.redis = env("SEMIS_TEST_REDIS");
  if (spec.pgAdmin.empty() || spec.redis.empty()) return std::nullopt;
  return spec;
}

unsigned short listeningPort(const std::string& logs, const std::string& field) {
  unsigned short port = 0;
  std::istringstream lines(logs);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"listening\"") == std::string::npos) continue;
    auto j = Json::parse(line, nullptr, false);
    if (j.is_object() && j.value("event", "") == "listening" && j.contains(field) && j[field].is_number_integer() &&
        j[field].get<int>() > 0 && j[field].get<int>() <= 65535) {
      port = static_cast<unsigned short>(j[field].get<int>());
    }
  }
  return port;
}

unsigned short freePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  unsigned short port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

ServerProcess::ServerProcess(std::vector<std::string> extra)
    : extra_(std::move(extra)), dir_(makeTempDir()), procs_(1) {
  procs_[0].log = dir_ + "/server.log";
  if (onCluster()) {
    // Without the services start() says what is missing; the spec stays empty until then.
    useCluster(clusterSpecFromEnv().value_or(ClusterSpec{}));
  }
}

ServerProcess::~ServerProcess() {
  for (auto& p : procs_) killAndReap(p.pid);
  killAndReap(proxy_.pid);
  if (!pgName_.empty()) {
    const std::string drop = "psql " + shellQuote(pgAdmin_) + " -qc " +
                             shellQuote("DROP DATABASE IF EXISTS " + pgName_ + " WITH (FORCE)") + " >/dev/null 2>&1";
    (void)std::system(drop.c_str());
  }
  std::string cmd = "rm -rf '" + dir_ + "'";
  if (std::getenv("SEMIS_KEEP_TEST_DIRS") == nullptr) (void)std::system(cmd.c_str());
}

void ServerProcess::useCluster(ClusterSpec spec) {
  procs_.assign(static_cast<std::size_t>(std::max(1, spec.instances)), Proc{});
  for (std::size_t i = 0; i < procs_.size(); ++i) procs_[i].log = dir_ + "/i" + std::to_string(i) + ".log";
  proxy_.log = dir_ + "/haproxy.log";
  site_ = std::string("t").append(randomHex());  // channels and keys of its own in a shared Redis
  cluster_ = std::move(spec);
}

bool ServerProcess::prepareDb() {
  const std::string kind = env("SEMIS_SERVER_TEST_DB");
  if (!clustered() && kind != "postgresql") {
    db_ = dir_ + "/semis.db";
    return true;
  }
  if (clustered() && (cluster_->pgAdmin.empty() || cluster_->redis.empty())) {
    std::fprintf(stderr, "a cluster needs SEMIS_TEST_PG=<admin url> and SEMIS_TEST_REDIS=redis://...\n");
    return false;
  }
  const std::string admin = clustered() ? cluster_->pgAdmin : env("SEMIS_TEST_PG");
  if (admin.empty()) {
    std::fprintf(stderr, "SEMIS_SERVER_TEST_DB=postgresql needs SEMIS_TEST_PG=<admin url>\n");
    return false;
  }
  const std::string name = "semis_t_" + randomHex();
  const std::string create = "psql " + shellQuote(admin) + " -v ON_ERROR_STOP=1 -qc " +
                             shellQuote("CREATE DATABASE " + name) + " >>" + shellQuote(dir_ + "/psql.log") + " 2>&1";
  if (std::system(create.c_str()) != 0) {
    std::fprintf(stderr, "could not create the test database: %s\n", readFrom(dir_ + "/psql.log", 0).c_str());
    return false;
  }
  pgAdmin_ = admin;
  pgName_ = name;
  db_ = withDatabase(admin, name);
  return true;
}

std::vector<std::string> ServerProcess::instanceArgs(int i) const {
  const char* binary = std::getenv("SEMIS_SERVER_BINARY");
  // The first start takes any free port (no race for one); a restart asks for the same port again.
  std::vector<std::string> args{binary != nullptr ? binary : SEMIS_BINARY, "serve", "--port",
                                std::to_string(procs_.at(i).port),         "--db",  db_};
  if (clustered()) {
    const std::vector<std::string> more{
        "--redis", cluster_->redis, "--instance",   std::string("i").append(std::to_string(i)),
        "--site",  site_,           "--trust-proxy"};
    args.insert(args.end(), more.begin(), more.end());
  }
  for (const auto& e : extra_) args.push_back(e);
  return args;
}

bool ServerProcess::startInstance(int i) {
  Proc& p = procs_.at(i);
  if (p.pid > 0 && !exited(p.pid)) return true;
  const std::size_t logStart = fileSize(p.log);
  p.pid = spawn(instanceArgs(i), p.log, openFiles_);
  if (p.pid < 0) return false;
  for (int k = 0; k < 400; ++k) {
    std::this_thread::sleep_for(25ms);
    if (exited(p.pid)) return false;
    const unsigned short port = readPort(p.log, logStart);
    if (port == 0) continue;
    p.port = port;
    for (int h = 0; h < 200; ++h) {
      if (http(p.port, "GET", "/healthz").status == 200) return true;
      std::this_thread::sleep_for(25ms);
    }
    return false;
  }
  return false;
}

bool ServerProcess::startProxy() {
  // HAProxy cannot take port 0 and say which it got: a port free a moment ago, tried again if
  // somebody took it meanwhile (HAProxy then exits at once).
  for (int attempt = 0; attempt < 5; ++attempt) {
    proxy_.port = freePort();
    const std::string cfg = dir_ + "/haproxy.cfg";
    std::ofstream out(cfg, std::ios::trunc);
    out << "global\n"
           "  log stdout format raw local0 notice\n"
           "defaults\n"
           "  mode http\n"
           "  log global\n"
           // The client's address for --trust-proxy, as in production.
           "  option forwardfor\n"
           // A connection refused by a dead instance not yet marked down goes to another one.
           "  option redispatch\n"
           "  retries 3\n"
           "  timeout connect 1s\n"
           "  timeout client 60s\n"
           "  timeout server 60s\n"
           "  timeout http-request 10s\n"
           // Upgraded WebSockets are tunnels that live for a whole game; the server pings them.
           "  timeout tunnel 1h\n"
           "  timeout client-fin 1s\n"
           "frontend semis\n"
           "  bind 127.0.0.1:"
        << proxy_.port
        << "\n"
           "  default_backend instances\n"
           "backend instances\n"
           "  balance roundrobin\n"
           "  option httpchk GET /healthz\n"
           "  http-check expect status 200\n"
           // Quick failover: a dead instance is out after 2 checks 200 ms apart, back after one.
           "  default-server check inter 200ms fall 2 rise 1\n";
    for (std::size_t i = 0; i < procs_.size(); ++i) out << "  server i" << i << " 127.0.0.1:" << procs_[i].port << "\n";
    out.close();
    const std::string haproxy = ::access("/usr/sbin/haproxy", X_OK) == 0 ? "/usr/sbin/haproxy" : "haproxy";
    proxy_.pid = spawn({haproxy, "-f", cfg, "-db"}, proxy_.log, 0);
    if (proxy_.pid < 0) return false;
    if (waitForProxy()) return true;
    killAndReap(proxy_.pid);
  }
  std::fprintf(stderr, "HAProxy did not answer /healthz:\n%s\n", proxyLogs().c_str());
  return false;
}

bool ServerProcess::waitForProxy() {
  for (int k = 0; k < 400; ++k) {
    if (exited(proxy_.pid)) return false;
    if (http(proxy_.port, "GET", "/healthz").status == 200) return true;
    std::this_thread::sleep_for(25ms);
  }
  return false;
}

bool ServerProcess::start() {
  if (db_.empty() && !prepareDb()) return false;
  for (int i = 0; i < instances(); ++i) {
    if (!startInstance(i)) return false;
  }
  if (!clustered()) return true;
  if (proxy_.pid > 0 && !exited(proxy_.pid)) return waitForProxy();
  return startProxy();
}

bool ServerProcess::instanceRunning(int i) {
  Proc& p = procs_.at(i);
  return !exited(p.pid);
}

bool ServerProcess::running() {
  bool all = true;
  for (int i = 0; i < instances(); ++i) all = instanceRunning(i) && all;
  return all;
}

void ServerProcess::killInstance(int i) { killAndReap(procs_.at(i).pid); }

void ServerProcess::kill9() {
  for (auto& p : procs_) killAndReap(p.pid);
}

int ServerProcess::terminate() {
  // Every instance is told at once, as an orchestrator stopping the whole site would.
  bool any = false;
  for (auto& p : procs_) {
    if (p.pid <= 0) continue;
    ::kill(p.pid, SIGTERM);
    any = true;
  }
  if (!any) return -1;
  int result = 0;
  for (auto& p : procs_) {
    if (p.pid <= 0) continue;
    int status = 0;
    int code = -1;
    for (int k = 0; k < 400; ++k) {
      if (waitpid(p.pid, &status, WNOHANG) == p.pid) {
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        p.pid = -1;
        break;
      }
      std::this_thread::sleep_for(25ms);
    }
    if (p.pid > 0) killAndReap(p.pid);
    if (result == 0) result = code;
  }
  return result;
}

std::string ServerProcess::instanceLogs(int i) const { return readFrom(procs_.at(i).log, 0); }

std::string ServerProcess::logs() const {
  std::string all;
  for (int i = 0; i < instances(); ++i) all += instanceLogs(i);
  return all;
}

std::string ServerProcess::proxyLogs() const { return readFrom(proxy_.log, 0); }

}  // namespace semis::test
