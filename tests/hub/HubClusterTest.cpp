// Several hubs in one process, joined by the loopback bus and sharing one SQLite file: what two
// instances behind a load balancer do, without a network. Each client is a fake peer that keeps
// what it was sent.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

#include "LoopbackDouble.hpp"
#include "accounts/Tokens.hpp"
#include "cluster/Bus.hpp"
#include "hub/ClusterLink.hpp"
#include "hub/Hub.hpp"

namespace semis::server {
namespace {

using namespace std::chrono_literals;

class FakePeer : public Peer {
 public:
  FakePeer(std::string token, std::string id) : token_(std::move(token)), id_(std::move(id)) {}
  void send(Message message) override {
    std::lock_guard lock(mu_);
    got_.push_back(Json::parse(*message));
    cv_.notify_all();
  }
  void closeSoon() override {}
  const std::string& token() const override { return token_; }
  const std::string& playerId() const override { return id_; }
  const std::string& address() const override { return address_; }

  // The first message (from `from` on) that `pred` accepts, waiting up to 5 s; null if none came.
  template <class Pred>
  Json waitFor(Pred pred, std::size_t from = 0) {
    std::unique_lock lock(mu_);
    Json found;
    cv_.wait_for(lock, 5s, [&] {
      for (std::size_t i = from; i < got_.size(); ++i) {
        if (pred(got_[i])) {
          found = got_[i];
          return true;
        }
      }
      return false;
    });
    return found;
  }
  template <class Pred>
  bool has(Pred pred) {
    std::lock_guard lock(mu_);
    return std::any_of(got_.begin(), got_.end(), pred);
  }
  std::size_t count() {
    std::lock_guard lock(mu_);
    return got_.size();
  }

 private:
  std::string token_, id_, address_ = "127.0.0.1";
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Json> got_;
};

// One instance: its own store connection to the shared file, its own bus, its own hub.
struct Instance {
  // `bus`: the loopback bus on `net` when none is given.
  Instance(const std::string& db, const std::shared_ptr<cluster::LoopbackHub>& net, const std::string& name,
           HubOptions options = {}, std::unique_ptr<cluster::Bus> bus_ = nullptr)
      : bus(bus_ ? std::move(bus_) : cluster::makeLoopbackBus(net)) {
    store = std::move(*store::openStore(db));
    players = std::make_unique<Players>(*store, metrics);
    hub = std::make_unique<Hub>(*store, *players, metrics, makeGreedyMoveSource(), options);
    hub->joinCluster(*bus, name);
  }
  ~Instance() {
    hub->stopAi();
    bus->stop();
  }
  std::shared_ptr<FakePeer> connect(const std::string& token) {
    auto p = std::make_shared<FakePeer>(token, players->identify(token).id);
    hub->attach(p);
    return p;
  }
  void say(const std::shared_ptr<FakePeer>& p, const Json& j) {
    auto msg = protocol::parseClientMessage(j.dump());
    ASSERT_TRUE(msg) << msg.error().message;
    hub->onMessage(p, *msg);
  }
  std::unique_ptr<store::Store> store;
  Metrics metrics;
  std::unique_ptr<cluster::Bus> bus;
  std::unique_ptr<Players> players;
  std::unique_ptr<Hub> hub;
};

struct Cluster : ::testing::Test {
  void SetUp() override {
    db = (std::filesystem::temp_directory_path() / ("semis-cluster-" + accounts::randomId(8) + ".db")).string();
    a = std::make_unique<Instance>(db, net, "a");
    b = std::make_unique<Instance>(db, net, "b");
  }
  void TearDown() override {
    a.reset();
    b.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  }
  std::string db;
  std::shared_ptr<cluster::LoopbackHub> net = cluster::makeLoopbackHub();
  std::unique_ptr<Instance> a, b;
};

auto event(const std::string& kind) {
  return [kind](const Json& j) { return j.value("type", "") == "event" && j["event"].value("kind", "") == kind; };
}
auto eventN(long long n) {
  return [n](const Json& j) { return j.value("type", "") == "event" && j.value("n", 0LL) == n; };
}
auto type(const std::string& t) {
  return [t](const Json& j) { return j.value("type", "") == t; };
}

std::string friendGame(Instance& on, const std::string& token) {
  auto spec = protocol::parseGameSpec(Json{{"rules", "kalah"}, {"mode", "friend"}, {"side", "S"}});
  auto created = on.hub->createGame(on.players->identify(token), *spec);
  EXPECT_TRUE(created);
  return created ? (*created)["id"].get<std::string>() : "";
}

// Alice (South) on a, Bob (North) on b, in a friend game where Alice has played house 1 (4 seeds:
// no extra turn) and both have seen it.
struct Duel : Cluster {
  void aliceOnAHasPlayedBobOnB() {
    id = friendGame(*a, alice);
    pa = a->connect(alice);
    a->say(pa, {{"type", "join"}, {"game", id}});
    pb = b->connect(bob);
    b->say(pb, {{"type", "join"}, {"game", id}});
    ASSERT_FALSE(pa->waitFor(event("joined")).is_null());
    a->say(pa, {{"type", "move"}, {"game", id}, {"house", 1}, {"id", "a1"}});
    const long long afterAlice = pa->waitFor(type("ack"))["n"];
    ASSERT_FALSE(pb->waitFor(eventN(afterAlice)).is_null());
  }
  // A game created on a, which evicts idle copies at once, then played by both on b (Alice as
  // aliceOnB), each having moved: no clock, no no-show deadline holds a's copy in memory.
  void createdOnAPlayedOnB(std::unique_ptr<cluster::Bus> busOfA = nullptr) {
    HubOptions quick;
    quick.evictAfter = std::chrono::minutes(0);  // idle at once
    a.reset();
    a = std::make_unique<Instance>(db, net, "a", quick, std::move(busOfA));
    id = friendGame(*a, alice);
    aliceOnB = b->connect(alice);
    b->say(aliceOnB, {{"type", "join"}, {"game", id}});
    pb = b->connect(bob);
    b->say(pb, {{"type", "join"}, {"game", id}});
    ASSERT_FALSE(aliceOnB->waitFor(event("joined")).is_null());
    b->say(aliceOnB, {{"type", "move"}, {"game", id}, {"house", 1}, {"id", "a1"}});
    ASSERT_FALSE(aliceOnB->waitFor(type("ack")).is_null());
    b->say(pb, {{"type", "move"}, {"game", id}, {"house", 1}, {"id", "b1"}});
    const Json bobAck = pb->waitFor(type("ack"));
    ASSERT_FALSE(bobAck.is_null());
    ASSERT_EQ(a->hub->state(id, "")->value("last_event", 0LL), bobAck["n"]) << "a's copy is the record's";
  }
  const std::string alice = accounts::newToken(), bob = accounts::newToken();
  std::string id;
  std::shared_ptr<FakePeer> pa, pb, aliceOnB;
};

// Alice on one instance, Bob and a spectator on the other: every move reaches everyone, in order,
// and each side sees the other's presence.
TEST_F(Cluster, PlayersOnTwoInstancesAndASpectatorSeeTheSameGame) {
  const std::string alice = accounts::newToken(), bob = accounts::newToken(), carol = accounts::newToken();
  const std::string id = friendGame(*a, alice);
  auto pa = a->connect(alice);
  a->say(pa, {{"type", "join"}, {"game", id}});
  ASSERT_FALSE(pa->waitFor(type("state")).is_null());
  auto pb = b->connect(bob);
  b->say(pb, {{"type", "join"}, {"game", id}});
  ASSERT_FALSE(pb->waitFor(type("state")).is_null());
  auto pc = b->connect(carol);
  b->say(pc, {{"type", "join"}, {"game", id}});
  ASSERT_FALSE(pa->waitFor(event("joined")).is_null()) << "Bob took his seat on the other instance";
  // Alice sees Bob connected, though he is on instance b.
  ASSERT_FALSE(pa->waitFor([](const Json& j) {
                   return j.value("type", "") == "presence" && j["seats"]["N"].value("connected", false);
                 }).is_null());
  std::string toMove = "S";
  Json legal = Json::array({1, 2, 3, 4, 5, 6});
  std::mt19937 rng(3);
  for (int ply = 0; ply < 12 && !toMove.empty(); ++ply) {
    auto& who = toMove == "S" ? pa : pb;
    Instance& on = toMove == "S" ? *a : *b;
    const std::size_t before = who->count();
    on.say(who, {{"type", "move"}, {"game", id}, {"house", legal[rng() % legal.size()]}, {"id", ply}});
    auto ack = who->waitFor(type("ack"), before);
    ASSERT_FALSE(ack.is_null()) << "move " << ply << " acknowledged";
    const long long n = ack["n"];
    ASSERT_FALSE(pa->waitFor(eventN(n)).is_null());
    ASSERT_FALSE(pb->waitFor(eventN(n)).is_null());
    auto seen = pc->waitFor(eventN(n));
    ASSERT_FALSE(seen.is_null()) << "the spectator on b got event " << n;
    const Json& ev = seen["event"];
    toMove = ev["position"]["to_move"].is_string() ? ev["position"]["to_move"].get<std::string>() : "";
    legal = ev["legal"];
  }
  EXPECT_EQ(a->hub->state(id, "")->dump(), b->hub->state(id, "")->dump()) << "both copies agree";
  EXPECT_GT(b->metrics.busFollowed.load() + a->metrics.busFollowed.load(), 0);
}

// With the bus cut, instance a's copy falls behind; a move sent there meets the store's fence,
// the game is reloaded (Alice gets what she missed) and her move is played on the fresh game.
TEST_F(Duel, AStaleCopyIsReloadedAndTheMovePlayedOnTheRecord) {
  ASSERT_NO_FATAL_FAILURE(aliceOnAHasPlayedBobOnB());
  // Then the bus goes down.
  setLoopbackUp(*net, false);
  b->say(pb, {{"type", "move"}, {"game", id}, {"house", 1}, {"id", "b1"}});
  const Json bobAck = pb->waitFor(type("ack"));
  ASSERT_FALSE(bobAck.is_null());
  // a never heard of Bob's move; Alice moves from what she saw.
  const std::size_t before = pa->count();
  a->say(pa, {{"type", "move"}, {"game", id}, {"house", 2}, {"id", "a2"}});
  auto missed = pa->waitFor(eventN(bobAck["n"]), before);
  EXPECT_FALSE(missed.is_null()) << "Bob's move reached Alice through the reload";
  auto ack = pa->waitFor(type("ack"), before);
  ASSERT_FALSE(ack.is_null()) << "her move was played on the fresh game";
  EXPECT_EQ(ack["n"], bobAck["n"].get<long long>() + 1);
  EXPECT_GE(a->metrics.busReloads.load(), 1);
  setLoopbackUp(*net, true);
}

// Alice in two tabs, one on each instance, the bus cut: both copies think it is her turn. The
// first move is stored; the second meets the store's fence (the event number is taken), its
// instance reloads, and she is told it is not her turn. One move in the record, not two.
TEST_F(Cluster, TwoInstancesNeverBothStoreTheSameTurn) {
  const std::string alice = accounts::newToken(), bob = accounts::newToken();
  const std::string id = friendGame(*a, alice);
  auto pa = a->connect(alice);
  a->say(pa, {{"type", "join"}, {"game", id}});
  auto pb = b->connect(bob);
  b->say(pb, {{"type", "join"}, {"game", id}});
  auto pa2 = b->connect(alice);
  b->say(pa2, {{"type", "join"}, {"game", id}});
  ASSERT_FALSE(pa2->waitFor(type("state")).is_null());
  ASSERT_FALSE(pa->waitFor(event("joined")).is_null());
  setLoopbackUp(*net, false);
  b->say(pa2, {{"type", "move"}, {"game", id}, {"house", 1}, {"id", "tab2"}});
  ASSERT_FALSE(pa2->waitFor(type("ack")).is_null());
  a->say(pa, {{"type", "move"}, {"game", id}, {"house", 2}, {"id", "tab1"}});
  const Json refused = pa->waitFor(type("error"));
  ASSERT_FALSE(refused.is_null());
  EXPECT_EQ(refused["code"], "not_your_turn") << refused.dump();
  EXPECT_EQ(a->metrics.conflicts.load(), 1);
  auto log = a->store->loadGame(id);
  ASSERT_TRUE(log && *log);
  EXPECT_EQ((*log)->moves.size(), 1U);
  setLoopbackUp(*net, true);
}

// Bob moves on an instance whose publishes reach nobody (it died before its message left, and was
// never heard): a and b hold copies that no message will ever bring up to date. Once the game has
// been quiet for a while, their catch-up read finds the record ahead and reloads it.
TEST_F(Duel, AQuietCopyBehindTheRecordCatchesUpWithoutAMessage) {
  ASSERT_NO_FATAL_FAILURE(aliceOnAHasPlayedBobOnB());
  Instance lost(db, cluster::makeLoopbackHub(), "lost");
  auto bobThere = lost.connect(bob);
  lost.say(bobThere, {{"type", "join"}, {"game", id}});
  lost.say(bobThere, {{"type", "move"}, {"game", id}, {"house", 1}, {"id", "b1"}});
  const Json bobAck = bobThere->waitFor(type("ack"));
  ASSERT_FALSE(bobAck.is_null());
  const long long n = bobAck["n"];
  std::this_thread::sleep_for(200ms);
  ASSERT_FALSE(pa->has(eventN(n))) << "nothing carried Bob's move to a";
  // Quiet for longer than an instance's silence; then both hubs tick (100 ms each) past a catch-up.
  std::this_thread::sleep_for(3700ms);
  for (int t = 1; t <= 31; ++t) {
    b->hub->tick();
    // Every tenth tick b beats: a hears it before its own check, or it would take b for gone (and
    // reload everything for that reason instead).
    if (t % 10 == 0) std::this_thread::sleep_for(100ms);
    a->hub->tick();
  }
  EXPECT_FALSE(pa->waitFor(eventN(n)).is_null()) << "Alice got Bob's move from the record";
  EXPECT_FALSE(pb->waitFor(eventN(n)).is_null()) << "Bob's other tab too";
  EXPECT_EQ(a->metrics.busCaughtUp.load(), 1);
  EXPECT_EQ(b->metrics.busCaughtUp.load(), 1);
  // The same game (presence differs: each instance counts its own sockets and the ones it heard of).
  const Json mine = *a->hub->state(id, ""), record = *lost.hub->state(id, "");
  for (const char* key : {"position", "plies", "last_event", "legal"}) EXPECT_EQ(mine[key], record[key]) << key;
}

// The live list is shared: a game played on a is listed by b.
TEST_F(Cluster, TheLiveListIsTheSameOnEveryInstance) {
  const std::string alice = accounts::newToken(), bob = accounts::newToken();
  const std::string id = friendGame(*a, alice);
  auto pb = b->connect(bob);
  b->say(pb, {{"type", "join"}, {"game", id}});
  ASSERT_FALSE(pb->waitFor(type("state")).is_null());
  bool listed = false;
  for (int i = 0; i < 50 && !listed; ++i) {
    const Json live = liveListJson(a->hub->liveGames());
    for (const Json& g : live["games"]) listed = listed || g.value("id", "") == id;
    if (!listed) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(listed) << liveListJson(a->hub->liveGames()).dump();
}


// The loopback bus, keeping the order of its (un)subscriptions and able to run something at the
// moment an unsubscription is asked, before the bus is told: where another thread of the hub may
// load the same game again (a visitor opens it).
class RecordingBus final : public LoopbackDouble {
 public:
  using LoopbackDouble::LoopbackDouble;
  void subscribe(const std::string& channel) override {
    record("+" + channel);
    inner().subscribe(channel);
  }
  void unsubscribe(const std::string& channel) override {
    std::function<void()> hook;
    {
      std::lock_guard lock(mu_);
      if (channel == hookChannel_) hook = std::exchange(hook_, nullptr);
    }
    if (hook) hook();
    record("-" + channel);
    inner().unsubscribe(channel);
  }

  // `hook` runs (once, on the caller's thread) when `channel` is next unsubscribed.
  void onUnsubscribe(const std::string& channel, std::function<void()> hook) {
    std::lock_guard lock(mu_);
    hookChannel_ = channel;
    hook_ = std::move(hook);
  }
  // Whether the last word the bus was given about `channel` is a subscription.
  bool subscribed(const std::string& channel) {
    std::lock_guard lock(mu_);
    for (auto it = log_.rbegin(); it != log_.rend(); ++it) {
      if (it->substr(1) == channel) return it->front() == '+';
    }
    return false;
  }

 private:
  void record(std::string change) {
    std::lock_guard lock(mu_);
    log_.push_back(std::move(change));
  }
  std::mutex mu_;
  std::vector<std::string> log_;
  std::string hookChannel_;
  std::function<void()> hook_;
};

bool listedIn(const LiveList& list, const std::string& id) {
  return std::any_of(list.games.begin(), list.games.end(), [&](const LiveLine& l) { return l.id == id; });
}

// Instance a evicts its idle copy of a game played on b, and a visitor opens it on a at the worst
// moment: the map has let the copy go, its unsubscription is not yet asked. The copy he loads must
// stay watched (it hears Bob's next move, played on b) and listed: the eviction's unwatch and live
// line drop come before the reload's watch and line, never after them.
TEST_F(Duel, AGameLoadedAgainWhileItIsEvictedStaysWatchedAndListed) {
  auto recording = std::make_unique<RecordingBus>(net);
  RecordingBus& bus = *recording;
  ASSERT_NO_FATAL_FAILURE(createdOnAPlayedOnB(std::move(recording)));
  const std::string channel = ClusterLink::gameChannel("semis", id);
  ASSERT_TRUE(bus.subscribed(channel));
  // Alice opens the game in a tab served by a just as a's eviction is under way.
  bool reloaded = false;
  bus.onUnsubscribe(channel, [&] {
    pa = a->connect(alice);
    a->say(pa, {{"type", "join"}, {"game", id}});
    reloaded = true;
  });
  // Every 600th tick evicts (a later one if the bus's worker held the game's lock at that moment).
  for (int t = 0; t < 6000 && !reloaded; ++t) a->hub->tick();
  ASSERT_TRUE(reloaded) << "a's copy was not evicted";
  ASSERT_FALSE(pa->waitFor(type("state")).is_null());
  EXPECT_EQ(a->hub->gamesInMemory(), 1U) << "the copy Alice loaded is held";
  EXPECT_TRUE(bus.subscribed(channel)) << "the eviction's unwatch cut the reloaded copy's subscription";
  EXPECT_TRUE(listedIn(a->hub->liveGames(), id)) << "the eviction dropped the reloaded copy's live line";
  // Alice moves in her tab on b: her tab on a sees it.
  const std::size_t before = aliceOnB->count();
  b->say(aliceOnB, {{"type", "move"}, {"game", id}, {"house", 3}, {"id", "a2"}});
  const Json ack = aliceOnB->waitFor(type("ack"), before);
  ASSERT_FALSE(ack.is_null());
  EXPECT_FALSE(pa->waitFor(eventN(ack["n"])).is_null()) << "a no longer hears the moves played on b";
}

// Instance a evicts its idle copy of a game both players play on b. The live list is shared, and
// the game is still played: it stays listed on every instance, not only from b's next move on.
TEST_F(Duel, EvictingAnIdleCopyKeepsAGamePlayedElsewhereListed) {
  ASSERT_NO_FATAL_FAILURE(createdOnAPlayedOnB());
  // Every 600th tick evicts (a later one if the bus's worker held the game's lock at that moment).
  for (int t = 0; t < 6000 && a->hub->gamesInMemory() > 0; ++t) a->hub->tick();
  ASSERT_EQ(a->hub->gamesInMemory(), 0U) << "a's copy was not evicted";
  bool listed = false;
  for (int i = 0; i < 100 && !listed; ++i) {
    listed = listedIn(b->hub->liveGames(), id) && listedIn(a->hub->liveGames(), id);
    if (!listed) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(listed) << "a's eviction took the game off the shared live list while it is played on b";
  EXPECT_EQ(b->hub->gamesInMemory(), 1U);
}

// Records the live lines an instance writes to the shared list (HSET), game by game.
class LineWritesBus final : public LoopbackDouble {
 public:
  using LoopbackDouble::LoopbackDouble;
  void send(std::vector<std::string> args) override {
    if (args.size() > 2 && args[0] == "HSET") {
      std::lock_guard lock(mu_);
      ++writes_[args[2]];
    }
    inner().send(std::move(args));
  }
  int writes(const std::string& game) {
    std::lock_guard lock(mu_);
    return writes_[game];
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> writes_;
};

// An instance that loads a copy of a game asks the others for their connections to it; that ask
// does not make every instance holding the game write its shared live line again (it had not
// changed). Only an ask that says the asker dropped the line (an eviction, above) does.
TEST_F(Duel, OnlyAnAskAfterADroppedLineWritesTheLineAgain) {
  auto writes = std::make_unique<LineWritesBus>(net);
  LineWritesBus& onB = *writes;
  b.reset();
  b = std::make_unique<Instance>(db, net, "b", HubOptions{}, std::move(writes));
  ASSERT_NO_FATAL_FAILURE(createdOnAPlayedOnB());
  ASSERT_TRUE(listedIn(b->hub->liveGames(), id));
  // A third instance's voice on the game's channel; b answers every ask with its connections, and
  // its bus worker takes the game's messages in order, so an answer means the ask was handled.
  const std::string channel = ClusterLink::gameChannel("semis", id);
  auto probe = cluster::makeLoopbackBus(net);
  std::mutex mu;
  std::condition_variable cv;
  int answers = 0;
  cluster::BusHandlers handlers;
  handlers.message = [&](const std::string&, const std::string& payload) {
    const Json m = Json::parse(payload);
    if (m.value("i", "") != "b" || m.value("k", "") != "conn") return;
    std::lock_guard lock(mu);
    ++answers;
    cv.notify_all();
  };
  probe->start(handlers);
  probe->subscribe(channel);
  std::this_thread::sleep_for(50ms);  // (the loopback bus subscribes at once; this is margin)
  auto askAndWait = [&](const Json& ask) {
    int had = 0;
    {
      std::lock_guard lock(mu);
      had = answers;
    }
    probe->publish(channel, ask.dump());
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 5s, [&] { return answers > had; });
  };
  const int before = onB.writes(id);
  ASSERT_TRUE(askAndWait({{"i", "c"}, {"k", "ask"}}));
  ASSERT_TRUE(askAndWait({{"i", "c"}, {"k", "ask"}, {"dropped", true}}));
  ASSERT_TRUE(askAndWait({{"i", "c"}, {"k", "ask"}}));  // b is past the dropped ask's handling
  EXPECT_EQ(onB.writes(id), before + 1) << "the plain asks wrote the line too, or the dropped one did not";
  probe->stop();
}

}  // namespace
}  // namespace semis::server
