#include "accounts/Passwords.hpp"

#include <gtest/gtest.h>


namespace semis::accounts {
namespace {

TEST(Passwords, UsernamesHaveAShapeAndCompareWithoutCase) {
  for (const char* good : {"abc", "Kalah_Fan-2", "ABCDEFGHIJKLMNOPQRST"}) EXPECT_TRUE(validUsername(good)) << good;
  for (const char* bad : {"", "ab", "ABCDEFGHIJKLMNOPQRSTU", "a b c", "émile", "x;drop", "tab\there"})
    EXPECT_FALSE(validUsername(bad)) << bad;
  EXPECT_EQ(usernameKey("Kalah_Fan"), usernameKey("kALAH_fAN"));
}

TEST(Passwords, AreCheckedAgainstTheirArgon2idHashOnly) {
  EXPECT_FALSE(validPassword("short"));
  EXPECT_FALSE(validPassword(std::string(129, 'x')));
  EXPECT_FALSE(validPassword(std::string("with\0nul", 8)));
  EXPECT_TRUE(validPassword("correct horse"));
  const auto hash = hashPassword("correct horse");
  ASSERT_TRUE(hash);
  EXPECT_EQ(hash->rfind("$argon2id$", 0), 0U) << *hash;
  EXPECT_EQ(hash->find("correct"), std::string::npos);
  EXPECT_TRUE(verifyPassword(*hash, "correct horse"));
  EXPECT_FALSE(verifyPassword(*hash, "correct horsE"));
  EXPECT_FALSE(verifyPassword("", "correct horse"));
  EXPECT_FALSE(verifyPassword("not a hash", "correct horse"));
  // Salted: the same password twice is two different strings.
  EXPECT_NE(*hash, *hashPassword("correct horse"));
}

TEST(Passwords, ClaimCodesAreTypedForgivingly) {
  const std::string code = newClaimCode();
  ASSERT_EQ(code.size(), 8U);
  EXPECT_EQ(normalClaimCode(code), code);
  std::string typed = code.substr(0, 4) + " - " + code.substr(4);
  for (char& c : typed) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(normalClaimCode(typed), code);
  EXPECT_FALSE(normalClaimCode("ABCD"));
  EXPECT_FALSE(normalClaimCode("ABCDEFG0"));  // 0 is never in a code
  EXPECT_FALSE(normalClaimCode(std::string(40, 'A')));
  EXPECT_NE(newClaimCode(), newClaimCode());
}

}  // namespace
}  // namespace semis::accounts
