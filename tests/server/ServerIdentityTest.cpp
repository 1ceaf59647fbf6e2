// Black-box tests of who a request is (docs/club.md, "Accounts" and "Sessions"): a session that
// ended never speaks for its player again, on any device or instance; sign-up names the player by
// his username; a deleted player is "Deleted player" at once, also in the games being played; every
// answer carries the security headers, and only the site's own pages may open a WebSocket.

#include <gtest/gtest.h>

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

Json me(unsigned short port, const std::string& cookie) { return getJson(port, "/api/me", cookie); }

Member signIn(unsigned short port, const Member& m, const std::string& password = "correct horse") {
  Member other = m;
  auto r = http(port, "POST", "/api/account/signin", Json{{"username", m.username}, {"password", password}}.dump(),
                newCookie(port));
  EXPECT_EQ(r.status, 200) << r.body;
  other.cookie = r.setCookie.substr(0, r.setCookie.find(';'));
  return other;
}

// A cookie that the server no longer knows is a new guest: a new id, no account. (One server knows
// at once; a cluster's other instances within the bus's delay, hence `eventually`.)
void expectNewGuest(unsigned short port, const std::string& cookie, const Member& was) {
  std::string body;
  EXPECT_TRUE(eventually([&] {
    const auto r = http(port, "GET", "/api/me", "", cookie);
    body = r.body;
    const Json j = Json::parse(r.body, nullptr, false);
    return r.status == 200 && j.is_object() && j["id"] != was.id && j["username"].is_null();
  })) << "an ended session still speaks for its player: " << body;
}

TEST(ServerIdentity, ASignedOutCookieIsANewGuestEverywhere) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann");
  ASSERT_EQ(me(port, ann.cookie)["id"], ann.id);
  const auto out = http(port, "POST", "/api/account/signout", "", ann.cookie);
  ASSERT_EQ(out.status, 200) << out.body;
  // The same cookie, kept by another tab or a thief, after the sign-out: the id it named is taken,
  // so its holder gets a new cookie too.
  expectNewGuest(port, ann.cookie, ann);
  EXPECT_FALSE(http(port, "GET", "/api/me", "", ann.cookie).setCookie.empty());
  WsClient ws;
  ASSERT_TRUE(ws.connect(port, ann.cookie));
  auto hello = ws.untilType("hello");
  ASSERT_TRUE(hello);
  EXPECT_NE((*hello)["id"], ann.id) << hello->dump();
  EXPECT_NE(ws.cookie(), ann.cookie) << "the WebSocket's answer hands the new guest a cookie";
  // It acts as the new guest (it was a 500: the account's id written again as a guest).
  const auto created = http(port, "POST", "/api/games", Json{{"rules", "kalah"}, {"mode", "ai"}, {"level", "easy"}}.dump(),
                            ann.cookie);
  EXPECT_EQ(created.status, 200) << created.body;
  // The account is untouched and signs in again.
  const Member again = signIn(port, ann);
  EXPECT_EQ(me(port, again.cookie)["id"], ann.id);
  EXPECT_EQ(me(port, again.cookie)["username"], ann.username);
}

TEST(ServerIdentity, SessionsAreListedEndedOneByOneOrAllAtOnce) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member phone = signUp(port, "sessions");
  const Member desk = signIn(port, phone);
  const Member tablet = signIn(port, phone);
  Json list = getJson(port, "/api/account/sessions", desk.cookie);
  ASSERT_EQ(list["sessions"].size(), 3U) << list.dump();
  int current = 0;
  std::string tabletId;
  for (const Json& s : list["sessions"]) {
    EXPECT_EQ(s["id"].get<std::string>().size(), 16U);
    EXPECT_TRUE(s["seen"].is_number()) << s.dump();
    EXPECT_EQ(s["address"], "127.0.0.1") << s.dump();
    current += s["current"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(current, 1) << "this device's session is marked";
  // The tablet's id: the one session the tablet itself sees as current.
  const Json tablets = getJson(port, "/api/account/sessions", tablet.cookie);
  for (const Json& s : tablets["sessions"])
    if (s["current"] == true) tabletId = s["id"];
  ASSERT_FALSE(tabletId.empty()) << tablets.dump();
  EXPECT_EQ(http(port, "POST", "/api/account/revoke", Json{{"id", "0123456789abcdef"}}.dump(), desk.cookie).status, 404);
  EXPECT_EQ(http(port, "POST", "/api/account/revoke", Json{{"id", tabletId.substr(0, 4)}}.dump(), desk.cookie).status, 400)
      << "an id is whole: a prefix would end several at a guess";
  // Another player cannot end Ann's sessions.
  const Member bob = signUp(port, "bob");
  EXPECT_EQ(http(port, "POST", "/api/account/revoke", Json{{"id", tabletId}}.dump(), bob.cookie).status, 404);
  EXPECT_EQ(me(port, tablet.cookie)["id"], phone.id);
  // The desk ends the tablet's session.
  auto revoked = http(port, "POST", "/api/account/revoke", Json{{"id", tabletId}}.dump(), desk.cookie);
  ASSERT_EQ(revoked.status, 200) << revoked.body;
  expectNewGuest(port, tablet.cookie, phone);
  EXPECT_EQ(me(port, desk.cookie)["id"], phone.id);
  EXPECT_EQ(getJson(port, "/api/account/sessions", desk.cookie)["sessions"].size(), 2U);
  // Sign out everywhere: the phone and the desk are guests.
  EXPECT_EQ(http(port, "POST", "/api/account/signout", Json{{"all", "yes"}}.dump(), desk.cookie).status, 400);
  auto all = http(port, "POST", "/api/account/signout", Json{{"all", true}}.dump(), desk.cookie);
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(Json::parse(all.body)["ended"], 2);
  expectNewGuest(port, desk.cookie, phone);
  expectNewGuest(port, phone.cookie, phone);
  EXPECT_EQ(me(port, bob.cookie)["id"], bob.id) << "another player's session is not touched";
}

TEST(ServerIdentity, ADeletedAccountsOtherDevicesAreGuestsAndItsNameIsShownAtOnce) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member first = signUp(port, "gone");
  EXPECT_EQ(me(port, first.cookie)["name"], first.username) << "signed up: known by his username";
  const Member second = signIn(port, first);
  // A game in memory between him and Bob, both watching it.
  const Member bob = signUp(port, "bob");
  ASSERT_EQ(http(port, "POST", "/api/friends", Json{{"username", bob.username}}.dump(), first.cookie).status, 200);
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, first.cookie) && b.connect(port, bob.cookie));
  // (Invitations reach the connections the server holds: Ben's is held once it said hello.)
  ASSERT_TRUE(b.untilType("hello"));
  a.send({{"type", "invite"}, {"friend", bob.id}, {"spec", {{"rules", "kalah"}}}});
  auto invited = b.untilType("invited", 5000ms);
  ASSERT_TRUE(invited);
  const std::string game = (*invited)["game"];
  const Json st = joinGame(b, game);
  const std::string hisSide = st["you"] == "S" ? "N" : "S";
  EXPECT_EQ(st["seats"][hisSide]["name"], first.username) << st.dump();
  a.close();
  // Deleted from the second device.
  auto del = http(port, "POST", "/api/account/delete", Json{{"password", "correct horse"}}.dump(), second.cookie);
  ASSERT_EQ(del.status, 200) << del.body;
  // Bob's game shows it at once (the presence message carries the seats' names).
  auto renamed = b.until([&](const Json& m) {
    return m["type"] == "presence" && m["seats"][hisSide]["name"] == "Deleted player";
  }, 5000ms);
  EXPECT_TRUE(renamed) << "the game in memory still names him";
  // Every instance shows it: at once here, within the bus's delay on a cluster's others.
  Json shown;
  EXPECT_TRUE(eventually([&] {
    shown = getJson(port, "/api/games/" + game, bob.cookie)["seats"][hisSide]["name"];
    return shown == "Deleted player";
  })) << "the game still names him: " << shown;
  // The first device's cookie is a new guest; renaming it renames the guest, not the deleted player.
  expectNewGuest(port, first.cookie, first);
  auto r = http(port, "POST", "/api/me", Json{{"name", "Fresh start"}}.dump(), first.cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(getJson(port, "/api/players/" + first.id)["name"], "Deleted player");
}

TEST(ServerIdentity, SignUpNamesThePlayerByHisUsernameUnlessHeChoseAName) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member plain = signUp(port, "plain");
  EXPECT_EQ(getJson(port, "/api/players/" + plain.id)["name"], plain.username);
  // A guest who chose a name keeps it.
  const std::string cookie = newCookie(port);
  ASSERT_EQ(http(port, "POST", "/api/me", Json{{"name", "Ada L."}}.dump(), cookie).status, 200);
  const std::string username = uniqueName("ada");
  auto r = http(port, "POST", "/api/account/signup", Json{{"username", username}, {"password", "correct horse"}}.dump(), cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json::parse(r.body)["name"], "Ada L.");
}

TEST(ServerIdentity, EveryAnswerCarriesTheSecurityHeaders) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  for (const char* target : {"/", "/api/me", "/api/games", "/healthz", "/no/such/file", "/g/abcdefghij"}) {
    auto r = http(server.port(), "GET", target);
    ASSERT_NE(r.status, 0) << target;
    EXPECT_EQ(r.headers["x-content-type-options"], "nosniff") << target;
    const std::string csp = r.headers["content-security-policy"];
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << target << ": " << csp;
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << target << ": " << csp;
    EXPECT_EQ(csp.find("'unsafe-inline'"), std::string::npos) << target << ": " << csp;
    EXPECT_FALSE(r.headers["referrer-policy"].empty()) << target;
  }
}

TEST(ServerIdentity, OnlyTheSitesOwnPagesOpenAWebSocket) {
  ServerProcess server({"--allow-origin", "https://semis.example"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string own = "http://127.0.0.1:" + std::to_string(port);
  for (const std::string& origin : {std::string("https://evil.example"), std::string("null"),
                                    "http://127.0.0.1:" + std::to_string(port + 1), std::string("https://semis.example.evil")}) {
    WsClient ws;
    ws.setOrigin(origin);
    EXPECT_FALSE(ws.connect(port)) << origin;
    EXPECT_EQ(ws.handshakeStatus(), 403) << origin;
  }
  for (const std::string& origin : {own, std::string("https://semis.example"), std::string("HTTPS://Semis.Example")}) {
    WsClient ws;
    ws.setOrigin(origin);
    ASSERT_TRUE(ws.connect(port)) << origin << " " << ws.handshakeStatus();
    EXPECT_TRUE(ws.untilType("hello")) << origin;
  }
  WsClient bot;  // no Origin: no browser's page (a bot, a tool)
  ASSERT_TRUE(bot.connect(port));
  EXPECT_TRUE(bot.untilType("hello"));
}

}  // namespace
}  // namespace semis::test
