#pragma once
// The bots the black-box tests write (KgpClient.hpp): a member's bot made over HTTP, its KGP
// sign-in, and the simplest play there is (the first house of its row with seeds).

#include <gtest/gtest.h>

#include "ClubPlay.hpp"
#include "KgpClient.hpp"

namespace semis::test {

struct Bot {
  std::string id;
  std::string name;
  std::string token;
};

inline Bot makeBot(unsigned short port, const Member& owner, const std::string& stem) {
  Bot b;
  auto r = http(port, "POST", "/api/bots", Json{{"name", uniqueName(stem)}}.dump(), owner.cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  auto j = Json::parse(r.body, nullptr, false);
  if (j.is_object()) {
    b.id = j.value("id", "");
    b.name = j.value("name", "");
    b.token = j.value("token", "");
  }
  return b;
}

// Greets, signs in and asks for freeplay; true once the server took the token (no `error`).
inline bool signIn(KgpClient& c, const std::string& token, bool quoted = false) {
  auto hello = c.next();
  EXPECT_TRUE(hello && splitKgp(*hello).name == "kgp") << (hello ? *hello : "nothing");
  if (!hello || splitKgp(*hello).args.substr(0, 1) != "1") return false;
  c.sendLine(quoted ? "set \"auth:token\" \"" + token + "\"" : "set auth:token " + token);
  c.sendLine(quoted ? "mode \"freeplay\"" : "mode freeplay");
  // Nothing comes back until a game offers a turn; an `error` would come at once.
  auto answer = c.next(700ms);
  if (answer && splitKgp(*answer).name == "error") return false;
  if (answer) c.seen().push_back("(early) " + *answer);
  return !c.closed();
}

// The first house with seeds of the bot's own row (KGP numbers 1..n), from a `state` line.
inline int firstMove(const std::vector<int>& board) {
  const int n = board.at(0);
  for (int k = 1; k <= n; ++k) {
    if (board.at(static_cast<std::size_t>(2 + k)) > 0) return k;
  }
  return 1;
}

}  // namespace semis::test
