#pragma once
// The hub: the games in memory, who is who, and the way each action goes: network sessions hand it
// parsed messages; it finds the game, runs the room's transition under that game's own lock,
// writes the change to the store and only then acknowledges and publishes. No lock that other
// games need is held across I/O: the games map, the live list and the peers each have a short
// lock of their own, and a game's lock covers its store write only. AI work runs on the AI pool.

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ai/AiPool.hpp"
#include "ai/MoveSource.hpp"
#include "cluster/Bus.hpp"
#include "hub/BotHooks.hpp"
#include "hub/ClubHooks.hpp"
#include "hub/LiveList.hpp"
#include "hub/Peer.hpp"
#include "identity/Players.hpp"
#include "limits/Buckets.hpp"
#include "ops/Metrics.hpp"
#include "protocol/Messages.hpp"
#include "room/Room.hpp"
#include "store/Store.hpp"

namespace semis::server {

class ClusterLink;

// The limits a visitor meets (docs/server.md, "Limits").
struct HubOptions {
  int aiThreads = 1;
  std::size_t aiQueue = 1000;    // AI moves and hints waiting, in all
  std::size_t aiPerPlayer = 8;   // ... for one player
  long long maxOpenGames = 20;   // unfinished games one player holds a seat in
  double createPerSecond = 0.5;  // games created per address: a token bucket
  double createBurst = 40;
  std::chrono::minutes evictAfter{10};      // a game nobody watches leaves memory after this
  std::chrono::hours abandonAfter{24 * 7};  // an unfinished game untouched this long is abandoned
  int hintBudgetMs = 250;  // all legal moves together: a hint answers in well under 300 ms (bench/StudyBench.cpp)
  long long claimDelayMs = 30000;   // a rated game's leaver may be claimed against after this
  long long noShowDelayMs = 60000;  // a two-player game whose player has not made his first move by then is aborted
};

class Hub {
 public:
  // `players` (identity/) knows who is who; the hub shows names in games and passes renames on.
  Hub(store::Store& store, Players& players, Metrics& metrics, std::unique_ptr<MoveSource> ai, HubOptions options);
  ~Hub();

  // Start-up: marks long-idle unfinished games abandoned. Games load on demand, not all at once.
  Result<long long> resume();
  // Joins the other instances on `bus` (docs/scaling.md) and starts it; without this call the hub
  // is alone (the embedded default). `instance` names this one; `site` prefixes every channel and
  // key (several sites on one Redis). Before any client connects.
  void joinCluster(cluster::Bus& bus, const std::string& instance, const std::string& site = "semis");
  // A player's new name (Players::rename), shown at once in the games held here and read again by
  // the other instances.
  Outcome<Identity> rename(const Identity& me, const std::string& name);

  Outcome<Json> createGame(const Identity& me, const protocol::GameSpec& spec);
  [[nodiscard]] LiveList liveGames();
  [[nodiscard]] std::optional<Json> state(const std::string& gameId, const std::string& playerId);
  [[nodiscard]] std::optional<std::string> record(const std::string& gameId);

  void attach(const std::shared_ptr<Peer>& peer);
  void detach(Peer* peer);
  void onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg);
  // Flags fall, failed AI turns are retried, idle games leave memory: called every 100 ms.
  void tick();
  // Tells every client the server is going down and closes the connections.
  void shutdown(int retryMs);
  // Cancels and waits for the AI work in flight: called before the network objects are destroyed.
  void stopAi();

  [[nodiscard]] Metrics& metrics() { return metrics_; }
  // For tests and /metrics: games in memory.
  [[nodiscard]] std::size_t gamesInMemory();

  // The club (docs/club.md). Set before any client connects.
  void setClub(ClubHooks* club) { club_ = club; }
  // The bots' gateway (docs/bots.md). Set before any client connects.
  void setBots(BotHooks* bots) { bots_ = bots; }
  // A game as a bot's connection sees it (HubBots.cpp); nothing if there is no such game.
  [[nodiscard]] Outcome<GameTurn> turnOf(const std::string& gameId);
  // A bot's connection here, told to the other instances for `ttlMs` (renewed while it lasts), so
  // that a game against it can start on any instance; nothing to do alone. presentElsewhere():
  // connected on another instance.
  void announcePresent(const std::string& player, long long ttlMs, bool wait = false);
  void announceAbsent(const std::string& player);
  [[nodiscard]] bool presentElsewhere(const std::string& player);
  [[nodiscard]] std::vector<std::string> presentEverywhere(std::size_t limit);  // alone: none
  // A game between two players seated at once (a pairing, an accepted seek or invitation): `write`
  // stores its row with whatever goes with it, in one transaction; its refusal refuses.
  using GameWriter = std::function<store::StoreResult<void>(const store::GameRow&)>;
  Outcome<std::string> createPaired(const protocol::GameSpec& spec, const std::array<std::string, 2>& players,
                                    const GameWriter& write);
  // The organiser's adjudication of a bots' match or tournament game (contests/, HubForfeit.cpp):
  // `loser` forfeits it (result reason `forfeit`), stored and published as a resignation is; `why`
  // is a code for the event ("stalled"). Refused when there is no such game or it is over.
  Outcome<void> forfeit(const std::string& gameId, Side loser, std::string_view why);
  // A friend's invitation declined by the player invited (docs/club.md): the game is aborted as by
  // his `abort` (he is answered and its watchers see it); the inviter's id ("" for none).
  Outcome<std::string> declineInvitation(const std::shared_ptr<Peer>& peer, const std::string& gameId);
  // Sends `message` to every connection of `player`, on every instance.
  void notify(const std::string& player, const Json& message);
  // Open connections, on every instance; whether `player` has one here.
  [[nodiscard]] long long online();
  [[nodiscard]] bool connectedHere(const std::string& player);
  // Forgets what is cached of a player's session and name here and on every instance, and shows
  // his stored name in the games held (sign-out, deletion, sign-up).
  void forgetPlayer(const std::string& tokenHash, const std::string& playerId);

 private:
  using Clock = std::chrono::steady_clock;
  struct Live;
  using LivePtr = std::shared_ptr<Live>;

  // The game, from memory or loaded from the store; nothing when there is no such game.
  Outcome<LivePtr> find(const std::string& id);
  // find(), and on a cluster a copy caught up with the record first: for reads that start
  // from a snapshot (HTTP, a join).
  Outcome<LivePtr> findCurrent(const std::string& id);
  bool allowCreate(const std::string& address);

  // Writes a room's change and, once stored, publishes its events; on a failed write the room is
  // restored and the answer is a refusal (busy, internal). Called with live.mu held.
  // A write another instance beat (Fault::Conflict) reloads the game and answers code "conflict":
  // the caller may run its transition again once on the fresh room (retrying()).
  Outcome<void> commit(Live& live, const room::Room::Saved& saved, const room::Change& change,
                       std::optional<store::GameRow> created = std::nullopt);
  void publish(Live& live, const room::Change& change);
  void presence(Live& live);
  void afterChange(Live& live);  // the live list, the clock set, the AI
  void maybeAi(const LivePtr& live);
  void aiMoved(const std::string& gameId, std::size_t plies, int house);
  void hint(const std::shared_ptr<Peer>& peer, const LivePtr& live);
  void join(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg);
  void leave(Peer& peer, const std::string& gameId);
  // `claimChecked`: a claim whose opponent's presence was asked of every instance (checkClaim).
  void act(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg, bool claimChecked = false);
  Outcome<void> actOnce(Peer& peer, const LivePtr& live, const protocol::ClientMessage& msg);
  void rematch(Peer& peer, const LivePtr& live);
  Outcome<void> rematchOnce(Peer& peer, const LivePtr& live);
  void sendError(Peer& peer, const Refusal& refusal, const Json& id = nullptr);
  void adoptNew(std::unique_ptr<room::Room> room);  // a game just stored: in memory, listed, AI asked
  void sendLocal(const std::string& player, const Message& message);
  void forgetHere(const std::string& tokenHash, const std::string& playerId);  // this instance's caches only
  void renameSeats(const std::string& playerId, const std::string& name);      // in the games held here
  void evict();
  // An evicted game off the bus: unwatched, its shared line dropped; a copy loaded again meanwhile
  // is watched and listed once that is done (evict() and find() order it, Hub.cpp).
  void unheld(const std::string& id, long long created);
  // The game's line in the shared live list, written again if this instance lists the game (after
  // some instance dropped it: unheld() here or an ask that says so); takes liveMu_.
  void relist(const std::string& id, long long created);
  void countGames();                  // the gauges
  void noShow(Live& live, int side);  // a game just aborted for its absent player: he is told
  // A game just put in memory (loaded or created): watched on the bus.
  void held(const std::string& id);
  LivePtr inMemory(const std::string& id);
  // The cluster (HubCluster.cpp). Each is called with live.mu held, except onBus and the tick's.
  void onBus(const std::string& channel, const std::string& payload);
  void followRemote(Live& live, const store::Action& action);
  void subscribedTo(const std::string& channel);
  void refresh(Live& live);  // reloads the game from the store: the record wins
  void adopt(Live& live, std::unique_ptr<room::Room> fresh);
  void delivered(Live& live, long long had);  // events after `had` to the watchers here, presence, lists
  std::array<std::string, 2> seatNames(const store::GameRow& row, const room::Room* before);
  void recount(Live& live);   // seats' presence from local watchers and the other instances'
  void announce(Live& live);  // this instance's connections to the game, to the others
  std::size_t watcherCount(const Live& live) const;
  void clusterTick();
  void catchUp(const std::vector<LivePtr>& games, std::chrono::steady_clock::time_point now);
  void reloadBehind(const std::vector<LivePtr>& copies);  // those behind the record, reloaded (one read)
  void resync();  // the bus came back: reload what is held, say who watches, list again
  // The bus's game messages run on a worker of their own (HubCluster.cpp), in order.
  struct BusWork;
  void post(std::function<void()> work);
  void busFailed(std::string_view where, std::string_view what);
  void busWorker();
  void stopCluster();
  void onGameMessage(const std::string& channel, const std::string& payload);
  void reannounce();  // this instance was silent a while: its connections, to the others again
  // A claim in a cluster waits for the instances' answers about the opponent (true: deferred).
  bool checkClaim(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg, Live& live);
  void dueClaims();
  struct PendingClaim {
    std::weak_ptr<Peer> peer;
    protocol::ClientMessage msg;
    std::chrono::steady_clock::time_point due;
  };

  store::Store& store_;
  Players& players_;
  Metrics& metrics_;
  std::unique_ptr<MoveSource> ai_;
  HubOptions options_;
  AiPool pool_;

  // games_ and unwatching_ only: never held across I/O or waiting on a game's lock (evict() only
  // tries the games' locks, and takes liveMu_ inside it)
  std::mutex gamesMu_;
  std::unordered_map<std::string, LivePtr> games_;
  std::set<std::string> unwatching_;  // evicted games whose unwatch is on its way (unheld())

  std::mutex liveMu_;  // the live list's lines, newest first by (created, id)
  std::map<std::pair<long long, std::string>, LiveLine> live_;

  std::mutex clockMu_;  // games whose clock runs, for tick()
  std::set<std::string> clocked_;
  std::set<std::string> aiRetry_;

  std::mutex peersMu_;
  std::unordered_map<Peer*, std::weak_ptr<Peer>> peers_;
  std::unordered_map<Peer*, std::set<std::string>> watching_;

  std::mutex createMu_;
  Buckets createBuckets_;  // games created per address (limits/Buckets.hpp)

  std::unique_ptr<ClusterLink> link_;  // null: alone
  std::unique_ptr<BusWork> busWork_;
  std::mutex claimsMu_;
  std::vector<PendingClaim> claims_;
  ClubHooks* club_ = nullptr;  // null: no club
  BotHooks* bots_ = nullptr;   // null: no bots' gateway

  std::atomic<bool> stopping_{false};
  std::atomic<long long> ticks_{0};
};

}  // namespace semis::server
