#include <gtest/gtest.h>

#include <cmath>

#include "lobby/Pairing.hpp"

namespace semis::lobby {
namespace {

const auto noBlocks = [](const std::string&, const std::string&) { return false; };
constexpr long long kNow = 1'000'000;

Seeker seeker(const std::string& player, double rating, long long waitedMs = 0, const std::string& pool = "kalah|0+0") {
  return Seeker{"s-" + player, player, pool, rating, kNow - waitedMs, true};
}

TEST(Pairing, TheWindowWidensWithWaiting) {
  EXPECT_EQ(pairingWindow(0), 100);
  EXPECT_EQ(pairingWindow(10'000), 300);
  EXPECT_TRUE(std::isinf(pairingWindow(60'000)));
  const std::vector<Seeker> far{seeker("a", 1500, 0), seeker("b", 1900, 0)};
  EXPECT_TRUE(pairQuick(far, kNow, noBlocks).empty()) << "400 apart, nobody waited";
  const std::vector<Seeker> waited{seeker("a", 1500, 14'000), seeker("b", 1900, 0)};
  EXPECT_TRUE(pairQuick(waited, kNow, noBlocks).empty()) << "14 s: a window of 380";
  const std::vector<Seeker> longer{seeker("a", 1500, 15'000), seeker("b", 1900, 0)};
  EXPECT_EQ(pairQuick(longer, kNow, noBlocks).size(), 1U) << "15 s: 400";
}

TEST(Pairing, OnlyWithinOnePoolAndTheSameRatedFlag) {
  std::vector<Seeker> s{seeker("a", 1500), seeker("b", 1500, 0, "kalah|180+2"), seeker("c", 1500, 0, "mangala|0+0")};
  EXPECT_TRUE(pairQuick(s, kNow, noBlocks).empty());
  s.push_back(seeker("d", 1500));
  s.back().rated = false;
  EXPECT_TRUE(pairQuick(s, kNow, noBlocks).empty()) << "a casual seek never meets a rated one";
}

TEST(Pairing, ClosestFirstEachOnceNeverHimselfNeverBlocked) {
  const std::vector<Seeker> s{seeker("a", 1500), seeker("b", 1580), seeker("c", 1510), seeker("d", 1590)};
  const auto pairs = pairQuick(s, kNow, noBlocks);
  ASSERT_EQ(pairs.size(), 2U);
  EXPECT_EQ(pairs[0], (std::pair<std::size_t, std::size_t>{0, 2}));  // 10 apart
  EXPECT_EQ(pairs[1], (std::pair<std::size_t, std::size_t>{1, 3}));
  const std::vector<Seeker> self{seeker("a", 1500), Seeker{"s2", "a", "kalah|0+0", 1500, kNow, true}};
  EXPECT_TRUE(pairQuick(self, kNow, noBlocks).empty());
  const auto blockAC = [](const std::string& x, const std::string& y) {
    return (x == "a" && y == "c") || (x == "c" && y == "a");
  };
  // b-d still pair first (10 apart); a and c, blocked, wait rather than meet.
  const auto other = pairQuick(s, kNow, blockAC);
  ASSERT_EQ(other.size(), 1U);
  EXPECT_EQ(other[0], (std::pair<std::size_t, std::size_t>{1, 3}));
}

TEST(Pairing, APlayerSeekingInTwoPoolsIsPairedOnce) {
  const std::vector<Seeker> s{seeker("a", 1500), seeker("b", 1500), Seeker{"s-a2", "a", "mangala|0+0", 1500, kNow, true},
                              seeker("c", 1500, 0, "mangala|0+0")};
  const auto pairs = pairQuick(s, kNow, noBlocks);
  ASSERT_EQ(pairs.size(), 1U) << "a plays b or c, not both";
}

TEST(Pairing, ManySeekersAreAllPairedEachOnceNeighboursFirst) {
  std::vector<Seeker> s;
  for (int i = 0; i < 2000; ++i) s.push_back(seeker("p" + std::to_string(i), 1000 + (i * 7919) % 1200, 61'000));
  const auto pairs = pairQuick(s, kNow, noBlocks);
  ASSERT_EQ(pairs.size(), 1000U) << "everyone waited a minute: everyone plays";
  std::vector<int> seen(s.size(), 0);
  double total = 0;
  for (const auto& [i, j] : pairs) {
    ++seen[i];
    ++seen[j];
    total += std::abs(s[i].rating - s[j].rating);
  }
  for (int n : seen) EXPECT_EQ(n, 1);
  EXPECT_LT(total / 1000, 5.0) << "partners are rating neighbours (ratings 0.6 apart on average)";
}

TEST(Pairing, ALobbySeeksRange) {
  EXPECT_TRUE(acceptsLobby(1500, 0, 2400));
  EXPECT_TRUE(acceptsLobby(1500, 200, 1700));
  EXPECT_FALSE(acceptsLobby(1500, 200, 1701));
}

}  // namespace
}  // namespace semis::lobby
