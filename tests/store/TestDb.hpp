#pragma once
// A fresh, empty database for one test: a file in a new temporary directory (SQLite), or a new
// database `semis_t_<random>` made through the admin URL in SEMIS_TEST_PG and dropped afterwards
// (PostgreSQL).

#include <libpq-fe.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "accounts/Tokens.hpp"

namespace semis::store::testing {

inline std::optional<std::string> pgAdminUrl() {
  const char* url = std::getenv("SEMIS_TEST_PG");
  if (url == nullptr || *url == '\0') return std::nullopt;
  return std::string(url);
}

// The admin URL with its database name replaced: scheme://authority/NAME?query.
inline std::string withDatabase(const std::string& url, const std::string& name) {
  const auto scheme = url.find("://");
  const auto start = scheme == std::string::npos ? 0 : scheme + 3;
  const auto query = url.find('?', start);
  const auto slash = url.find('/', start);
  const auto end = slash != std::string::npos && (query == std::string::npos || slash < query) ? slash : query;
  return url.substr(0, end == std::string::npos ? url.size() : end) + "/" + name +
         (query == std::string::npos ? "" : url.substr(query));
}

// Runs one statement on the admin database; the error text, or empty.
inline std::string pgAdmin(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  std::string error;
  if (PQstatus(conn) != CONNECTION_OK) {
    error = PQerrorMessage(conn);
  } else {
    PGresult* r = PQexec(conn, sql.c_str());
    if (PQresultStatus(r) != PGRES_COMMAND_OK) error = PQresultErrorMessage(r);
    PQclear(r);
  }
  PQfinish(conn);
  return error;
}

class TestDb {
 public:
  explicit TestDb(const std::string& backend) {
    if (backend == "postgresql") {
      admin_ = *pgAdminUrl();
      name_ = "semis_t_" + accounts::randomId(12);
      for (auto& c : name_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      error_ = pgAdmin(admin_, "CREATE DATABASE " + name_);
      where_ = withDatabase(admin_, name_);
      return;
    }
    char tmpl[] = "/tmp/semis-store-test-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
      error_ = "mkdtemp failed";
      return;
    }
    dir_ = tmpl;
    where_ = dir_ + "/t.db";
  }
  ~TestDb() {
    if (!name_.empty() && error_.empty()) (void)pgAdmin(admin_, "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    if (!dir_.empty()) (void)std::system(("chmod -R u+w '" + dir_ + "'; rm -rf '" + dir_ + "'").c_str());
  }
  TestDb(const TestDb&) = delete;
  TestDb& operator=(const TestDb&) = delete;

  [[nodiscard]] const std::string& where() const { return where_; }
  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& admin() const { return admin_; }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  std::string admin_, name_, dir_, where_, error_;
};

}  // namespace semis::store::testing
