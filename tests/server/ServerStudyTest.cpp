// The study features end to end (docs/study.md), through real HTTP and WebSocket clients: the
// daily challenge (the puzzle `semis daily` computes on its own, attempts judged by the exact
// values, the first attempt of an account's day kept), game review (the same marks as `semis
// review` gives the record), and the bounds on solver work. SQLite, PostgreSQL and the cluster.

#include <cstdio>
#include <ctime>
#include <fstream>

#include "ClubPlay.hpp"

namespace semis::test {
namespace {

// What the binary prints for a command (its standard output).
std::string run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

Json dailyFromTheCommandLine(const std::string& rules) {
  return Json::parse(run(std::string(SEMIS_BINARY) + " daily --json --rules " + rules + " --date " + today()), nullptr, false);
}

std::string memberCookie(unsigned short port) {
  const std::string cookie = newCookie(port);
  auto r = http(port, "POST", "/api/account/signup",
                Json{{"username", uniqueName("daily")}, {"password", "correct horse"}}.dump(), cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  return cookie;
}

TEST(Study, TodaysPuzzleIsTheGeneratorsAndItsLineSolvesIt) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string guest = newCookie(port);
  const Json index = getJson(port, "/api/daily", guest);
  EXPECT_EQ(index["today"], today());
  EXPECT_NE(std::find(index["games"].begin(), index["games"].end(), "kalah"), index["games"].end());
  // Awalé's is judged by its endgame table (issue 26), built by the server on first use.
  EXPECT_NE(std::find(index["games"].begin(), index["games"].end(), "awale"), index["games"].end());
  for (const std::string rules : {"kalah", "congkak", "awale"}) {
    const Json cli = dailyFromTheCommandLine(rules);
    ASSERT_TRUE(cli.is_object());
    const Json p = getJson(port, "/api/daily/" + rules, guest);
    EXPECT_EQ(p["position_text"], cli["position_text"]) << "the server gives the day's generated puzzle";
    EXPECT_EQ(p["value"], cli["value"]);
    EXPECT_FALSE(p.contains("line")) << "no solution on the day itself";
    EXPECT_TRUE(p["streak"].is_null()) << "a guest keeps no streak";
    auto a = http(port, "POST", "/api/daily/" + rules + "/" + today() + "/attempt", Json{{"moves", cli["line"]}}.dump(), guest);
    ASSERT_EQ(a.status, 200) << a.body;
    const Json j = Json::parse(a.body);
    EXPECT_TRUE(j["solved"]);
    EXPECT_EQ(j["result"], cli["value"]);
    EXPECT_FALSE(j["recorded"]);
  }
  // A past day shows its solution.
  const Json before = getJson(port, "/api/daily/kalah?date=2026-12-01", guest);
  EXPECT_TRUE(before["line"].is_array());
}

TEST(Study, AnAccountsFirstAttemptOfTheDayIsTheOneKept) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const Json cli = dailyFromTheCommandLine("kalah");
  ASSERT_TRUE(cli.is_object());
  const std::string path = "/api/daily/kalah/" + today() + "/attempt";
  // A first move that is not in the line and gives value away (the command line's own check).
  int wrong = 0;
  for (int h = 1; h <= 6 && wrong == 0; ++h) {
    const std::string out = run(std::string(SEMIS_BINARY) + " daily --rules kalah --date " + today() + " --attempt " + std::to_string(h));
    if (out.find("gives value away") != std::string::npos) wrong = h;
  }
  ASSERT_NE(wrong, 0);
  const std::string alice = memberCookie(port);
  auto a = http(port, "POST", path, Json{{"moves", {wrong}}}.dump(), alice);
  ASSERT_EQ(a.status, 200) << a.body;
  Json j = Json::parse(a.body);
  EXPECT_FALSE(j["solved"]);
  EXPECT_EQ(j["failed_at"], 0);
  EXPECT_EQ(j["best"], cli["line"][0]);
  EXPECT_TRUE(j["recorded"]);
  EXPECT_EQ(j["streak"], 0);
  // Solving it afterwards is practice: the day stays missed.
  a = http(port, "POST", path, Json{{"moves", cli["line"]}}.dump(), alice);
  ASSERT_EQ(a.status, 200);
  EXPECT_FALSE(Json::parse(a.body)["recorded"]);
  Json day = getJson(port, "/api/daily/kalah", alice);
  EXPECT_EQ(day["result"]["solved"], false);
  EXPECT_EQ(day["streak"], 0);
  // Another account solves it first time: a streak of one, kept over a restart.
  const std::string bob = memberCookie(port);
  a = http(port, "POST", path, Json{{"moves", cli["line"]}}.dump(), bob);
  ASSERT_EQ(a.status, 200);
  EXPECT_EQ(Json::parse(a.body)["streak"], 1);
  server.terminate();
  ASSERT_TRUE(server.start()) << server.logs();
  day = getJson(server.port(), "/api/daily/kalah", bob);
  EXPECT_EQ(day["streak"], 1);
  EXPECT_EQ(day["result"]["solved"], true);
  const Json archive = getJson(server.port(), "/api/daily/kalah/archive", bob);
  EXPECT_GE(archive["days"].size(), 1U);
}

TEST(Study, BadAttemptsAndDaysAreRefusedAndChangeNothing) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string alice = memberCookie(port);
  const Json cli = dailyFromTheCommandLine("kalah");
  const std::string path = "/api/daily/kalah/" + today() + "/attempt";
  Json line = cli["line"];
  Json shortLine = line;
  shortLine.erase(shortLine.size() - 1);
  Json longLine = line;
  longLine.push_back(1);
  EXPECT_EQ(http(port, "POST", path, Json{{"moves", {0}}}.dump(), alice).status, 400) << "an illegal move";
  EXPECT_EQ(http(port, "POST", path, Json{{"moves", shortLine}}.dump(), alice).status, 400) << "stops before the end";
  EXPECT_EQ(http(port, "POST", path, Json{{"moves", longLine}}.dump(), alice).status, 400) << "goes on after it";
  EXPECT_EQ(http(port, "POST", path, "{\"moves\":[\"3\"]}", alice).status, 400);
  EXPECT_EQ(http(port, "POST", path, "not json", alice).status, 400);
  EXPECT_EQ(http(port, "POST", path, Json{{"moves", Json(std::vector<int>(401, 1))}}.dump(), alice).status, 400);
  EXPECT_EQ(http(port, "GET", path, "", alice).status, 405);
  EXPECT_EQ(http(port, "GET", "/api/daily/kalah?date=2099-01-01", "", alice).status, 404) << "not out yet";
  EXPECT_EQ(http(port, "GET", "/api/daily/kalah?date=2020-01-01", "", alice).status, 404) << "before the first day";
  EXPECT_EQ(http(port, "GET", "/api/daily/kalah?date=2026-02-30", "", alice).status, 400);
  // A date is a whole date (issue 27.13: "2026-12-01junk" answered the 12-01 puzzle).
  for (const char* query : {"date=2026-12-01junk", "date=2026-12-01&date=2026-12-02", "date=", "date", "date=2026-12-1",
                            "date=%32026-12-01", "x=1&date=2026-12-01x"}) {
    const auto answer = http(port, "GET", std::string("/api/daily/kalah?") + query, "", alice);
    EXPECT_EQ(answer.status, 400) << query;
    EXPECT_NE(answer.body.find("bad_date"), std::string::npos) << query << ": " << answer.body;
  }
  EXPECT_EQ(http(port, "GET", "/api/daily/kalah?update=1&date=2026-12-01", "", alice).status, 200)
      << "another parameter ending in 'date' is not the date";
  EXPECT_EQ(http(port, "GET", "/api/daily/al-manqala", "", alice).status, 404);
  EXPECT_EQ(http(port, "GET", "/api/daily/nonsense/archive", "", alice).status, 404);
  // None of it was the day's attempt.
  const Json day = getJson(port, "/api/daily/kalah", alice);
  EXPECT_TRUE(day["result"].is_null()) << day.dump();
}

TEST(Study, AFinishedGameIsReviewedAsTheCommandLineReviewsIt) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string ca = newCookie(port), cb = newCookie(port);
  const std::string game = createGame(port, ca, {{"rules", "kalah,houses=4,seeds=3"}, {"mode", "friend"}, {"side", "S"}});
  WsClient a, b;
  ASSERT_TRUE(a.connect(port, ca) && b.connect(port, cb));
  joinGame(a, game);
  Board board = fromState(joinGame(b, game));
  EXPECT_EQ(http(port, "GET", "/api/games/" + game + "/review", "", ca).status, 409) << "not over yet";
  std::mt19937 rng(5);
  for (int moves = 0; moves < 6 && !board.over; ++moves) {
    WsClient& mover = board.toMove == "S" ? a : b;
    WsClient& other = board.toMove == "S" ? b : a;
    ASSERT_GT(playMove(mover, {&other}, game, pickHouse(board.legal, rng), moves + 1, board), 0);
  }
  if (!board.over) {
    a.send({{"type", "resign"}, {"game", game}});
    ASSERT_TRUE(a.until([](const Json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; }));
  }
  auto r = http(port, "GET", "/api/games/" + game + "/review", "", cb);
  ASSERT_EQ(r.status, 200) << r.body;
  const Json review = Json::parse(r.body);
  const std::string record = http(port, "GET", "/api/games/" + game + "/record", "", cb).body;
  const std::string file = ::testing::TempDir() + "semis-study-" + game + ".txt";
  std::ofstream(file) << record;
  const Json cli = Json::parse(run(std::string(SEMIS_BINARY) + " review --json --seconds 2 " + file), nullptr, false);
  ASSERT_TRUE(cli.is_object());
  ASSERT_EQ(review["plies"].size(), cli["plies"].size());
  // Where the server's 80 ms a position proved its values (how many depends on the machine: an
  // ASan build proves fewer), they are the command line's, which proves them all on this board.
  int proven = 0;
  for (std::size_t i = 0; i < cli["plies"].size(); ++i) {
    const Json& mine = review["plies"][i];
    const Json& theirs = cli["plies"][i];
    EXPECT_EQ(mine["move"], theirs["move"]) << i;
    ASSERT_TRUE(theirs["best_exact"] && theirs["played_exact"]) << "a 4-house board is proven in 2 s";
    if (!(mine["best_exact"] && mine["played_exact"])) continue;
    ++proven;
    EXPECT_EQ(mine["mark"], theirs["mark"]) << i;
    EXPECT_EQ(mine["best_value"], theirs["best_value"]) << i;
    EXPECT_EQ(mine["played"], theirs["played"]) << i;
  }
  EXPECT_GT(proven, 0) << "the last moves of a 4-house game are proven at once";
  EXPECT_EQ(http(port, "GET", "/api/games/nosuchgame1/review", "", cb).status, 404);
}

TEST(Study, SolverWorkFromOneAddressIsBounded) {
  if (onCluster()) GTEST_SKIP() << "cluster: each instance has its own bucket per address";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string guest = newCookie(port);
  int refused = 0;
  int answered = 0;
  for (int i = 0; i < 20; ++i) {
    const int status = http(port, "GET", "/api/daily/kalah?date=2026-12-0" + std::to_string(1 + i % 3), "", guest).status;
    refused += status == 429 ? 1 : 0;
    answered += status == 200 ? 1 : 0;
  }
  EXPECT_GT(refused, 0) << "a burst past the share is refused";
  EXPECT_GT(answered, 5);
  // Another address is not held back by the first one's share.
  EXPECT_EQ(httpFrom("127.0.0.2", port, "GET", "/api/daily/kalah").status, 200);
}

TEST(Study, EndgameTablesAreBuiltForEveryPresetWhileTheServerAnswers) {
  ServerProcess server({"--egdb-seeds", "6"});
  ASSERT_TRUE(server.start()) << server.logs();
  // The server answers at once; the tables come in the background, one per preset.
  EXPECT_EQ(http(server.port(), "GET", "/healthz").status, 200);
  EXPECT_TRUE(eventually([&] {
    const std::string logs = server.logs();
    std::size_t n = 0;
    for (std::size_t at = logs.find("\"endgame_table\""); at != std::string::npos; at = logs.find("\"endgame_table\"", at + 1)) ++n;
    return n >= 6 * static_cast<std::size_t>(server.instances());
  }, 20000ms)) << server.logs();
  for (const char* preset : {"al-manqala", "mangala-castle", "kalah"}) {
    EXPECT_NE(server.logs().find(std::string("\"rules\":\"") + preset + "\""), std::string::npos) << preset;
  }
}

}  // namespace
}  // namespace semis::test
