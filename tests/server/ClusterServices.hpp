#pragma once
// Private Redis and PostgreSQL servers for the cluster tests that take them down (the shared ones
// named by SEMIS_TEST_REDIS and SEMIS_TEST_PG serve other tests at the same time, so they stay up).

#include <string>

namespace semis::test {

// A redis-server child on a loopback port of its own, stopped and started again on that port.
class RedisServer {
 public:
  RedisServer();
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;
  bool start();  // the first time on a free port, then on the same one; true once it answers PING
  void stop();   // SIGTERM, and waits until it is gone
  [[nodiscard]] std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

 private:
  std::string dir_;
  unsigned short port_ = 0;
  int pid_ = -1;
};

// A throwaway PostgreSQL cluster (tools/postgres start), stopped and started again with its data.
class PostgresServer {
 public:
  PostgresServer();
  ~PostgresServer();  // tools/postgres stop: removes it
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;
  bool start();   // a new cluster; url() is then its admin URL
  bool stop();    // pg_ctl stop -m fast: connections are cut, the data stays
  bool resume();  // pg_ctl start on the same port
  [[nodiscard]] const std::string& url() const { return url_; }

 private:
  bool pgCtl(const std::string& args);
  std::string dir_;
  std::string url_;
  std::string port_;
};

}  // namespace semis::test
