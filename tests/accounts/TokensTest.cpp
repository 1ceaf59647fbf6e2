#include "accounts/Tokens.hpp"

#include <gtest/gtest.h>

#include <set>

namespace semis::accounts {
namespace {

TEST(Tokens, AreValidDistinctAndHashedOneWay) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string t = newToken();
    EXPECT_TRUE(validToken(t)) << t;
    EXPECT_TRUE(seen.insert(t).second) << "two equal tokens";
    const std::string h = hashToken(t);
    EXPECT_EQ(h.size(), 64U);
    EXPECT_NE(h, t);
    EXPECT_EQ(hashToken(t), h) << "the hash is a function of the token";
  }
  // SHA-256 of "abc", the standard's own test vector: the store's hashes are portable.
  EXPECT_EQ(hashToken("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Tokens, RejectMalformed) {
  EXPECT_FALSE(validToken(""));
  EXPECT_FALSE(validToken(std::string(63, 'a')));
  EXPECT_FALSE(validToken(std::string(64, 'g')));
  EXPECT_FALSE(validToken(std::string(64, 'A')));
  EXPECT_TRUE(validToken(std::string(64, 'f')));
}

TEST(Tokens, GuestIdIsStablePerTokenAndDiffersBetweenTokens) {
  const std::string a = newToken();
  const std::string b = newToken();
  EXPECT_EQ(guestId(a), guestId(a));
  EXPECT_NE(guestId(a), guestId(b));
  EXPECT_EQ(guestId(a).size(), 10U);
  EXPECT_EQ(randomId(10).size(), 10U);
  EXPECT_NE(randomId(10), randomId(10));
}

}  // namespace
}  // namespace semis::accounts
