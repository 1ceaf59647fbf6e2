#include "ClusterServices.hpp"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <thread>

#include "Harness.hpp"

namespace semis::test {

namespace {

std::string tempDir(const char* prefix) {
  std::string tmpl = std::string("/tmp/") + prefix + "-XXXXXX";
  const char* d = mkdtemp(tmpl.data());
  return d != nullptr ? d : "";
}

// The command's standard output, without its last newline; empty when it failed.
std::string output(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return {};
  std::string out;
  std::array<char, 256> buf{};
  while (std::fgets(buf.data(), buf.size(), p) != nullptr) out += buf.data();
  if (pclose(p) != 0) return {};
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

RedisServer::RedisServer() : dir_(tempDir("semis-test-redis")) {}

RedisServer::~RedisServer() {
  stop();
  if (!dir_.empty()) (void)std::system(("rm -rf '" + dir_ + "'").c_str());
}

bool RedisServer::start() {
  if (dir_.empty()) return false;
  if (port_ == 0) port_ = freePort();
  pid_ = spawnProcess({"redis-server", "--port", std::to_string(port_), "--bind", "127.0.0.1", "--save", "",
                       "--appendonly", "no", "--dir", dir_},
                      dir_ + "/redis.log");
  const std::string ping = "redis-cli -h 127.0.0.1 -p " + std::to_string(port_) + " ping 2>/dev/null";
  for (int k = 0; k < 200; ++k) {
    if (output(ping) == "PONG") return true;
    std::this_thread::sleep_for(25ms);
  }
  return false;
}

void RedisServer::stop() { stopProcess(pid_, SIGTERM); }

PostgresServer::PostgresServer() : dir_(tempDir("semis-test-pgown")) {}

PostgresServer::~PostgresServer() {
  if (!dir_.empty())
    (void)std::system(("'" SEMIS_SOURCE_DIR "/tools/postgres' stop '" + dir_ + "' >/dev/null 2>&1").c_str());
}

bool PostgresServer::start() {
  if (dir_.empty()) return false;
  url_ = output("'" SEMIS_SOURCE_DIR "/tools/postgres' start '" + dir_ + "'");
  // postgresql://postgres@127.0.0.1:PORT/postgres
  const auto colon = url_.rfind(':');
  const auto slash = url_.rfind('/');
  if (url_.empty() || colon == std::string::npos || slash == std::string::npos || slash < colon) return false;
  port_ = url_.substr(colon + 1, slash - colon - 1);
  return true;
}

bool PostgresServer::pgCtl(const std::string& args) {
  // As tools/postgres does: the cluster belongs to the postgres user when we are root.
  const std::string as = geteuid() == 0 ? "runuser -u postgres -- " : "";
  return std::system(
             ("cd / && " + as + "/usr/lib/postgresql/15/bin/pg_ctl -D '" + dir_ + "' " + args + " >/dev/null 2>&1")
                 .c_str()) == 0;
}

bool PostgresServer::stop() { return pgCtl("-m fast -w -t 60 stop"); }

bool PostgresServer::resume() {
  return pgCtl("-l '" + dir_ +
               "/server.log' -w -t 60 start -o \"-c listen_addresses=127.0.0.1 "
               "-c unix_socket_directories='' -p " +
               port_ + "\"");
}

}  // namespace semis::test
