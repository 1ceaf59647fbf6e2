// Black-box tests of bot accounts over HTTP (docs/bots.md): a member creates bots (the token shown
// once), lists, renames, gives a new token and revokes them, within the per-owner limit; guests and
// other members cannot see or touch them; bad names change nothing; a bot's profile names its owner;
// a bot neither signs in nor is a friend.

#include <gtest/gtest.h>

#include <set>

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

HttpReply call(unsigned short port, const std::string& method, const std::string& target, const Member& m,
               const Json& body = nullptr) {
  return http(port, method, target, body.is_null() ? "" : body.dump(), m.cookie);
}

std::string errorCode(const HttpReply& r) {
  const Json j = Json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("error") ? j["error"].value("code", "") : "";
}

Json bots(unsigned short port, const Member& m) { return getJson(port, "/api/bots", m.cookie)["bots"]; }

// A bot of `owner`'s, made over HTTP: {"id","name","token"} (null when refused: the test fails).
Json createBot(unsigned short port, const Member& owner, const std::string& stem) {
  auto made = call(port, "POST", "/api/bots", owner, {{"name", uniqueName(stem)}});
  EXPECT_EQ(made.status, 200) << made.body;
  return made.status == 200 ? Json::parse(made.body) : Json(nullptr);
}

TEST(ServerBots, AMemberCreatesListsRenamesRotatesAndRevokesHisBots) {
  ServerProcess server({"--bots-per-owner", "2"});
  ASSERT_TRUE(server.start()) << server.logs();
  const unsigned short port = server.port();
  const Member alice = signUp(port, "alice");
  const std::string name = uniqueName("Crusher ");
  auto made = call(port, "POST", "/api/bots", alice, {{"name", name}});
  ASSERT_EQ(made.status, 200) << made.body;
  const Json bot = Json::parse(made.body);
  const std::string id = bot["id"];
  const std::string token = bot["token"];
  EXPECT_EQ(bot["name"], name);
  EXPECT_EQ(token.size(), 64U);
  // Listed without its token: it was shown once.
  Json list = bots(port, alice);
  ASSERT_EQ(list.size(), 1U) << list;
  EXPECT_EQ(list[0]["id"], id);
  EXPECT_EQ(list[0]["name"], name);
  EXPECT_EQ(list[0]["revoked"], false);
  EXPECT_TRUE(list[0]["created"].is_number());
  EXPECT_EQ(getJson(port, "/api/bots", alice.cookie).dump().find(token), std::string::npos);
  // Its profile: a bot, and whose.
  Json profile = getJson(port, "/api/players/" + id);
  EXPECT_EQ(profile["name"], name);
  EXPECT_EQ(profile["bot"], true);
  EXPECT_EQ(profile["owner"]["id"], alice.id);
  EXPECT_EQ(profile["owner"]["name"], alice.username);
  EXPECT_FALSE(getJson(port, "/api/players/" + alice.id).contains("bot")) << "a person has no bot field";

  // Renamed: the profile says so; a name in another case is its own.
  const std::string renamed = uniqueName("Sower ");
  auto r = call(port, "PATCH", "/api/bots/" + id, alice, {{"name", renamed}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json::parse(r.body)["name"], renamed);
  EXPECT_EQ(getJson(port, "/api/players/" + id)["name"], renamed);

  // The limit (2 here), then a revocation frees a place.
  ASSERT_EQ(call(port, "POST", "/api/bots", alice, {{"name", uniqueName("Second ")}}).status, 200);
  auto third = call(port, "POST", "/api/bots", alice, {{"name", uniqueName("Third ")}});
  EXPECT_EQ(third.status, 409) << third.body;
  EXPECT_EQ(errorCode(third), "bot_limit");
  EXPECT_EQ(bots(port, alice).size(), 2U) << "a refusal adds nothing";

  // A new token, then revoked: both answered, the list says revoked, a revoked bot changes no more.
  auto rotated = call(port, "POST", "/api/bots/" + id + "/token", alice);
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  const std::string token2 = Json::parse(rotated.body)["token"];
  EXPECT_NE(token2, token);
  auto revoked = call(port, "DELETE", "/api/bots/" + id, alice);
  ASSERT_EQ(revoked.status, 200) << revoked.body;
  EXPECT_EQ(call(port, "DELETE", "/api/bots/" + id, alice).status, 200) << "revoking twice is fine";
  list = bots(port, alice);
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list[0]["revoked"], true);
  auto again = call(port, "POST", "/api/bots/" + id + "/token", alice);
  EXPECT_EQ(again.status, 400) << again.body;
  EXPECT_EQ(errorCode(again), "not_allowed");
  EXPECT_EQ(getJson(port, "/api/players/" + id)["name"], renamed) << "its profile stays";
  EXPECT_EQ(call(port, "POST", "/api/bots", alice, {{"name", uniqueName("Third ")}}).status, 200)
      << "a revoked bot frees its place";
}

TEST(ServerBots, OthersCannotSeeOrTouchAMembersBotsAndGuestsHaveNone) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const unsigned short port = server.port();
  const Member alice = signUp(port, "alice");
  const Member bob = signUp(port, "bob");
  const Json made = createBot(port, alice, "Alices ");
  ASSERT_TRUE(made.is_object());
  const std::string id = made["id"];
  const std::string name = made["name"];
  EXPECT_TRUE(bots(port, bob).empty());
  for (const auto& [method, target, body] :
       std::vector<std::tuple<std::string, std::string, Json>>{{"PATCH", "/api/bots/" + id, {{"name", "Stolen"}}},
                                                               {"POST", "/api/bots/" + id + "/token", nullptr},
                                                               {"DELETE", "/api/bots/" + id, nullptr},
                                                               {"PATCH", "/api/bots/" + alice.id, {{"name", "Me"}}},
                                                               {"DELETE", "/api/bots/..%2f", nullptr}}) {
    auto r = call(port, method, target, bob, body);
    EXPECT_EQ(r.status, 404) << method << " " << target << ": " << r.body;
    EXPECT_EQ(errorCode(r), "not_found");
  }
  Json list = bots(port, alice);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_EQ(list[0]["name"], name) << "untouched";
  EXPECT_EQ(list[0]["revoked"], false);

  // A guest (with or without a cookie) owns no bots.
  const Member guest{newCookie(port), "", ""};
  for (const Member& who : {guest, Member{}}) {
    auto g = call(port, "GET", "/api/bots", who);
    EXPECT_EQ(g.status, 401) << g.body;
    EXPECT_EQ(errorCode(g), "sign_in_needed");
    auto p = call(port, "POST", "/api/bots", who, {{"name", "Guest bot"}});
    EXPECT_EQ(p.status, 401) << p.body;
    EXPECT_EQ(call(port, "DELETE", "/api/bots/" + id, who).status, 401);
  }
  EXPECT_EQ(bots(port, alice).size(), 1U);
}

TEST(ServerBots, BadNamesAndBodiesAreRefusedAndChangeNothing) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const unsigned short port = server.port();
  const Member alice = signUp(port, "alice");
  const Member bob = signUp(port, "bob");
  const Json made = createBot(port, alice, "Taken ");
  ASSERT_TRUE(made.is_object());
  const std::string id = made["id"];
  const std::string name = made["name"];
  for (const std::string& bad : {std::string(), std::string(25, 'x'), std::string(" lead"), std::string("trail "),
                                 std::string("tab\there"), std::string("zero\xe2\x80\x8bwidth")}) {
    auto r = call(port, "POST", "/api/bots", alice, {{"name", bad}});
    EXPECT_EQ(r.status, 400) << bad << ": " << r.body;
    EXPECT_EQ(errorCode(r), "bad_name") << bad;
    auto p = call(port, "PATCH", "/api/bots/" + id, alice, {{"name", bad}});
    EXPECT_EQ(errorCode(p), "bad_name") << bad;
  }
  for (const std::string& body : {std::string("{"), std::string("[]"), std::string("{\"name\":5}"), std::string(""),
                                  std::string("{\"name\":\"\xff\xfe\"}")}) {
    auto r = http(port, "POST", "/api/bots", body, alice.cookie);
    EXPECT_EQ(r.status, 400) << body << ": " << r.body;
    EXPECT_EQ(errorCode(r), "bad_message");
  }
  if (!onCluster()) {  // (through HAProxy the server's early 413 may reach the client as a reset)
    auto big = http(port, "POST", "/api/bots", Json{{"name", std::string(20000, 'x')}}.dump(), alice.cookie);
    EXPECT_EQ(big.status, 413) << "bodies are bounded";
  }
  // Names are unique among bots and members, whatever the case.
  for (const std::string& taken : {name, std::string("TAKEN ") + name.substr(6), bob.username}) {
    auto r = call(port, "POST", "/api/bots", alice, {{"name", taken}});
    EXPECT_EQ(r.status, 409) << taken << ": " << r.body;
    EXPECT_EQ(errorCode(r), "name_taken");
  }
  // A member cannot sign up with a bot's name.
  const std::string cookie = newCookie(port);
  const std::string botUsername = uniqueName("botname");
  ASSERT_EQ(call(port, "POST", "/api/bots", bob, {{"name", botUsername}}).status, 200);
  auto signup =
      http(port, "POST", "/api/account/signup", Json{{"username", botUsername}, {"password", "correct horse"}}.dump(), cookie);
  EXPECT_EQ(signup.status, 409) << signup.body;
  EXPECT_EQ(errorCode(signup), "username_taken");
  Json list = bots(port, alice);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_EQ(list[0]["name"], name);
  // A bot has no password: its name signs nobody in.
  auto signin =
      http(port, "POST", "/api/account/signin", Json{{"username", name}, {"password", "correct horse"}}.dump(), cookie);
  EXPECT_EQ(signin.status, 401) << signin.body;
  EXPECT_EQ(errorCode(signin), "bad_credentials");
  // A bot is no friend (by its name), and not blocked either.
  for (const char* path : {"/api/friends", "/api/blocks"}) {
    auto f = http(port, "POST", path, Json{{"username", name}}.dump(), bob.cookie);
    EXPECT_EQ(f.status, 400) << f.body;
    EXPECT_EQ(errorCode(f), "not_for_bots");
  }
}

TEST(ServerBots, WritesAreRateLimitedPerAddress) {
  if (onCluster()) GTEST_SKIP() << "cluster: an address's writes are counted per instance (docs/scaling.md, limits)";
  ServerProcess server({"--bots-per-owner", "1000"});
  ASSERT_TRUE(server.start()) << server.logs();
  const unsigned short port = server.port();
  const Member alice = signUp(port, "alice");
  int limited = 0;
  std::set<std::string> ids;
  for (int i = 0; i < 30; ++i) {
    auto r = call(port, "POST", "/api/bots", alice, {{"name", uniqueName("Flood ") + std::to_string(i)}});
    if (r.status == 429) {
      ++limited;
      EXPECT_EQ(errorCode(r), "rate_limited");
    } else if (r.status == 200) {
      ids.insert(Json::parse(r.body)["id"].get<std::string>());
    }
  }
  EXPECT_GT(limited, 0);
  EXPECT_EQ(bots(port, alice).size(), ids.size()) << "a refused write made nothing";
}

}  // namespace
}  // namespace semis::test
