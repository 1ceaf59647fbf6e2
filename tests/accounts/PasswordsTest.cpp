#include "accounts/Passwords.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

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

TEST(Passwords, TheGateBoundsHashesRunningAndWaiting) {
  PasswordGate gate(2, 3);
  std::atomic<int> inside{0}, most{0}, done{0}, refused{0};
  std::atomic<bool> release{false};
  std::vector<std::thread> callers;
  for (int i = 0; i < 8; ++i) {
    callers.emplace_back([&] {
      const bool ran = gate.run([&] {
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        while (!release) std::this_thread::yield();
        --inside;
      });
      (ran ? done : refused)++;
    });
  }
  // 2 run, 3 wait, 3 are refused at once.
  while (refused.load() < 3) std::this_thread::yield();
  release = true;
  for (auto& t : callers) t.join();
  EXPECT_EQ(refused.load(), 3);
  EXPECT_EQ(done.load(), 5);
  EXPECT_LE(most.load(), 2);
}

}  // namespace
}  // namespace semis::accounts
