// The transposition tables grow to their size instead of taking it at once (issue 27.11: a 256 MB
// table cost a short solve 0.8 s of allocation and page clearing): they start small, double as
// they fill, never pass the size given, and keep every entry while they grow.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/SolverKey.hpp"
#include "engine/SolverTable.hpp"
#include "engine/Table.hpp"

namespace semis::engine {
namespace {

std::vector<std::uint64_t> keys(std::size_t n) {
  std::mt19937_64 rng(2711);
  std::vector<std::uint64_t> out(n);
  for (auto& k : out) {
    k = rng();
    if (k == 0) k = 1;  // 0 is an empty slot's key
  }
  return out;
}

TEST(Tables, TheSolversTableGrowsKeepingEveryEntry) {
  SolverTable table(64);
  EXPECT_EQ(table.bytes(), SolverTable::kFirstBuckets * 64);
  const auto ks = keys(200000);
  for (std::size_t i = 0; i < ks.size(); ++i) {
    table.store(ks[i], static_cast<int>(i % 100), static_cast<int>(i % 100), 1 + static_cast<int>(i % 6), 3, true, 1);
  }
  EXPECT_GT(table.bytes(), SolverTable::kFirstBuckets * 64);
  EXPECT_LE(table.bytes(), 64U << 20);
  std::size_t found = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const auto e = table.probe(ks[i]);
    if (e && e->lower == static_cast<int>(i % 100)) ++found;
  }
  // Growth keeps every entry; a bucket can fill before the table is half full, and replaces then.
  EXPECT_GE(found, ks.size() * 9 / 10);
  table.clear();
  EXPECT_EQ(table.bytes(), SolverTable::kFirstBuckets * 64);
  EXPECT_FALSE(table.probe(ks[0]).has_value());
}

TEST(Tables, ASmallSizeIsNeverPassed) {
  SolverTable small(1);
  for (const auto k : keys(100000)) small.store(k, 0, 0, 1, 3, true, 1);
  EXPECT_LE(small.bytes(), 1U << 20);
}

// Threads join a solve halfway (the solver's helpers, after the warm-up): sharing takes the table
// to its whole size at once, since threads probing without locks cannot see it move, and keeps
// what one thread stored, in the hashed layout with its key words rewritten to the shared form;
// clear() makes it unshared and small again. Both layouts.
TEST(Tables, SharingGrowsTheTableToItsSizeKeepingEveryEntry) {
  for (const int keyBits : {0, 48}) {
    SolverTable table(8);
    table.setKeys(keyBits);
    const std::size_t first = table.bytes();
    ASSERT_LT(first, 8U << 20);
    std::vector<std::uint64_t> ks = keys(20000);
    for (auto& k : ks) k &= (std::uint64_t{1} << 48) - 1;
    const auto value = [](std::size_t i) { return static_cast<int>(i % 61) - 30; };
    const std::size_t half = ks.size() / 2;
    for (std::size_t i = 0; i < half; ++i) table.store(ks[i], value(i), value(i), 2, 7, true, 10);
    EXPECT_LT(table.bytes(), 8U << 20) << keyBits;
    // A bucket can fill before the growing table is half full, and replaces then: what it holds now.
    std::vector<bool> held(ks.size(), false);
    for (std::size_t i = 0; i < half; ++i) held[i] = table.probe(ks[i]).has_value();
    EXPECT_GE(std::count(held.begin(), held.end(), true), static_cast<std::ptrdiff_t>(half * 9 / 10));
    table.share();
    EXPECT_EQ(table.bytes(), 8U << 20) << keyBits;
    for (std::size_t i = half; i < ks.size(); ++i) table.store(ks[i], value(i), value(i), 3, 7, true, 10);
    EXPECT_EQ(table.bytes(), 8U << 20) << keyBits;
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const auto e = table.probe(ks[i]);
      if (i < half && !held[i]) continue;
      ASSERT_TRUE(e.has_value()) << keyBits << " " << i;  // 20,000 keys in 131,072 buckets: none replaced
      EXPECT_EQ(e->lower, value(i));
      EXPECT_EQ(e->move, i < half ? 2 : 3);
    }
    EXPECT_TRUE(table.shared());
    table.clear();
    EXPECT_FALSE(table.shared());
    EXPECT_EQ(table.bytes(), first) << keyBits;
    EXPECT_FALSE(table.probe(ks[0]).has_value());
  }
}

// The exact layout: eight 8-byte slots a bucket, the key's high bits as the slot's tag. It grows in
// place as the hashed one does (an entry's next bucket bit is in its tag), and an entry comes back
// as it was stored: open sides, negative bounds, the move, a depth (above 30 kept as 30), proven.
TEST(Tables, TheSolversExactTableGrowsKeepingEveryEntry) {
  SolverTable table(64);
  table.setKeys(48);
  ASSERT_TRUE(table.exact());
  const std::size_t first = table.bytes();
  EXPECT_EQ(first, (std::size_t{1} << 16) * 64) << "48-bit keys: 16 bits in the bucket index, 32 in the tag";
  std::vector<std::uint64_t> ks = keys(400000);
  for (auto& k : ks) k &= (std::uint64_t{1} << 48) - 1;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const int v = static_cast<int>(i % 97) - 48;
    const bool open = i % 3 == 0;
    table.store(ks[i], open ? -kSolverOpen : v, open ? v : kSolverOpen, static_cast<int>(i % 8),
                static_cast<int>(i % 40), i % 5 == 0, i);
  }
  EXPECT_GT(table.bytes(), first);
  EXPECT_LE(table.bytes(), 64U << 20);
  std::size_t found = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const auto e = table.probe(ks[i]);
    if (!e) continue;
    const int v = static_cast<int>(i % 97) - 48;
    const bool open = i % 3 == 0;
    ASSERT_EQ(e->lower, open ? -kSolverOpen : v) << i;
    ASSERT_EQ(e->upper, open ? v : kSolverOpen) << i;
    ASSERT_EQ(static_cast<std::size_t>(e->move), i % 8) << i;
    ASSERT_EQ(e->depth, i % 5 == 0 ? kSolverProven : std::min<int>(static_cast<int>(i % 40), 30)) << i;
    ++found;
  }
  EXPECT_GE(found, ks.size() * 9 / 10);
  // A key that differs from a stored one in a single bit, in the bucket's bits or the tag's, is
  // another position: never found.
  for (std::size_t i = 0; i < 1000; ++i) {
    for (const int bit : {0, 15, 16, 47}) {
      const std::uint64_t other = ks[i] ^ (std::uint64_t{1} << bit);
      if (std::find(ks.begin(), ks.end(), other) == ks.end()) {
        EXPECT_FALSE(table.probe(other).has_value());
      }
    }
  }
  table.clear();
  EXPECT_EQ(table.bytes(), first);
  EXPECT_FALSE(table.probe(ks[1]).has_value());
  // Back to hashed keys: emptied, at the hashed layout's first size.
  table.setKeys(0);
  EXPECT_FALSE(table.exact());
  EXPECT_EQ(table.bytes(), SolverTable::kFirstBuckets * 64);
}

TEST(Tables, APositionWithoutAnExactKeyIsNeitherKeptNorFound) {
  SolverTable table(8);
  table.setKeys(48);
  table.store(SolverKey::kNone, 3, 3, 1, 5, true, 1000);
  EXPECT_FALSE(table.probe(SolverKey::kNone).has_value());
  // Keys wider than a table of this size can index with a 32-bit tag: the hashed layout stays.
  SolverTable tiny(1);
  tiny.setKeys(60);
  EXPECT_FALSE(tiny.exact());
}

TEST(Tables, EveryPositionOfASmallBoardHasItsOwnKey) {
  // Two houses a side, 0..15 seeds each: 65,536 positions, 65,536 keys below 2^16.
  const SolverKey key(2);
  ASSERT_EQ(key.bits(), 16);
  std::vector<bool> seen(1U << 16, false);
  for (std::uint64_t a = 0; a < 16; ++a) {
    for (std::uint64_t b = 0; b < 16; ++b) {
      for (std::uint64_t c = 0; c < 16; ++c) {
        for (std::uint64_t d = 0; d < 16; ++d) {
          const std::uint64_t k = key.of(a | b << 8, c | d << 8);
          ASSERT_LT(k, 1U << 16);
          ASSERT_FALSE(seen[k]) << a << " " << b << " " << c << " " << d;
          seen[k] = true;
        }
      }
    }
  }
  EXPECT_EQ(key.of(16, 0), SolverKey::kNone);
  EXPECT_EQ(key.of(0, std::uint64_t{200} << 8), SolverKey::kNone);
  EXPECT_EQ(SolverKey(6).bits(), 48);
  EXPECT_EQ(SolverKey(7).bits(), 0) << "seven houses: hashed keys";
}

TEST(Tables, TheGeneralTableGrowsKeepingEveryEntry) {
  Table table(64);
  EXPECT_EQ(table.bytes(), Table::kFirstBuckets * 32);
  const auto ks = keys(200000);
  for (std::size_t i = 0; i < ks.size(); ++i) table.store(ks[i], -100, 100, static_cast<int>(i % 50), 5, true, 2);
  EXPECT_GT(table.bytes(), Table::kFirstBuckets * 32);
  EXPECT_LE(table.bytes(), 64U << 20);
  std::size_t found = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const TableEntry* e = table.probe(ks[i]);
    if (e != nullptr && e->lower == static_cast<int>(i % 50)) ++found;
  }
  EXPECT_GE(found, ks.size() * 90 / 100);
  table.clear();
  EXPECT_EQ(table.bytes(), Table::kFirstBuckets * 32);
  EXPECT_EQ(table.probe(ks[0]), nullptr);
}

}  // namespace
}  // namespace semis::engine
