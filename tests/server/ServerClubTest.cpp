// The club end to end (docs/club.md), through real HTTP and WebSocket clients: accounts, rated
// pairing, ratings on profiles, fair play, friends. Runs on SQLite, PostgreSQL and the cluster
// (tools/test sets SEMIS_SERVER_TEST_DB).

#include <set>

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

TEST(Club, ASignedUpGuestKeepsHisGamesAndSignsInOnAnotherDevice) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string guest = newCookie(port);
  const std::string guestId = getJson(port, "/api/me", guest)["id"];
  const std::string game = createGame(port, guest, {{"rules", "kalah"}, {"mode", "ai"}, {"side", "S"}});
  const std::string username = uniqueName("Kalah_Fan");
  auto up = http(port, "POST", "/api/account/signup", Json{{"username", username}, {"password", "correct horse"}}.dump(), guest);
  ASSERT_EQ(up.status, 200) << up.body;
  EXPECT_EQ(Json::parse(up.body)["id"], guestId) << "the guest became the account";
  EXPECT_EQ(getJson(port, "/api/me", guest)["username"], username);
  // Refusals change nothing.
  auto again = http(port, "POST", "/api/account/signup", Json{{"username", "other_name"}, {"password", "correct horse"}}.dump(), guest);
  EXPECT_EQ(again.status, 409);
  const std::string stranger = newCookie(port);
  auto taken = http(port, "POST", "/api/account/signup", Json{{"username", username + ""}, {"password", "another one"}}.dump(), stranger);
  EXPECT_EQ(taken.status, 409) << taken.body;
  std::string shouted = username;
  for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  taken = http(port, "POST", "/api/account/signup", Json{{"username", shouted}, {"password", "another one"}}.dump(), stranger);
  EXPECT_EQ(taken.status, 409) << "usernames are unique whatever the case";
  EXPECT_EQ(http(port, "POST", "/api/account/signup", Json{{"username", "ab"}, {"password", "correct horse"}}.dump(), stranger).status, 400);
  EXPECT_EQ(http(port, "POST", "/api/account/signup", Json{{"username", "fine_name"}, {"password", "short"}}.dump(), stranger).status, 400);
  EXPECT_TRUE(getJson(port, "/api/me", stranger)["username"].is_null());
  // Another device: a wrong password, then the right one.
  const std::string laptop = newCookie(port);
  EXPECT_EQ(http(port, "POST", "/api/account/signin", Json{{"username", username}, {"password", "wrong horse"}}.dump(), laptop).status, 401);
  EXPECT_EQ(http(port, "POST", "/api/account/signin", Json{{"username", "nobody_here"}, {"password", "wrong horse"}}.dump(), laptop).status, 401);
  auto in = http(port, "POST", "/api/account/signin", Json{{"username", shouted}, {"password", "correct horse"}}.dump(), laptop);
  ASSERT_EQ(in.status, 200) << in.body;
  ASSERT_FALSE(in.setCookie.empty()) << "a new session for this device";
  const std::string session = in.setCookie;
  EXPECT_EQ(getJson(port, "/api/me", session)["id"], guestId);
  EXPECT_EQ(getJson(port, "/api/games/" + game, session)["you"], "S") << "his game, from the other device";
  // Signing out there ends that session only.
  auto out = http(port, "POST", "/api/account/signout", "", session);
  EXPECT_EQ(out.status, 200);
  // (in a cluster the other instances forget the session when the bus tells them: milliseconds)
  EXPECT_TRUE(eventually([&] { return getJson(port, "/api/me", session)["id"] != guestId; }, 3000ms));
  EXPECT_EQ(getJson(port, "/api/me", guest)["id"], guestId);
  // A server restart keeps the account and the session.
  server.terminate();
  ASSERT_TRUE(server.start()) << server.logs();
  EXPECT_EQ(getJson(server.port(), "/api/me", guest)["username"], username);
}

TEST(Club, AClaimCodeMovesAGuestToAnotherDeviceOnce) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string phone = newCookie(port);
  const std::string id = getJson(port, "/api/me", phone)["id"];
  auto claim = http(port, "POST", "/api/account/claim", "", phone);
  ASSERT_EQ(claim.status, 200) << claim.body;
  const std::string code = Json::parse(claim.body)["code"];
  const std::string tablet = newCookie(port);
  EXPECT_EQ(http(port, "POST", "/api/account/redeem", Json{{"code", "ZZZZ2222"}}.dump(), tablet).status, 404);
  std::string typed = code.substr(0, 4) + "-" + code.substr(4);
  for (char& c : typed) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto redeemed = http(port, "POST", "/api/account/redeem", Json{{"code", typed}}.dump(), tablet);
  ASSERT_EQ(redeemed.status, 200) << redeemed.body;
  EXPECT_EQ(getJson(port, "/api/me", redeemed.setCookie)["id"], id);
  EXPECT_EQ(http(port, "POST", "/api/account/redeem", Json{{"code", code}}.dump(), newCookie(port)).status, 404)
      << "a code is used once";
}

TEST(Club, TwoStrangersArePairedPlayARatedGameAndSeeItOnTheirProfiles) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member alice = signUp(port, "alice"), bob = signUp(port, "bob");
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, alice.cookie) && b.connect(port, bob.cookie));
  const std::string game = quickPair(a, b, {{"rules", "kalah"}, {"clock", nullptr}, {"rated", true}, {"quick", true}});
  ASSERT_FALSE(game.empty());
  const Json st = getJson(port, "/api/games/" + game, alice.cookie);
  EXPECT_TRUE(st["rated"].get<bool>());
  EXPECT_EQ(st["key"], "kalah");
  EXPECT_EQ(st["seats"]["S"]["rating"]["rating"], 1500);
  EXPECT_TRUE(st["seats"]["N"]["rating"]["provisional"].get<bool>());
  const Board end = playToTheEnd(a, b, game, 5);
  ASSERT_TRUE(end.over);
  const Json done = ratedOutcome(port, game, alice.cookie, end);
  ASSERT_TRUE(done.contains("ratings"));
  // Both profiles: one kalah game, its change, the game in the history.
  for (const Member* m : {&alice, &bob}) {
    const Json p = getJson(port, "/api/players/" + m->id);
    EXPECT_EQ(p["username"], m->username);
    ASSERT_EQ(p["ratings"].size(), 1U) << p.dump();
    EXPECT_EQ(p["ratings"][0]["key"], "kalah");
    EXPECT_EQ(p["ratings"][0]["games"], 1);
    const Json games = getJson(port, "/api/players/" + m->id + "/games");
    ASSERT_EQ(games["games"].size(), 1U) << games.dump();
    EXPECT_EQ(games["games"][0]["id"], game);
    EXPECT_TRUE(games["games"][0]["rated"].get<bool>());
    const std::string side = games["games"][0]["side"];
    EXPECT_EQ(games["games"][0]["change"], done["ratings"][side]["change"]);
    const Json history = getJson(port, "/api/players/" + m->id + "/history?key=kalah");
    ASSERT_EQ(history["points"].size(), 1U);
    EXPECT_EQ(history["points"][0]["game"], game);
  }
  // The leaderboard shows established ratings only (RD < 110): none yet; the first-player score counts it.
  const Json board = getJson(port, "/api/leaderboard/kalah");
  EXPECT_TRUE(board["players"].empty()) << board.dump();
  EXPECT_EQ(board["first_player"]["games"], 1);
  EXPECT_EQ(http(port, "GET", "/api/leaderboard/chess").status, 404);
}

TEST(Club, RatedPlayNeedsAnAccountAndAGuestMayPairCasually) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  WsClient g, h;
  ASSERT_TRUE(g.connect(port) && h.connect(port));
  g.send({{"type", "seek"}, {"rules", "mangala"}, {"rated", true}});
  auto refused = g.untilType("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["code"], "account_needed");
  g.send({{"type", "seek"}, {"rules", "kalah,seeds=3"}, {"rated", true}});
  refused = g.untilType("error");
  ASSERT_TRUE(refused);
  EXPECT_TRUE((*refused)["code"] == "not_rated" || (*refused)["code"] == "account_needed") << refused->dump();
  const std::string game = quickPair(g, h, {{"rules", "kalah,seeds=3"}, {"rated", false}});
  ASSERT_FALSE(game.empty());
  EXPECT_FALSE(getJson(port, "/api/games/" + game)["rated"].get<bool>());
}

TEST(Club, TheLobbyCountsSearchersAndAnOpenSeekIsAccepted) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ann.cookie) && b.connect(port, ben.cookie));
  a.send({{"type", "seek"}, {"rules", "congkak"}, {"clock", {{"minutes", 5}, {"increment", 3}}}, {"rated", true}, {"quick", false}, {"range", 300}});
  auto seeking = a.untilType("seeking");
  ASSERT_TRUE(seeking);
  b.send({{"type", "lobby"}, {"on", true}});
  // (in a cluster the other instance's connections are counted from its next heartbeat: a second)
  auto lobby = b.until([](const Json& m) {
    return m["type"] == "lobby" && m["counts"]["congkak"]["searching"].get<long long>() >= 1 && !m["seeks"].empty() &&
           m["online"].get<long long>() >= 2;
  }, 10000ms);
  ASSERT_TRUE(lobby) << "the lobby shows the seek and both visitors online";
  EXPECT_EQ((*lobby)["seeks"][0]["player"]["id"], ann.id);
  a.send({{"type", "accept_seek"}, {"seek", (*seeking)["seek"]}});
  auto own = a.untilType("error");
  ASSERT_TRUE(own);
  b.send({{"type", "accept_seek"}, {"seek", (*seeking)["seek"]}});
  auto pa = a.untilType("paired", 10000ms), pb = b.untilType("paired", 10000ms);
  ASSERT_TRUE(pa && pb);
  EXPECT_EQ((*pa)["game"], (*pb)["game"]);
  const Json st = getJson(port, "/api/games/" + (*pa)["game"].get<std::string>());
  EXPECT_EQ(st["clock"]["seconds"], 300);
  EXPECT_TRUE(st["rated"].get<bool>());
  // Taken: nobody else can accept it.
  b.send({{"type", "accept_seek"}, {"seek", (*seeking)["seek"]}});
  auto gone = b.untilType("error");
  ASSERT_TRUE(gone);
  EXPECT_EQ((*gone)["code"], "not_found");
}

TEST(Club, AGameIsAbortedBeforeBothMoveAndALeaverIsClaimedAgainstOnce) {
  ServerProcess server({"--claim-seconds", "1"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ann.cookie) && b.connect(port, ben.cookie));
  std::string game = quickPair(a, b, {{"rules", "kalah"}, {"rated", true}});
  ASSERT_FALSE(game.empty());
  joinGame(a, game);
  a.send({{"type", "abort"}, {"game", game}});
  auto over = a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; });
  ASSERT_TRUE(over);
  EXPECT_EQ((*over)["event"]["result"]["reason"], "aborted");
  // Unrated: no rating moved.
  std::this_thread::sleep_for(700ms);
  EXPECT_TRUE(getJson(port, "/api/players/" + ann.id)["ratings"].empty());
  // A second game, which Ben leaves once both have played (one who never played is no leaver:
  // ServerFairness covers him).
  game = quickPair(a, b, {{"rules", "kalah"}, {"rated", true}});
  ASSERT_FALSE(game.empty());
  const Json sa = joinGame(a, game);
  joinGame(b, game);
  Board board = fromState(sa);
  std::set<std::string> played;
  for (int i = 0; played.size() < 2 && i < 20; ++i) {
    WsClient& mover = board.toMove == sa["you"] ? a : b;
    WsClient& other = board.toMove == sa["you"] ? b : a;
    played.insert(board.toMove);
    ASSERT_NE(playMove(mover, {&other}, game, board.legal.back().get<int>(), "m" + std::to_string(i), board), 0);
  }
  ASSERT_EQ(played.size(), 2U);
  b.close();
  const std::string benSide = sa["you"] == "S" ? "N" : "S";
  auto presence = a.until([&](const Json& m) {
    return m["type"] == "presence" && !m["seats"][benSide]["connected"].get<bool>() && m["seats"][benSide]["claim_at"].is_number();
  }, 10000ms);
  ASSERT_TRUE(presence) << "Alice sees the countdown";
  ASSERT_TRUE(eventually([&] {
    a.send({{"type", "claim"}, {"game", game}});
    auto r = a.until([](const Json& m) {
      return (m["type"] == "event" && m["event"]["kind"] == "game_over") || m["type"] == "error";
    });
    if (r && (*r)["type"] == "error") {
      EXPECT_EQ((*r)["code"], "too_early") << r->dump();
    }
    return r && (*r)["type"] == "event";
  }, 10000ms));
  Json done;
  ASSERT_TRUE(eventually([&] {
    done = getJson(port, "/api/games/" + game, ann.cookie);
    return done.contains("ratings");
  }, 10000ms)) << done.dump();
  EXPECT_EQ(done["result"]["reason"], "left");
  EXPECT_EQ(done["result"]["winner"], sa["you"]);
  EXPECT_EQ(getJson(port, "/api/players/" + ann.id)["ratings"][0]["games"], 1) << "rated once";
  // A second claim is refused: the game is over.
  a.send({{"type", "claim"}, {"game", game}});
  auto again = a.untilType("error");
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)["code"], "game_over");
}

TEST(Club, FriendsAreAddedAndInvitedWhereverTheyAre) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member ann = signUp(port, "ann"), ben = signUp(port, "ben");
  EXPECT_EQ(http(port, "POST", "/api/friends", Json{{"username", "no_such_user"}}.dump(), ann.cookie).status, 404);
  auto added = http(port, "POST", "/api/friends", Json{{"username", ben.username}}.dump(), ann.cookie);
  ASSERT_EQ(added.status, 200) << added.body;
  const Json list = getJson(port, "/api/friends", ann.cookie);
  ASSERT_EQ(list["friends"].size(), 1U);
  EXPECT_EQ(list["friends"][0]["id"], ben.id);
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ann.cookie) && b.connect(port, ben.cookie));
  // (Invitations reach the connections the server holds: Ben's is held once it said hello.)
  ASSERT_TRUE(b.untilType("hello"));
  a.send({{"type", "invite"}, {"friend", ben.id}, {"spec", {{"rules", "mangala"}, {"rated", true}}}});
  auto sent = a.untilType("invitation_sent");
  ASSERT_TRUE(sent);
  auto invited = b.untilType("invited");
  ASSERT_TRUE(invited) << "Ben hears of it at once";
  EXPECT_EQ((*invited)["from"]["id"], ann.id);
  EXPECT_EQ((*invited)["game"], (*sent)["game"]);
  b.send({{"type", "decline"}, {"game", (*invited)["game"]}});
  auto declined = a.untilType("declined");
  ASSERT_TRUE(declined);
  EXPECT_EQ((*declined)["by"]["id"], ben.id);
  // Accepted: Ben joins the game he was invited to, in his seat.
  a.send({{"type", "invite"}, {"friend", ben.id}, {"spec", {{"rules", "kalah"}}}});
  auto second = b.untilType("invited");
  ASSERT_TRUE(second);
  const Json st = joinGame(b, (*second)["game"]);
  EXPECT_TRUE(st["you"] == "S" || st["you"] == "N") << st.dump();
  EXPECT_EQ(st["status"], "playing");
  // Ann's friend list shows Ben playing it, with its link.
  EXPECT_TRUE(eventually([&] { return getJson(port, "/api/friends", ann.cookie)["friends"][0]["playing"] == (*second)["game"]; }))
      << getJson(port, "/api/friends", ann.cookie).dump();
  // Blocked: no more invitations.
  ASSERT_EQ(http(port, "POST", "/api/blocks", Json{{"username", ann.username}}.dump(), ben.cookie).status, 200);
  a.send({{"type", "invite"}, {"friend", ben.id}, {"spec", {{"rules", "kalah"}}}});
  auto refused = a.untilType("error");
  ASSERT_TRUE(refused);
  EXPECT_TRUE(getJson(port, "/api/friends", ann.cookie)["friends"].empty()) << "a block ends the friendship";
}

TEST(Club, AccountAttemptsAreLimitedPerAddressAndADeletedAccountIsGone) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Member m = signUp(port, "gone");
  EXPECT_EQ(http(port, "POST", "/api/account/delete", Json{{"password", "not it at all"}}.dump(), m.cookie).status, 401);
  auto del = http(port, "POST", "/api/account/delete", Json{{"password", "correct horse"}}.dump(), m.cookie);
  ASSERT_EQ(del.status, 200) << del.body;
  EXPECT_EQ(getJson(port, "/api/players/" + m.id)["name"], "Deleted player");
  EXPECT_EQ(http(port, "POST", "/api/account/signin", Json{{"username", m.username}, {"password", "correct horse"}}.dump(), newCookie(port)).status, 401);
  int limited = 0;
  for (int i = 0; i < 12; ++i) {
    limited += http(port, "POST", "/api/account/signin", Json{{"username", "x_y_z"}, {"password", "12345678"}}.dump()).status == 429;
  }
  // (per instance: through a cluster's proxy the attempts are spread over the instances)
  if (!onCluster()) {
    EXPECT_GE(limited, 1) << "10 attempts a minute from one address";
  }
}

}  // namespace
}  // namespace semis::test
