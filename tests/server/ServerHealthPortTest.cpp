// `--health-port`: /healthz on a port and a thread of their own (docs/server.md), for a load
// balancer's checks; nothing else is served there.

#include <gtest/gtest.h>

#include "Play.hpp"

namespace semis::test {
namespace {

TEST(HealthPort, AnswersHealthzOnItsOwnPortAndNothingElse) {
  ServerProcess server({"--health-port", "0"});
  ASSERT_TRUE(server.start()) << server.logs();
  const unsigned short health = listeningPort(server.logs(), "health_port");
  ASSERT_NE(health, 0) << server.logs();
  ASSERT_NE(health, server.port());
  const HttpReply ok = http(health, "GET", "/healthz");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(Json::parse(ok.body, nullptr, false), Json({{"ok", true}}));
  EXPECT_EQ(http(health, "GET", "/api/games").status, 404);
  EXPECT_EQ(http(health, "GET", "/metrics").status, 404);
  // The main port still answers it too.
  EXPECT_EQ(http(server.port(), "GET", "/healthz").status, 200);
}

TEST(HealthPort, ABadHealthPortIsRefusedAtStart) {
  ServerProcess server({"--health-port", "70000"});
  EXPECT_FALSE(server.start());
  EXPECT_NE(server.logs().find("--health-port must be 0..65535"), std::string::npos) << server.logs();
}

}  // namespace
}  // namespace semis::test
