// Bots judged by the solver (docs/bots.md, "Accuracy"), black-box: a bot written here plays a
// person over KGP to the end; the server reviews the game in the background, and the bot's profile
// then counts exactly the proven and perfect moves that the game's review shows for the bot's side.
// A finished bot game left unreviewed (an instance that died first) is found again after a restart.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>

#include "KgpPlay.hpp"

namespace semis::test {
namespace {

struct Tally {
  long long perfect = 0;
  long long proven = 0;
};

// What the review says of `side`'s moves: chosen among two or more (not `forced`), both values
// exact; perfect when the played value is the best's.
Tally tallyOf(const Json& review, const std::string& side) {
  Tally t;
  for (const Json& p : review["plies"]) {
    if (p["mover"] != side || p["mark"] == "forced") continue;
    if (!p["best_exact"].get<bool>() || !p["played_exact"].get<bool>()) continue;
    ++t.proven;
    if (p["played"].get<int>() >= p["best_value"].get<int>()) ++t.perfect;
  }
  return t;
}

class ServerBotAccuracy : public ::testing::Test {
 protected:
  void SetUp() override {
    srv_.start();
    port_ = srv_.port;
    kgp_ = srv_.kgp;
  }

  // A person (South) plays the bot (North) to the end over 6x4 Kalah: the person the first legal
  // house, the bot the first house of its row with seeds. The game's id.
  std::string playToTheEnd(const Bot& bot) {
    KgpClient c;
    EXPECT_TRUE(c.connect(KgpClient::Via::Tcp, kgp_));
    EXPECT_TRUE(signIn(c, bot.token));
    Member person = signUp(port_, "player");
    const std::string game =
        createGame(port_, person.cookie, {{"rules", "kalah"}, {"mode", "bot"}, {"bot", bot.name}, {"side", "S"}});
    EXPECT_FALSE(game.empty());
    WsClient ws;
    EXPECT_TRUE(ws.connect(port_, person.cookie));
    joinGame(ws, game);
    for (int turn = 0; turn < 400; ++turn) {
      const Json state = getJson(port_, "/api/games/" + game, person.cookie);
      if (state["status"] == "over") return game;
      if (state["position"]["to_move"] == "S") {
        ws.send({{"type", "move"}, {"game", game}, {"house", state["legal"].at(0)}, {"id", turn}});
        auto ack = ws.until([](const Json& m) { return m["type"] == "ack" || m["type"] == "error"; });
        EXPECT_TRUE(ack && (*ack)["type"] == "ack") << (ack ? ack->dump() : "no ack");
        continue;
      }
      auto line = c.untilCommand("state", 10s);
      if (!line) {
        ADD_FAILURE() << "the bot was not offered its turn";
        return game;
      }
      const KgpLine l = splitKgp(*line);
      c.sendLine("@" + std::to_string(l.id) + " move " + std::to_string(firstMove(kgpBoard(l.args))));
      c.sendLine("@" + std::to_string(l.id) + " yield");
      const std::size_t plies = state["plies"].size();
      EXPECT_TRUE(eventually([&] {
        const Json after = getJson(port_, "/api/games/" + game, person.cookie);
        return after["plies"].size() > plies || after["status"] == "over";
      }));
    }
    ADD_FAILURE() << "the game did not end";
    return game;
  }

  // The bot's profile once it counts `games` reviewed games (polled: the review runs in the
  // background), or the last profile read when the deadline passed.
  Json accuracyAfter(const Bot& bot, long long games) {
    Json profile;
    eventually(
        [&] {
          profile = getJson(port_, "/api/players/" + bot.id);
          return profile["accuracy"].is_object() && profile["accuracy"]["games"] == games;
        },
        120s);
    return profile;
  }

  // The profile's numbers equal the review's for the bot's side (North). The review's values are
  // the search's within its time a position, so the reviews of two instances may differ: on a
  // cluster the instance whose rows were kept has them in its cache, so one instance's agrees.
  void expectTheReviewsNumbers(const Json& profile, const std::string& game) {
    ASSERT_TRUE(profile["accuracy"].is_object()) << profile.dump() << "\n" << server_.logs();
    std::vector<unsigned short> ports{port_};
    if (server_.clustered()) {
      ports.clear();
      for (int i = 0; i < server_.instances(); ++i) ports.push_back(server_.instancePort(i));
    }
    std::string reviews;
    for (const unsigned short port : ports) {
      const auto r = http(port, "GET", "/api/games/" + game + "/review");
      ASSERT_EQ(r.status, 200) << r.body;
      const Tally t = tallyOf(Json::parse(r.body), "N");
      EXPECT_GT(t.proven, 0) << "a 6x4 game has proven moves: " << r.body;
      EXPECT_LE(t.perfect, t.proven);
      if (profile["accuracy"]["proven"] == t.proven && profile["accuracy"]["perfect"] == t.perfect) return;
      reviews += r.body + "\n";
    }
    ADD_FAILURE() << "no review of the game counts what the profile says: " << profile.dump() << "\n" << reviews;
  }

  ServerUnderTest srv_;
  ServerProcess& server_ = srv_.server;
  unsigned short port_ = 0;
  unsigned short kgp_ = 0;
};

TEST_F(ServerBotAccuracy, ABotsProfileCountsWhatTheReviewProvesOfItsMoves) {
  Member owner = signUp(port_, "owner");
  const Bot bot = makeBot(port_, owner, "judged");
  ASSERT_FALSE(bot.token.empty());
  const Json before = getJson(port_, "/api/players/" + bot.id);
  EXPECT_EQ(before["accuracy"], (Json{{"perfect", 0}, {"proven", 0}, {"games", 0}})) << before.dump();
  EXPECT_FALSE(getJson(port_, "/api/players/" + owner.id).contains("accuracy")) << "a person has none";
  const std::string game = playToTheEnd(bot);
  ASSERT_FALSE(HasFailure());
  expectTheReviewsNumbers(accuracyAfter(bot, 1), game);
}

TEST_F(ServerBotAccuracy, AGameEndedBeforeARestartIsReviewedAfterIt) {
  const char* mode = std::getenv("SEMIS_SERVER_TEST_DB");
  if (mode != nullptr && (std::string(mode) == "postgresql" || std::string(mode) == "cluster"))
    GTEST_SKIP() << "edits the SQLite file directly";
  Member owner = signUp(port_, "owner");
  const Bot bot = makeBot(port_, owner, "restarted");
  ASSERT_FALSE(bot.token.empty());
  const std::string game = playToTheEnd(bot);
  ASSERT_FALSE(HasFailure());
  server_.kill9();
  // As if the instance had died between the end and its review: the end is stored, no review.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(server_.db().c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, "DELETE FROM bot_accuracy", nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
  ASSERT_TRUE(server_.start()) << server_.logs();
  // Nobody asks for the game: the profile alone shows the review come back.
  expectTheReviewsNumbers(accuracyAfter(bot, 1), game);
}

}  // namespace
}  // namespace semis::test
