// The store's contract, run on every backend: SQLite always, PostgreSQL when SEMIS_TEST_PG names an
// admin URL (each test gets its own fresh database through it).

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <thread>

#include "accounts/Tokens.hpp"
#include "store/Store.hpp"
#include "TestDb.hpp"

namespace semis::store {
namespace {

using testing::TestDb;

GameRow makeGame(const std::string& id, const std::string& seatS, const std::string& seatN, const std::string& status,
                 long long at) {
  GameRow g;
  g.id = id;
  g.rules = "kalah(6,4)";
  g.mode = "friend";
  g.level = "medium";
  g.clockSeconds = 300;
  g.clockIncrement = 5;
  g.seatS = seatS;
  g.seatN = seatN;
  g.status = status;
  g.created = at;
  g.updated = at;
  return g;
}

MoveRow makeMove(int seq, int house, long long eventN) {
  MoveRow m;
  m.seq = seq;
  m.kind = "move";
  m.side = seq % 2 == 1 ? 0 : 1;
  m.house = house;
  m.clientId = "\"c" + std::to_string(seq) + "\"";
  m.clockS = 1000 * seq;
  m.clockN = 2000 * seq;
  m.eventN = eventN;
  return m;
}

EventRow makeEvent(long long n) { return {n, R"({"type":"event","n":)" + std::to_string(n) + "}"}; }

class StoreSuite : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql" && !testing::pgAdminUrl()) {
      GTEST_SKIP() << "PostgreSQL store tests skipped: set SEMIS_TEST_PG to an admin URL, e.g. "
                      "postgresql://postgres@127.0.0.1:55432/postgres";
    }
    db_ = std::make_unique<TestDb>(GetParam());
    ASSERT_EQ(db_->error(), "");
    reopen();
  }
  void TearDown() override {
    store_.reset();
    db_.reset();
  }
  void reopen() {
    store_.reset();
    auto s = openStore(db_->where());
    ASSERT_TRUE(s) << s.error().message;
    store_ = std::move(*s);
  }
  Store& st() { return *store_; }

  std::unique_ptr<TestDb> db_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreSuite, NamesItsBackend) { EXPECT_EQ(st().backend(), GetParam()); }

TEST_P(StoreSuite, FindsPlayersByTokenHash) {
  const std::string token = accounts::newToken();
  ASSERT_TRUE(st().createPlayer({"Abcdefgh23", "Ada", 1700000000123}, accounts::hashToken(token)));
  auto found = st().playerByToken(accounts::hashToken(token));
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->id, "Abcdefgh23");
  EXPECT_EQ((*found)->name, "Ada");
  EXPECT_EQ((*found)->created, 1700000000123);
  // The plain token is no key: only its hash is stored.
  auto plain = st().playerByToken(token);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->has_value());
  auto other = st().playerByToken(accounts::hashToken(accounts::newToken()));
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->has_value());
  auto byId = st().player("Abcdefgh23");
  ASSERT_TRUE(byId);
  ASSERT_TRUE(byId->has_value());
  EXPECT_EQ((*byId)->name, "Ada");
  auto none = st().player("Zzzzzzzzzz");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
}

TEST_P(StoreSuite, RefusesADuplicatePlayerIdOrTokenHash) {
  const std::string hash1 = accounts::hashToken(accounts::newToken());
  const std::string hash2 = accounts::hashToken(accounts::newToken());
  ASSERT_TRUE(st().createPlayer({"Player0001", "Ada", 1}, hash1));
  auto sameId = st().createPlayer({"Player0001", "Bob", 2}, hash2);
  ASSERT_FALSE(sameId);
  EXPECT_EQ(sameId.error().fault, Fault::Conflict) << sameId.error().message;
  // The refused player left no token behind.
  auto byHash2 = st().playerByToken(hash2);
  ASSERT_TRUE(byHash2);
  EXPECT_FALSE(byHash2->has_value());
  auto sameHash = st().createPlayer({"Player0002", "Cy", 3}, hash1);
  ASSERT_FALSE(sameHash);
  EXPECT_EQ(sameHash.error().fault, Fault::Conflict) << sameHash.error().message;
  // ...and no player row either: the pair is one transaction.
  auto p2 = st().player("Player0002");
  ASSERT_TRUE(p2);
  EXPECT_FALSE(p2->has_value());
  EXPECT_EQ((*st().player("Player0001"))->name, "Ada");
}

TEST_P(StoreSuite, RenamesAPlayer) {
  const std::string hash = accounts::hashToken(accounts::newToken());
  ASSERT_TRUE(st().createPlayer({"Player0001", "Ada", 1}, hash));
  ASSERT_TRUE(st().renamePlayer("Player0001", "Ada L."));
  EXPECT_EQ((*st().playerByToken(hash))->name, "Ada L.");
  auto missing = st().renamePlayer("Nobody0000", "X");
  EXPECT_FALSE(missing);
}

TEST_P(StoreSuite, CreatesAGameWithItsEvents) {
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "", "waiting", 100), {makeEvent(1), makeEvent(2)}));
  auto log = st().loadGame("game000001");
  ASSERT_TRUE(log) << log.error().message;
  ASSERT_TRUE(log->has_value());
  const GameRow& g = (*log)->game;
  EXPECT_EQ(g.rules, "kalah(6,4)");
  EXPECT_EQ(g.mode, "friend");
  EXPECT_EQ(g.level, "medium");
  EXPECT_EQ(g.clockSeconds, 300);
  EXPECT_EQ(g.clockIncrement, 5);
  EXPECT_EQ(g.seatS, "Player0001");
  EXPECT_EQ(g.seatN, "");
  EXPECT_EQ(g.status, "waiting");
  EXPECT_EQ(g.created, 100);
  EXPECT_EQ(g.updated, 100);
  ASSERT_EQ((*log)->events.size(), 2U);
  EXPECT_EQ((*log)->events[1].json, makeEvent(2).json);
  EXPECT_TRUE((*log)->moves.empty());
  // The same id again is refused whole: its events are not added to the first game's.
  auto again = st().createGame(makeGame("game000001", "Player0002", "", "waiting", 200), {makeEvent(3)});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().fault, Fault::Conflict);
  EXPECT_EQ((*st().loadGame("game000001"))->events.size(), 2U);
  EXPECT_EQ((*st().game("game000001"))->seatS, "Player0001");
  EXPECT_EQ(*st().countGames(), 1);
  auto none = st().loadGame("nosuchgame");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
}

TEST_P(StoreSuite, AppliesAnActionWholeOrNotAtAll) {
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "Player0002", "playing", 100), {makeEvent(1)}));
  Action a;
  a.game = "game000001";
  a.move = makeMove(1, 3, 2);
  a.events = {makeEvent(2)};
  a.update = GameUpdate{"Player0001", "Player0002", "playing", ""};
  a.at = 150;
  ASSERT_TRUE(st().apply(a));
  // The next action reuses event 2: refused, and its move (seq 2) and game update are not stored.
  Action b;
  b.game = "game000001";
  b.move = makeMove(2, 4, 3);
  b.events = {makeEvent(3), makeEvent(2)};
  b.update = GameUpdate{"Player0001", "Player0002", "over", R"({"winner":"S"})"};
  b.at = 200;
  auto refused = st().apply(b);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().fault, Fault::Conflict) << refused.error().message;
  auto log = st().loadGame("game000001");
  ASSERT_TRUE(log);
  ASSERT_EQ((*log)->moves.size(), 1U);
  EXPECT_EQ((*log)->moves[0].house, 3);
  EXPECT_EQ((*log)->moves[0].clientId, "\"c1\"");
  EXPECT_EQ((*log)->moves[0].clockS, 1000);
  EXPECT_EQ((*log)->moves[0].clockN, 2000);
  EXPECT_EQ((*log)->moves[0].eventN, 2);
  ASSERT_EQ((*log)->events.size(), 2U);
  EXPECT_EQ((*log)->game.status, "playing");
  EXPECT_EQ((*log)->game.updated, 150);
  // A move number already taken is refused the same way.
  Action c = b;
  c.move = makeMove(1, 5, 3);
  c.events = {makeEvent(3)};
  auto taken = st().apply(c);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().fault, Fault::Conflict);
  EXPECT_EQ((*st().loadGame("game000001"))->events.size(), 2U);
  // The right numbers go through, with the update.
  b.events = {makeEvent(3)};
  ASSERT_TRUE(st().apply(b));
  auto over = st().game("game000001");
  ASSERT_TRUE(over && over->has_value());
  EXPECT_EQ((*over)->status, "over");
  EXPECT_EQ((*over)->result, R"({"winner":"S"})");
  EXPECT_EQ((*over)->updated, 200);
}

TEST_P(StoreSuite, RefusesAnActionOnNoGame) {
  Action a;
  a.game = "nosuchgame";
  a.move = makeMove(1, 3, 1);
  a.events = {makeEvent(1)};
  a.at = 10;
  auto r = st().apply(a);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().fault, Fault::Conflict);
  // Nothing landed: a game created with that id afterwards starts empty.
  ASSERT_TRUE(st().createGame(makeGame("nosuchgame", "", "", "waiting", 1), {}));
  auto log = st().loadGame("nosuchgame");
  ASSERT_TRUE(log);
  EXPECT_TRUE((*log)->moves.empty());
  EXPECT_TRUE((*log)->events.empty());
}

TEST_P(StoreSuite, CreatesTheRematchInTheSameTransaction) {
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "Player0002", "playing", 100), {}));
  Action a;
  a.game = "game000001";
  a.events = {makeEvent(1)};
  a.update = GameUpdate{"Player0001", "Player0002", "over", R"({"rematch":"game000002"})"};
  a.created = makeGame("game000002", "Player0002", "Player0001", "playing", 300);
  a.at = 300;
  ASSERT_TRUE(st().apply(a));
  auto rematch = st().game("game000002");
  ASSERT_TRUE(rematch && rematch->has_value());
  EXPECT_EQ((*rematch)->seatS, "Player0002");
  EXPECT_EQ((*st().game("game000001"))->status, "over");
  // A refused action does not create its rematch either.
  Action b;
  b.game = "game000001";
  b.events = {makeEvent(1)};  // taken
  b.created = makeGame("game000003", "Player0002", "Player0001", "playing", 400);
  b.at = 400;
  ASSERT_FALSE(st().apply(b));
  auto none = st().game("game000003");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(*st().countGames(), 2);
}

TEST_P(StoreSuite, LoadsMovesAndEventsInNumberOrder) {
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "ai", "playing", 100), {}));
  // Written out of order, with numbers whose text order differs from their number order.
  for (int seq : {10, 2, 9, 1}) {
    Action a;
    a.game = "game000001";
    a.move = makeMove(seq, seq % 6, 100 + seq);
    a.events = {makeEvent(100 + seq)};
    a.at = 100 + seq;
    ASSERT_TRUE(st().apply(a));
  }
  auto log = st().loadGame("game000001");
  ASSERT_TRUE(log && log->has_value());
  std::vector<int> seqs;
  for (const auto& m : (*log)->moves) seqs.push_back(m.seq);
  EXPECT_EQ(seqs, (std::vector<int>{1, 2, 9, 10}));
  std::vector<long long> ns;
  for (const auto& e : (*log)->events) ns.push_back(e.n);
  EXPECT_EQ(ns, (std::vector<long long>{101, 102, 109, 110}));
  EXPECT_EQ((*log)->moves[3].eventN, 110);
}

TEST_P(StoreSuite, TellsEachGamesLastEventInTheOrderAsked) {
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "ai", "playing", 100), {makeEvent(1)}));
  ASSERT_TRUE(st().createGame(makeGame("game000002", "Player0001", "ai", "playing", 100), {}));
  for (int seq : {1, 2, 3}) {
    Action a;
    a.game = "game000001";
    a.move = makeMove(seq, seq, 1 + seq);
    a.events = {makeEvent(1 + seq)};
    a.at = 100 + seq;
    ASSERT_TRUE(st().apply(a));
  }
  // An id with characters an array literal would have to escape is only a game not stored.
  auto last = st().lastEvents({"game000002", "nosuchgame", "game000001", "a\"b,{c}", "game000001"});
  ASSERT_TRUE(last) << last.error().message;
  EXPECT_EQ(*last, (std::vector<long long>{0, 0, 4, 0, 4}));
  auto none = st().lastEvents({});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST_P(StoreSuite, CountsAPlayersOpenGames) {
  ASSERT_TRUE(st().createGame(makeGame("g1", "Ada0000001", "", "waiting", 1), {}));
  ASSERT_TRUE(st().createGame(makeGame("g2", "Bob0000001", "Ada0000001", "playing", 2), {}));
  ASSERT_TRUE(st().createGame(makeGame("g3", "Ada0000001", "ai", "over", 3), {}));
  ASSERT_TRUE(st().createGame(makeGame("g4", "Ada0000001", "Bob0000001", "abandoned", 4), {}));
  ASSERT_TRUE(st().createGame(makeGame("g5", "Bob0000001", "", "waiting", 5), {}));
  ASSERT_TRUE(st().createGame(makeGame("g6", "Cy00000001", "Cy00000001", "playing", 6), {}));  // local: one game
  EXPECT_EQ(*st().openGamesOf("Ada0000001"), 2);
  EXPECT_EQ(*st().openGamesOf("Bob0000001"), 2);
  EXPECT_EQ(*st().openGamesOf("Cy00000001"), 1);
  EXPECT_EQ(*st().openGamesOf("Nobody0000"), 0);
  EXPECT_EQ(*st().openGamesOf(""), 0) << "a free seat is nobody's";
  EXPECT_EQ(*st().openGameIdsOf("Ada0000001", 10), (std::vector<std::string>{"g1", "g2"})) << "oldest first";
  EXPECT_EQ(*st().openGameIdsOf("Ada0000001", 1), (std::vector<std::string>{"g1"})) << "at most the limit";
  EXPECT_EQ(*st().openGameIdsOf("Cy00000001", 10), (std::vector<std::string>{"g6"}));
  EXPECT_TRUE(st().openGameIdsOf("", 10)->empty());
  Action end;
  end.game = "g2";
  end.update = GameUpdate{"Bob0000001", "Ada0000001", "over", "{}"};
  end.at = 10;
  ASSERT_TRUE(st().apply(end));
  EXPECT_EQ(*st().openGamesOf("Ada0000001"), 1);
  EXPECT_EQ(*st().openGameIdsOf("Ada0000001", 10), (std::vector<std::string>{"g1"}));
}

TEST_P(StoreSuite, AbandonsIdleGames) {
  ASSERT_TRUE(st().createGame(makeGame("g1", "Ada0000001", "", "waiting", 100), {}));
  ASSERT_TRUE(st().createGame(makeGame("g2", "Ada0000001", "Bob0000001", "playing", 200), {}));
  ASSERT_TRUE(st().createGame(makeGame("g3", "Ada0000001", "ai", "playing", 50), {}));
  ASSERT_TRUE(st().createGame(makeGame("g4", "Ada0000001", "ai", "over", 10), {}));
  // g3 was created early but has just moved: not idle.
  Action a;
  a.game = "g3";
  a.move = makeMove(1, 2, 1);
  a.at = 1000;
  ASSERT_TRUE(st().apply(a));
  auto n = st().abandonIdle(250);
  ASSERT_TRUE(n) << n.error().message;
  EXPECT_EQ(*n, 2);
  EXPECT_EQ((*st().game("g1"))->status, "abandoned");
  EXPECT_EQ((*st().game("g2"))->status, "abandoned");
  EXPECT_EQ((*st().game("g3"))->status, "playing");
  EXPECT_EQ((*st().game("g4"))->status, "over");
  EXPECT_EQ(*st().openGamesOf("Ada0000001"), 1);
  EXPECT_EQ(*st().abandonIdle(250), 0);
}

TEST_P(StoreSuite, KeepsEverythingAcrossReopen) {
  const std::string hash = accounts::hashToken(accounts::newToken());
  ASSERT_TRUE(st().createPlayer({"Player0001", "Ada", 5}, hash));
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "ai", "playing", 100), {makeEvent(1)}));
  Action a;
  a.game = "game000001";
  a.move = makeMove(1, 3, 2);
  a.events = {makeEvent(2)};
  a.at = 120;
  ASSERT_TRUE(st().apply(a));
  reopen();
  EXPECT_EQ((*st().playerByToken(hash))->id, "Player0001");
  auto log = st().loadGame("game000001");
  ASSERT_TRUE(log && log->has_value());
  EXPECT_EQ((*log)->moves.size(), 1U);
  EXPECT_EQ((*log)->events.size(), 2U);
  EXPECT_EQ((*log)->game.updated, 120);
  EXPECT_EQ(*st().countGames(), 1);
  ASSERT_TRUE(st().maintain());
}

// A server killed (-9) in the middle of its writes: every action it was told was stored is there,
// and each action is whole (its move, its event and the game row's `updated` together).
TEST_P(StoreSuite, KeepsEveryAcknowledgedActionWhenKilled) {
  ASSERT_TRUE(st().createGame(makeGame("game000001", "Player0001", "ai", "playing", 1), {}));
  store_.reset();
  int acks[2];
  ASSERT_EQ(pipe(acks), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(acks[0]);
    auto s = openStore(db_->where());
    if (!s) _exit(2);
    for (int i = 1;; ++i) {
      Action a;
      a.game = "game000001";
      a.move = makeMove(i, i % 6, i);
      a.events = {makeEvent(i)};
      a.update = GameUpdate{"Player0001", "ai", "playing", ""};
      a.at = 1000 + i;
      if (!(*s)->apply(a)) _exit(3);
      if (write(acks[1], &i, sizeof i) != sizeof i) _exit(4);
    }
  }
  ASSERT_GT(pid, 0);
  close(acks[1]);
  int last = 0;
  int n = 0;
  while (last < 100 && read(acks[0], &n, sizeof n) == sizeof n) last = n;
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself: " << WEXITSTATUS(status);
  while (read(acks[0], &n, sizeof n) == sizeof n) last = n;  // acknowledged before the kill
  close(acks[0]);
  reopen();
  auto log = st().loadGame("game000001");
  ASSERT_TRUE(log && log->has_value()) << (log ? "no game" : log.error().message);
  const int stored = static_cast<int>((*log)->moves.size());
  EXPECT_GE(stored, last);
  EXPECT_LE(stored, last + 1) << "at most the one action in flight is stored unacknowledged";
  ASSERT_EQ((*log)->events.size(), static_cast<std::size_t>(stored));
  for (int i = 0; i < stored; ++i) {
    EXPECT_EQ((*log)->moves[i].seq, i + 1);
    EXPECT_EQ((*log)->events[i].n, i + 1);
  }
  EXPECT_EQ((*log)->game.updated, 1000 + stored);
}

// Different games written from several threads at once: every action lands, none is torn.
TEST_P(StoreSuite, TakesActionsFromSeveralThreads) {
  constexpr int kThreads = 4;
  constexpr int kMoves = 40;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(st().createGame(makeGame("game" + std::to_string(t), "P", "ai", "playing", 1), {}));
  }
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 1; i <= kMoves; ++i) {
        Action a;
        a.game = "game" + std::to_string(t);
        a.move = makeMove(i, i % 6, i);
        a.events = {makeEvent(i)};
        a.update = GameUpdate{"P", "ai", "playing", ""};
        a.at = i;
        if (!st().apply(a)) ++failures[t];
        if (t == 0 && i % 10 == 0) (void)st().maintain();
        if (!st().loadGame(a.game)) ++failures[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[t], 0);
    auto log = st().loadGame("game" + std::to_string(t));
    ASSERT_TRUE(log && log->has_value());
    EXPECT_EQ((*log)->moves.size(), static_cast<std::size_t>(kMoves));
    EXPECT_EQ((*log)->events.size(), static_cast<std::size_t>(kMoves));
    EXPECT_EQ((*log)->game.updated, kMoves);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace semis::store
