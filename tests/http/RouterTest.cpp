// The route table in-process: patterns, parameters, methods (HEAD with GET), 404 and 405, and the
// first module to claim a path answering it.

#include <gtest/gtest.h>

#include "http/Router.hpp"

namespace semis::server {
namespace {

ApiResponse says(std::string text) { return {200, "text/plain", std::move(text)}; }

class RouterTest : public ::testing::Test {
 protected:
  RouterTest() {
    routes.add("GET", "/api/games/{id}", [](const ApiRequest& r) { return says("state " + std::string(r.params[0])); });
    routes.add("GET", "/api/games/{id}/record",
               [](const ApiRequest& r) { return says("record " + std::string(r.params[0])); });
    routes.add("POST", "/api/games", [](const ApiRequest& r) { return says("create " + std::string(r.body)); });
    routes.add("GET", "/api/games", [](const ApiRequest& r) { return says("list " + std::string(r.query)); });
    routes.add("GET", "/api/players/{rest...}",
               [](const ApiRequest& r) { return says("player " + std::string(r.params[0])); });
    routes.add("GET", "/api/me", [](const ApiRequest&) { return says("club's me"); });
    routes.add("GET", "/api/me", [](const ApiRequest&) { return says("hub's me"); });
    routes.add("*", "/healthz", [](const ApiRequest& r) { return says("health " + std::string(r.method)); });
  }
  std::optional<ApiResponse> ask(std::string_view method, std::string_view target, std::string_view body = "") {
    return routes.dispatch(method, target, body, me);
  }
  Identity me;
  Router routes;
};

TEST_F(RouterTest, ParametersAndTheRestOfThePath) {
  EXPECT_EQ(ask("GET", "/api/games/abc")->body, "state abc");
  EXPECT_EQ(ask("GET", "/api/games/abc/record")->body, "record abc");
  EXPECT_EQ(ask("GET", "/api/players/p1/history?key=kalah")->body, "player p1/history");
  EXPECT_EQ(ask("GET", "/api/games?live=1")->body, "list live=1");
  EXPECT_EQ(ask("POST", "/api/games", "{}")->body, "create {}");
}

TEST_F(RouterTest, HeadIsAGetAndAWrongMethodIs405) {
  EXPECT_EQ(ask("HEAD", "/api/games/abc")->body, "state abc");
  const auto wrong = ask("DELETE", "/api/games/abc");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 405);
  EXPECT_NE(wrong->body.find("bad_method"), std::string::npos);
  EXPECT_EQ(ask("PUT", "/healthz")->body, "health PUT") << "a route for any method";
}

TEST_F(RouterTest, UnknownApiPathsAre404AndOtherPathsAreNotTheApis) {
  for (const char* target :
       {"/api/nothing", "/api/games/", "/api/games/abc/other", "/api/games/abc/record/x", "/api/players"}) {
    const auto r = ask("GET", target);
    ASSERT_TRUE(r) << target;
    EXPECT_EQ(r->status, 404) << target;
  }
  EXPECT_FALSE(ask("GET", "/"));
  EXPECT_FALSE(ask("GET", "/assets/app.js"));
  EXPECT_FALSE(ask("GET", "/apix"));
}

TEST_F(RouterTest, TheFirstModuleToClaimAPathAnswersIt) { EXPECT_EQ(ask("GET", "/api/me")->body, "club's me"); }

}  // namespace
}  // namespace semis::server
