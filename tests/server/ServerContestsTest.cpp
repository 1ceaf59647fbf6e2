// Bots' matches, tournaments and ratings (docs/bots.md, "Matches and tournaments"), black-box: a
// real server, bots written here playing over KGP (KgpBots.hpp). A match is played to its end and
// rated in the bots' pool only; a tournament's table is the sum of its games' stored results; a bot
// not connected loses its games by forfeit; a bot gone mid-game forfeits it; bad requests change
// nothing.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <thread>

#include "KgpBots.hpp"

namespace semis::test {
namespace {

const char* const kRules = "kalah,houses=4,seeds=3";
const char* const kKey = "bots-kalah-4x3";

class ServerContests : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.start());
    port_ = server_.port();
    kgp_ = listeningPort(server_.logs(), "kgp_port");
    ASSERT_NE(kgp_, 0);
    owner_ = signUp(port_, "owner");
  }
  // Once one reader saw a contest over, every instance says so, in its page and in the list, at
  // once (an instance that had read it while it ran held a copy it served until its next step; a
  // round robin so seen "running" in the list through HAProxy, 2026-12-06).
  void everyInstanceSaysOver(const std::string& path, const std::string& listPath, const char* listKey) {
    const int n = server_.clustered() ? server_.instances() : 1;
    for (int round = 0; round < 5; ++round) {
      for (int i = 0; i < n; ++i) {
        const unsigned short port = server_.clustered() ? server_.instancePort(i) : port_;
        EXPECT_EQ(getJson(port, path)["status"], "over") << "instance " << i;
        const Json list = getJson(port, listPath);
        ASSERT_GE(list[listKey].size(), 1U) << list.dump();
        EXPECT_EQ(list[listKey][0]["status"], "over") << "instance " << i;
      }
    }
  }
  // Polls the contest until it is over (or gives up): its last state.
  Json untilOver(const std::string& path) {
    Json c;
    for (int i = 0; i < 600; ++i) {
      c = getJson(port_, path);
      if (c.is_object() && c["status"] == "over") return c;
      std::this_thread::sleep_for(100ms);
    }
    ADD_FAILURE() << "not over: " << c.dump();
    return c;
  }
  HttpReply post(const std::string& path, const Json& body, const std::string& cookie) {
    return http(port_, "POST", path, body.dump(), cookie);
  }
  // Each game over as its stored record says: winner and score agree with the contest's line.
  void checkGames(const Json& contest) {
    for (const Json& g : contest["games"]) {
      ASSERT_EQ(g["state"], "over") << g.dump();
      if (g["game"].is_null()) continue;
      const Json game = getJson(port_, "/api/games/" + g["game"].get<std::string>());
      ASSERT_EQ(game["status"], "over") << game.dump();
      EXPECT_EQ(game["result"]["winner"], g["winner"]) << g.dump();
      EXPECT_EQ(game["result"]["reason"], g["reason"]) << g.dump();
      EXPECT_EQ(game["rated"], true) << "a bots' contest game is rated (in their pool)";
      EXPECT_EQ(game["seats"]["S"]["name"], g["south"]);
      EXPECT_EQ(game["seats"]["N"]["name"], g["north"]);
      if (game["result"].contains("score")) {
        EXPECT_EQ(game["result"]["score"], g["seeds"]);
      }
    }
  }
  // The table recomputed from the games' lines.
  static void checkTable(const Json& contest) {
    struct Line {
      double points = 0;
      int games = 0, wins = 0, draws = 0, losses = 0, seedsFor = 0, seedsAgainst = 0;
    };
    std::map<std::string, Line> lines;
    for (const Json& g : contest["games"]) {
      const std::array<std::string, 2> names{g["south"], g["north"]};
      for (int s = 0; s < 2; ++s) {
        Line& l = lines[names[static_cast<std::size_t>(s)]];
        l.games++;
        l.seedsFor += g["seeds"][s].get<int>();
        l.seedsAgainst += g["seeds"][1 - s].get<int>();
        if (g["winner"] == "draw") {
          l.draws++;
          l.points += 0.5;
        } else if (g["winner"] == (s == 0 ? "S" : "N")) {
          l.wins++;
          l.points += 1;
        } else {
          l.losses++;
        }
      }
    }
    double previous = 1e9;
    for (const Json& t : contest["table"]) {
      const Line& l = lines[t["name"].get<std::string>()];
      EXPECT_EQ(t["points"].get<double>(), l.points) << t.dump();
      EXPECT_EQ(t["games"], l.games);
      EXPECT_EQ(t["wins"], l.wins);
      EXPECT_EQ(t["draws"], l.draws);
      EXPECT_EQ(t["losses"], l.losses);
      EXPECT_EQ(t["seeds_for"], l.seedsFor);
      EXPECT_EQ(t["seeds_against"], l.seedsAgainst);
      EXPECT_LE(t["points"].get<double>(), previous) << "ranked by points";
      previous = t["points"].get<double>();
    }
  }

  ServerProcess server_{{"--kgp-port", "0", "--kgp-pool-seconds", "0"}};
  unsigned short port_ = 0;
  unsigned short kgp_ = 0;
  Member owner_;
};

TEST_F(ServerContests, AMatchIsPlayedToItsEndAndRatedInTheBotsPoolOnly) {
  const Bot a = makeBot(port_, owner_, "ada");
  const Bot b = makeBot(port_, owner_, "bea");
  PlayingBot pa, pb;
  ASSERT_TRUE(pa.start(kgp_, a.token));
  ASSERT_TRUE(pb.start(kgp_, b.token));
  // Standard Kalah (6x4), the board of people's `kalah` key: kept apart all the same.
  auto r = post("/api/bots/match", {{"a", a.name}, {"b", b.name}, {"rules", "kalah"}, {"games", 2}}, owner_.cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = Json::parse(r.body)["id"];
  const Json match = untilOver("/api/bots/matches/" + id);
  everyInstanceSaysOver("/api/bots/matches/" + id, "/api/bots/matches", "matches");
  ASSERT_EQ(match["games"].size(), 2U);
  EXPECT_EQ(match["games"][0]["south"], a.name) << "sides alternate";
  EXPECT_EQ(match["games"][1]["south"], b.name);
  EXPECT_EQ(match["key"], "bots-kalah-6x4");
  checkGames(match);
  checkTable(match);
  EXPECT_EQ(match["score"][0].get<double>() + match["score"][1].get<double>(), 2.0);
  // Rated in the bots' pool of the board: both bots listed with their two games.
  Json board;
  for (int i = 0; i < 100; ++i) {
    board = getJson(port_, "/api/bots/leaderboard/bots-kalah-6x4");
    if (board["bots"].size() == 2 && board["bots"][0]["games"] == 2 && board["bots"][1]["games"] == 2) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(board["bots"].size(), 2U) << board.dump();
  for (const Json& line : board["bots"]) {
    EXPECT_EQ(line["games"], 2) << board.dump();
    EXPECT_EQ(line["owner"], owner_.username);
  }
  const int wins = board["bots"][0]["wins"].get<int>() + board["bots"][1]["wins"].get<int>();
  if (wins > 0) {
    EXPECT_NE(board["bots"][0]["rating"], board["bots"][1]["rating"]) << "the ratings moved";
  }
  // ... and never in people's: a bot's profile has its pool's rating only; people's boards list
  // no bot; their route knows no bots' key.
  for (const Bot* bot : {&a, &b}) {
    const Json profile = getJson(port_, "/api/players/" + bot->id);
    ASSERT_EQ(profile["ratings"].size(), 1U) << profile.dump();
    EXPECT_EQ(profile["ratings"][0]["key"], "bots-kalah-6x4");
    EXPECT_EQ(profile["ratings"][0]["games"], 2);
  }
  const Json people = getJson(port_, "/api/leaderboard/kalah");
  EXPECT_EQ(people["players"].size(), 0U) << people.dump();
  EXPECT_EQ(http(port_, "GET", std::string("/api/leaderboard/") + kKey).status, 404);
  EXPECT_EQ(http(port_, "GET", "/api/bots/leaderboard/kalah").status, 404) << "people's key is not a bots' board";
  const Json list = getJson(port_, "/api/bots/matches");
  ASSERT_EQ(list["matches"].size(), 1U);
  EXPECT_EQ(list["matches"][0]["id"], id);
}

// The freeplay pool pairs two waiting bots with tokens: a rated game, in their pool.
TEST(ServerContestsPool, ThePoolsGamesBetweenBotsAreRatedInTheBotsPool) {
  ServerProcess server{{"--kgp-port", "0", "--kgp-pool-seconds", "1"}};
  ASSERT_TRUE(server.start());
  const unsigned short port = server.port();
  const Member owner = signUp(port, "owner");
  const Bot a = makeBot(port, owner, "ada");
  const Bot b = makeBot(port, owner, "bea");
  PlayingBot pa, pb;
  ASSERT_TRUE(pa.start(listeningPort(server.logs(), "kgp_port"), a.token));
  ASSERT_TRUE(pb.start(listeningPort(server.logs(), "kgp_port"), b.token));
  Json profile;
  for (int i = 0; i < 150; ++i) {
    profile = getJson(port, "/api/players/" + a.id);
    if (profile["ratings"].size() > 0) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(profile["ratings"].size(), 1U) << profile.dump();
  EXPECT_EQ(profile["ratings"][0]["key"], "bots-kalah-6x4") << "never people's `kalah`";
}

TEST_F(ServerContests, ARoundRobinOfThreeBotsEndsWithTheTableOfItsGames) {
  std::vector<Bot> bots;
  std::vector<std::unique_ptr<PlayingBot>> players;
  for (const char* stem : {"ada", "bea", "cy"}) {
    bots.push_back(makeBot(port_, owner_, stem));
    players.push_back(std::make_unique<PlayingBot>());
    ASSERT_TRUE(players.back()->start(kgp_, bots.back().token));
  }
  auto r = post("/api/bots/tournaments",
                {{"name", "Spring cup"}, {"rules", kRules}, {"bots", {bots[0].name, bots[1].name, bots[2].name}}},
                owner_.cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = Json::parse(r.body)["id"];
  const Json t = untilOver("/api/bots/tournaments/" + id);
  everyInstanceSaysOver("/api/bots/tournaments/" + id, "/api/bots/tournaments", "tournaments");
  EXPECT_EQ(t["name"], "Spring cup");
  ASSERT_EQ(t["games"].size(), 6U) << "every pair, both sides";
  std::map<std::pair<std::string, std::string>, int> pairs;
  std::map<int, std::set<std::string>> rounds;
  for (const Json& g : t["games"]) {
    pairs[{g["south"], g["north"]}]++;
    EXPECT_TRUE(rounds[g["round"].get<int>()].insert(g["south"]).second) << "one game a round for a bot";
    EXPECT_TRUE(rounds[g["round"].get<int>()].insert(g["north"]).second);
    EXPECT_FALSE(g["game"].is_null()) << "all connected: every game played";
  }
  EXPECT_EQ(pairs.size(), 6U);
  ASSERT_EQ(t["table"].size(), 3U);
  checkGames(t);
  checkTable(t);
  const Json list = getJson(port_, "/api/bots/tournaments");
  ASSERT_EQ(list["tournaments"].size(), 1U);
  EXPECT_EQ(list["tournaments"][0]["status"], "over");
}

TEST_F(ServerContests, ABotNotConnectedLosesItsGamesByForfeit) {
  const Bot a = makeBot(port_, owner_, "ada");
  const Bot b = makeBot(port_, owner_, "bea");
  const Bot away = makeBot(port_, owner_, "away");
  PlayingBot pa, pb;
  ASSERT_TRUE(pa.start(kgp_, a.token));
  ASSERT_TRUE(pb.start(kgp_, b.token));
  auto r = post("/api/bots/tournaments", {{"name", "Cup"}, {"rules", kRules}, {"bots", {a.name, b.name, away.name}}},
                owner_.cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  const Json t = untilOver("/api/bots/tournaments/" + Json::parse(r.body)["id"].get<std::string>());
  int forfeits = 0;
  for (const Json& g : t["games"]) {
    if (g["south"] != away.name && g["north"] != away.name) continue;
    ++forfeits;
    EXPECT_EQ(g["reason"], "absent");
    EXPECT_TRUE(g["game"].is_null()) << "no game made for an absent bot";
    EXPECT_EQ(g["winner"], g["south"] == away.name ? "N" : "S");
  }
  EXPECT_EQ(forfeits, 4);
  checkGames(t);
  checkTable(t);
  const Json& last = t["table"][2];
  EXPECT_EQ(last["name"], away.name);
  EXPECT_EQ(last["points"], 0);
  EXPECT_EQ(last["losses"], 4);
}

TEST_F(ServerContests, ABotGoneMidGameForfeitsIt) {
  const Bot a = makeBot(port_, owner_, "ada");
  const Bot b = makeBot(port_, owner_, "bea");
  PlayingBot pa, pb;
  ASSERT_TRUE(pa.start(kgp_, a.token));
  ASSERT_TRUE(pb.start(kgp_, b.token, /*quitAfter=*/1));  // answers one turn, then drops the connection
  auto r = post("/api/bots/match", {{"a", a.name}, {"b", b.name}, {"rules", kRules}, {"games", 1}, {"seconds", 1}},
                owner_.cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  const Json m = untilOver("/api/bots/matches/" + Json::parse(r.body)["id"].get<std::string>());
  ASSERT_EQ(m["games"].size(), 1U);
  const Json& g = m["games"][0];
  if (g["reason"] == "normal") GTEST_SKIP() << "the game ended before the bot's second turn";
  EXPECT_EQ(g["reason"], "forfeit") << m.dump();
  EXPECT_EQ(g["winner"], "S") << "the bot gone (North) loses";
  checkGames(m);
  const Json game = getJson(port_, "/api/games/" + g["game"].get<std::string>());
  EXPECT_EQ(game["result"]["reason"], "forfeit");
}

// A match survives a restart of the server: its state is stored, the server takes it up again,
// the bots reconnect and it goes on to its end.
TEST_F(ServerContests, AMatchGoesOnAfterARestart) {
  const Bot a = makeBot(port_, owner_, "ada");
  const Bot b = makeBot(port_, owner_, "bea");
  auto pa = std::make_unique<PlayingBot>();
  auto pb = std::make_unique<PlayingBot>();
  ASSERT_TRUE(pa->start(kgp_, a.token));
  ASSERT_TRUE(pb->start(kgp_, b.token));
  auto r = post("/api/bots/match", {{"a", a.name}, {"b", b.name}, {"rules", kRules}, {"games", 4}}, owner_.cookie);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string path = "/api/bots/matches/" + Json::parse(r.body)["id"].get<std::string>();
  for (int i = 0; i < 100 && getJson(port_, path)["games"][0]["state"] != "over"; ++i) std::this_thread::sleep_for(50ms);
  server_.kill9();
  pa.reset();
  pb.reset();
  ASSERT_TRUE(server_.start());
  const unsigned short kgp = listeningPort(server_.logs(), "kgp_port");  // the restarted server's
  ASSERT_NE(kgp, 0);
  pa = std::make_unique<PlayingBot>();
  pb = std::make_unique<PlayingBot>();
  ASSERT_TRUE(pa->start(kgp, a.token));
  ASSERT_TRUE(pb->start(kgp, b.token));
  const Json match = untilOver(path);
  ASSERT_EQ(match["games"].size(), 4U);
  std::set<std::string> ids;
  for (const Json& g : match["games"]) {
    EXPECT_FALSE(g["game"].is_null()) << match.dump();
    if (g["game"].is_string()) ids.insert(g["game"].get<std::string>());
  }
  EXPECT_EQ(ids.size(), 4U) << "each game made once";
  checkGames(match);
  checkTable(match);
}

TEST_F(ServerContests, BadRequestsChangeNothing) {
  const Bot a = makeBot(port_, owner_, "ada");
  const Bot b = makeBot(port_, owner_, "bea");
  PlayingBot pa, pb;
  ASSERT_TRUE(pa.start(kgp_, a.token));
  ASSERT_TRUE(pb.start(kgp_, b.token));
  Member other = signUp(port_, "other");
  const std::string guest = newCookie(port_);
  const Json good{{"a", a.name}, {"b", b.name}, {"rules", kRules}, {"games", 2}};
  auto with = [&](const char* key, const Json& value) {
    Json j = good;
    j[key] = value;
    return j;
  };
  struct Case {
    Json body;
    std::string cookie;
    int status;
  };
  const std::vector<Case> cases{
      {with("b", "nobody-here"), owner_.cookie, 404},
      {with("b", other.username), owner_.cookie, 404},  // a person is no bot
      {good, other.cookie, 403},                        // not the owner
      {good, guest, 403},
      {with("games", 0), owner_.cookie, 400},
      {with("games", 21), owner_.cookie, 400},
      {with("games", "2"), owner_.cookie, 400},
      {with("rules", "mangala"), owner_.cookie, 400},
      {with("rules", "kalah,houses=3,seeds=3"), owner_.cookie, 400},
      {with("b", a.name), owner_.cookie, 400},  // a bot against itself
      {with("seconds", 0), owner_.cookie, 400},
  };
  for (const Case& c : cases) {
    auto r = post("/api/bots/match", c.body, c.cookie);
    EXPECT_EQ(r.status, c.status) << c.body.dump() << " -> " << r.body;
  }
  // A bot not connected: 409.
  const Bot away = makeBot(port_, owner_, "away");
  EXPECT_EQ(post("/api/bots/match", with("b", away.name), owner_.cookie).status, 409);
  // Tournaments: a person, another's bots only, a bad board, too few bots, malformed.
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", "x"}, {"rules", kRules}, {"bots", {a.name, other.username}}}, owner_.cookie).status, 404);
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", "x"}, {"rules", kRules}, {"bots", {a.name, b.name}}}, other.cookie).status, 403);
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", "x"}, {"rules", "kalah,houses=13,seeds=3"}, {"bots", {a.name, b.name}}}, owner_.cookie).status, 400);
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", "x"}, {"rules", kRules}, {"bots", {a.name}}}, owner_.cookie).status, 400);
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", ""}, {"rules", kRules}, {"bots", {a.name, b.name}}}, owner_.cookie).status, 400);
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", "a\nb"}, {"rules", kRules}, {"bots", {a.name, b.name}}}, owner_.cookie).status, 400);
  EXPECT_EQ(post("/api/bots/tournaments", {{"name", "x"}, {"rules", kRules}, {"bots", {a.name, b.name}}, {"rounds", 5}}, owner_.cookie).status, 400);
  EXPECT_EQ(http(port_, "POST", "/api/bots/tournaments", "{nope", owner_.cookie).status, 400);
  EXPECT_EQ(http(port_, "GET", "/api/bots/matches/nosuchid").status, 404);
  EXPECT_EQ(http(port_, "GET", "/api/bots/tournaments/nosuchid").status, 404);
  // Nothing was started, nothing played.
  EXPECT_EQ(getJson(port_, "/api/bots/matches")["matches"].size(), 0U);
  EXPECT_EQ(getJson(port_, "/api/bots/tournaments")["tournaments"].size(), 0U);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(pa.turns() + pb.turns(), 0) << "no game was made";
}

}  // namespace
}  // namespace semis::test
