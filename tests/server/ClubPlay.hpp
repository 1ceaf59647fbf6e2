#pragma once
// Helpers for the club's black-box tests: accounts made over HTTP, and paired games played out.

#include "Play.hpp"

namespace semis::test {

// A new visitor who signs up: his cookie, id and username.
struct Member {
  std::string cookie;
  std::string id;
  std::string username;
};

inline std::string uniqueName(const std::string& stem) {
  static std::mt19937 rng(std::random_device{}());
  return stem + std::to_string(rng() % 1000000);
}

inline Member signUp(unsigned short port, const std::string& stem, const std::string& password = "correct horse") {
  Member m;
  m.cookie = newCookie(port);
  m.username = uniqueName(stem);
  auto r = http(port, "POST", "/api/account/signup", Json{{"username", m.username}, {"password", password}}.dump(), m.cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  auto j = Json::parse(r.body, nullptr, false);
  if (j.is_object() && j.contains("id")) m.id = j["id"].get<std::string>();
  return m;
}

inline Json getJson(unsigned short port, const std::string& target, const std::string& cookie = "") {
  return Json::parse(http(port, "GET", target, "", cookie).body, nullptr, false);
}

// Both seek the same quick game; returns the game both were paired into ("" if not the same one).
inline std::string quickPair(WsClient& a, WsClient& b, const Json& seek) {
  Json s = seek;
  s["type"] = "seek";
  a.send(s);
  auto sa = a.untilType("seeking");
  EXPECT_TRUE(sa) << "a's seek";
  b.send(s);
  auto pa = a.untilType("paired", 10000ms);
  auto pb = b.untilType("paired", 10000ms);
  if (!pa || !pb) {
    ADD_FAILURE() << "not paired";
    return "";
  }
  EXPECT_EQ((*pa)["seek"], (*sa)["seek"]);
  EXPECT_EQ((*pa)["game"], (*pb)["game"]);
  return (*pa)["game"] == (*pb)["game"] ? (*pa)["game"].get<std::string>() : "";
}

// A rated game played out: its state once the server has stored the rating changes (empty "ratings"
// on failure), and a check that the winner (S or N, from `end`) gained and the loser lost.
inline Json ratedOutcome(unsigned short port, const std::string& game, const std::string& cookie, const Board& end) {
  Json done;
  EXPECT_TRUE(eventually([&] {
    done = getJson(port, "/api/games/" + game, cookie);
    return done.contains("ratings");
  }, 10000ms)) << done.dump();
  if (!done.contains("ratings")) return done;
  const std::string winner = end.result["winner"];
  const double changeS = done["ratings"]["S"]["change"], changeN = done["ratings"]["N"]["change"];
  if (winner == "S") {
    EXPECT_GT(changeS, 0);
    EXPECT_LT(changeN, 0);
  } else if (winner == "N") {
    EXPECT_LT(changeS, 0);
    EXPECT_GT(changeN, 0);
  }
  return done;
}

// Both joined: plays random legal moves to the end; the final board.
inline Board playToTheEnd(WsClient& a, WsClient& b, const std::string& game, unsigned seed) {
  const Json sa = joinGame(a, game);
  const Json sb = joinGame(b, game);
  Board board = fromState(sa);
  WsClient& south = sa["you"] == "S" ? a : b;
  WsClient& north = sa["you"] == "S" ? b : a;
  EXPECT_NE(sa["you"], sb["you"]);
  std::mt19937 rng(seed);
  for (int moves = 0; !board.over && moves < 500; ++moves) {
    WsClient& mover = board.toMove == "S" ? south : north;
    WsClient& other = board.toMove == "S" ? north : south;
    if (playMove(mover, {&other}, game, pickHouse(board.legal, rng), moves + 1, board) == 0) break;
  }
  return board;
}

}  // namespace semis::test
