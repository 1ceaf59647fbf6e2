// The club's records (store/ClubStore.hpp) on every backend: SQLite always, PostgreSQL with
// SEMIS_TEST_PG. The once-only writes are raced from threads.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "store/ClubStore.hpp"
#include "BackendSuite.hpp"

namespace semis::store {
namespace {

class ClubSuite : public testing::BackendSuite {
 protected:
  void SetUp() override {
    BackendSuite::SetUp();
    if (notReady()) return;
    for (const char* id : {"alice00001", "bob0000001", "carol00001"}) {
      ASSERT_TRUE(st().createPlayer(PlayerRow{id, std::string("Name of ") + id, 10}, std::string("hash-") + id));
    }
  }
  Store& st() { return *store_; }
  ClubStore& club() { return store_->club(); }
  GameRow game(const std::string& id, const std::string& s, const std::string& n, const std::string& status, long long at) {
    GameRow g;
    g.id = id;
    g.rules = "kalah";
    g.mode = "friend";
    g.level = "medium";
    g.seatS = s;
    g.seatN = n;
    g.status = status;
    g.created = at;
    g.updated = at;
    g.rated = true;
    return g;
  }
  SeekRow seekOf(const std::string& id, const std::string& player, long long created) {
    SeekRow k;
    k.id = id;
    k.player = player;
    k.rules = "kalah";
    k.key = "kalah";
    k.rated = true;
    k.quick = true;
    k.rating = 1500;
    k.created = created;
    return k;
  }
  RatedResult result(const std::string& game, double south) {
    RatedResult r;
    r.game = game;
    r.key = "kalah";
    r.southScore = south;
    r.at = 500;
    r.after[0] = RatingRow{"alice00001", "kalah", 1700, 200, 0.09, 1, 1, 0, 0, 500};
    r.after[1] = RatingRow{"bob0000001", "kalah", 1300, 200, 0.09, 1, 0, 0, 1, 500};
    r.change = {200, -200};
    return r;
  }
};

TEST_P(ClubSuite, AccountsAreFoundByUsernameWhateverTheCase) {
  // The caller computes the key (accounts::usernameKey: the name in lower case).
  ASSERT_TRUE(club().createAccount(AccountRow{"alice00001", "Alice_K", "$argon2id$x", 5, "alice_k"}));
  auto a = club().accountByUsername("alice_k");
  ASSERT_TRUE(a && *a);
  EXPECT_EQ((*a)->player, "alice00001");
  EXPECT_EQ((*a)->username, "Alice_K");
  EXPECT_EQ((*a)->passwordHash, "$argon2id$x");
  EXPECT_EQ((*a)->usernameKey, "alice_k");
  EXPECT_FALSE(*club().accountByUsername("Alice_K")) << "found by its key only";
  auto taken = club().createAccount(AccountRow{"bob0000001", "ALICE_k", "h", 6, "alice_k"});
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().fault, Fault::Conflict);
  auto twice = club().createAccount(AccountRow{"alice00001", "other", "h", 6, "other"});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().fault, Fault::Conflict);
  EXPECT_FALSE(*club().accountOf("bob0000001"));
  auto card = club().card("alice00001");
  ASSERT_TRUE(card && *card);
  EXPECT_EQ((*card)->username, "Alice_K");
}

TEST_P(ClubSuite, SessionsAndClaimCodesLeadToTheirPlayerOnce) {
  ASSERT_TRUE(club().addToken("alice00001", "second-device"));
  EXPECT_EQ((*st().playerByToken("second-device"))->id, "alice00001");
  ASSERT_TRUE(club().dropToken("second-device"));
  EXPECT_FALSE(*st().playerByToken("second-device"));
  EXPECT_TRUE(*st().playerByToken("hash-alice00001")) << "the other session stays";
  ASSERT_TRUE(club().createClaim("code-hash", "alice00001", 1000));
  ASSERT_TRUE(club().createClaim("old-code", "bob0000001", 100));
  EXPECT_FALSE(*club().takeClaim("old-code", 500)) << "expired";
  // Two redemptions at once: one gets the player.
  std::atomic<int> got{0};
  std::vector<std::thread> t;
  for (int i = 0; i < 4; ++i) {
    t.emplace_back([&] {
      auto p = club().takeClaim("code-hash", 500);
      if (p && *p && **p == "alice00001") ++got;
    });
  }
  for (auto& th : t) th.join();
  EXPECT_EQ(got.load(), 1);
}

TEST_P(ClubSuite, ARatedResultIsWrittenOnceWithBothRatingsAndTheirHistory) {
  ASSERT_TRUE(st().createGame(game("game000001", "alice00001", "bob0000001", "over", 400), {}));
  EXPECT_TRUE((*st().game("game000001"))->rated);
  std::atomic<int> ok{0}, conflicts{0};
  std::vector<std::thread> t;
  for (int i = 0; i < 4; ++i) {
    t.emplace_back([&] {
      auto r = club().applyRated(result("game000001", 1));
      if (r) ++ok;
      if (!r && r.error().fault == Fault::Conflict) ++conflicts;
    });
  }
  for (auto& th : t) th.join();
  EXPECT_EQ(ok.load(), 1);
  EXPECT_EQ(conflicts.load(), 3);
  auto a = club().rating("alice00001", "kalah");
  ASSERT_TRUE(a && *a);
  EXPECT_EQ((*a)->rating, 1700);
  EXPECT_EQ((*a)->wins, 1);
  EXPECT_EQ(club().ratings("bob0000001")->size(), 1U);
  auto rr = club().ratedResult("game000001");
  ASSERT_TRUE(rr && *rr);
  EXPECT_EQ((*rr)->change[1], -200);
  EXPECT_EQ((*rr)->after[0].player, "alice00001");
  auto history = club().ratingHistory("bob0000001", "kalah", 10);
  ASSERT_EQ(history->size(), 1U);
  EXPECT_EQ((*history)[0].game, "game000001");
  auto fp = club().firstPlayerScore("kalah");
  EXPECT_EQ(fp->first, 1);
  EXPECT_EQ(fp->second, 1.0);
  // The leaderboard: established (RD below the bound) only, best first.
  EXPECT_EQ(club().leaderboard("kalah", 250, 10)->size(), 2U);
  EXPECT_TRUE(club().leaderboard("kalah", 110, 10)->empty());
  EXPECT_EQ(club().leaderboard("kalah", 250, 10)->front().second.player.id, "alice00001");
  auto played = club().gamesOf("bob0000001", 1'000'000, 10);
  ASSERT_EQ(played->size(), 1U);
  ASSERT_TRUE((*played)[0].change);
  EXPECT_EQ((*(*played)[0].change)[1], -200);
}

TEST_P(ClubSuite, TwoPairingsOfOneSeekCreateOneGame) {
  ASSERT_TRUE(club().createSeek(seekOf("seek000001", "alice00001", 1)));
  ASSERT_TRUE(club().createSeek(seekOf("seek000002", "bob0000001", 2)));
  ASSERT_TRUE(club().createSeek(seekOf("seek000003", "carol00001", 3)));
  EXPECT_EQ(club().openSeeks()->size(), 3U);
  // Two instances pair seek 1 at once, each with another partner.
  std::atomic<int> ok{0};
  std::thread x([&] { ok += club().pairSeeks("seek000001", "seek000002", game("gameA00001", "alice00001", "bob0000001", "playing", 9), {}).has_value(); });
  std::thread y([&] { ok += club().pairSeeks("seek000001", "seek000003", game("gameB00001", "alice00001", "carol00001", "playing", 9), {}).has_value(); });
  x.join();
  y.join();
  EXPECT_EQ(ok.load(), 1);
  const bool a = (*st().game("gameA00001")).has_value(), b = (*st().game("gameB00001")).has_value();
  EXPECT_NE(a, b) << "exactly one game was created";
  EXPECT_EQ(club().openSeeks()->size(), 1U);
  EXPECT_EQ((*club().seek("seek000001"))->game, a ? "gameA00001" : "gameB00001");
  const std::string left = a ? "seek000003" : "seek000002";
  EXPECT_FALSE(*club().cancelSeek(left, "alice00001")) << "only its seeker cancels it";
  EXPECT_TRUE(*club().cancelSeek(left, a ? "carol00001" : "bob0000001"));
  EXPECT_TRUE(club().openSeeks()->empty());
  ASSERT_TRUE(club().createSeek(seekOf("seek000004", "carol00001", 100)));
  EXPECT_EQ(*club().expireSeeks(50), 0);
  EXPECT_EQ(*club().expireSeeks(101), 1);
}

TEST_P(ClubSuite, FriendsBlocksAndADeletedAccount) {
  ASSERT_TRUE(club().createAccount(AccountRow{"bob0000001", "bob", "h", 1, "bob"}));
  ASSERT_TRUE(club().addFriend("alice00001", "bob0000001", 1));
  ASSERT_TRUE(club().addFriend("alice00001", "bob0000001", 2)) << "twice is once";
  auto f = club().friendsOf("alice00001");
  ASSERT_EQ(f->size(), 1U);
  EXPECT_EQ((*f)[0].username, "bob");
  EXPECT_TRUE(club().friendsOf("bob0000001")->empty()) << "one way";
  EXPECT_FALSE(*club().blockedEitherWay("alice00001", "carol00001"));
  ASSERT_TRUE(club().block("carol00001", "alice00001", 3));
  EXPECT_TRUE(*club().blockedEitherWay("alice00001", "carol00001"));
  EXPECT_EQ(club().blockedBy("carol00001")->size(), 1U);
  ASSERT_TRUE(club().unblock("carol00001", "alice00001"));
  EXPECT_FALSE(*club().blockedEitherWay("alice00001", "carol00001"));
  // Bob deletes his account: his games stay, under his renamed row.
  ASSERT_TRUE(st().createGame(game("game000009", "alice00001", "bob0000001", "over", 7), {}));
  ASSERT_TRUE(club().applyRated(result("game000009", 1)));
  ASSERT_TRUE(club().deleteAccount("bob0000001", "Deleted player"));
  EXPECT_FALSE(*club().accountOf("bob0000001"));
  EXPECT_FALSE(*st().playerByToken("hash-bob0000001"));
  EXPECT_EQ((*st().player("bob0000001"))->name, "Deleted player");
  EXPECT_TRUE(club().friendsOf("alice00001")->empty());
  EXPECT_TRUE(club().ratings("bob0000001")->empty());
  EXPECT_TRUE((*st().game("game000009")).has_value());
  EXPECT_EQ(club().gamesOf("alice00001", 1'000'000, 10)->size(), 1U);
}

INSTANTIATE_TEST_SUITE_P(Backends, ClubSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace semis::store
