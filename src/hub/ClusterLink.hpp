#pragma once
// What one instance says to the others through the bus, and what it knows of them (docs/scaling.md).
// PostgreSQL is the record and the authority: a game action is stored with its next event numbers,
// which the store refuses twice (store::Action), so two instances can never both write event n.
// The bus only spreads what was stored: each stored action goes to the game's channel, where every
// instance holding that game follows it; who watches a game from where (presence, spectators);
// each instance's heartbeat (its connections, and that it lives); the live list's lines.

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cluster/Bus.hpp"
#include "hub/LiveList.hpp"
#include "hub/PresenceLeases.hpp"
#include "protocol/Messages.hpp"
#include "store/Store.hpp"

namespace semis::server {

using protocol::Json;

// One message read from the bus. `instance` is the sender's.
struct BusMessage {
  enum class Kind { Action, Connections, Ask, Heartbeat, Notify, Forget } kind = Kind::Heartbeat;
  std::string instance;
  std::string game;
  store::Action action;               // Action: as stored
  std::map<std::string, int> counts;  // Connections: player id -> that instance's connections to the game
  long long peers = 0;                // Heartbeat: that instance's connections...
  std::string boot;                   // ... and its process (a restart makes a new one)
  std::string player;                 // Notify: to every connection of this player...
  Json message;                       // ... this message (a JSON object)
  std::string tokenHash;              // Forget: a session ended (and `player`'s cached name)
  bool dropped = false;               // Ask: the asker also dropped the game's shared live line
};

// Decodes a bus message of the site `site` (ClusterLink); nothing for anything malformed (counted
// and logged by the caller).
[[nodiscard]] std::optional<BusMessage> decodeBusMessage(const std::string& site, const std::string& channel,
                                                         const std::string& payload);
[[nodiscard]] Json actionJson(const store::Action& action);
[[nodiscard]] std::optional<store::Action> actionFromJson(const Json& j);

class ClusterLink {
 public:
  // `site`: the prefix of every channel and key, so that several sites (or test clusters) can
  // share one Redis.
  ClusterLink(cluster::Bus& bus, std::string instance, std::string site = "semis");
  ~ClusterLink();
  ClusterLink(const ClusterLink&) = delete;
  ClusterLink& operator=(const ClusterLink&) = delete;

  [[nodiscard]] const std::string& instance() const { return instance_; }
  [[nodiscard]] const std::string& site() const { return site_; }
  [[nodiscard]] cluster::Bus& bus() { return bus_; }
  static std::string gameChannel(const std::string& site, const std::string& game) { return site + ":game:" + game; }
  static std::string instancesChannel(const std::string& site) { return site + ":instances"; }

  void watch(const std::string& game) { bus_.subscribe(gameChannel(site_, game)); }
  void unwatch(const std::string& game) { bus_.unsubscribe(gameChannel(site_, game)); }
  void publishAction(const store::Action& action);
  void publishConnections(const std::string& game, const std::map<std::string, int>& counts);
  // Asks the instances holding `game` for their connections to it; `dropped`: this instance has just
  // dropped the game's shared live line (its copy was evicted), and those listing it write it again.
  // (An ask without it, sent whenever a copy is loaded, leaves the shared line alone.)
  void publishAsk(const std::string& game, bool dropped = false);
  // Sends this instance's heartbeat now, on the bus's own connection for it (Bus::publishNow).
  void heartbeat(long long peers);
  // A thread of its own beats every `everyMs` with `peers()` connections, whatever the game work
  // does, and finds the instances silent for `silentMs` (lapsed()); `late` is called (on that
  // thread) when a beat comes after a silence long enough for the others to have found this
  // instance gone (it was paused or starved): it announces itself again. A beat that throws is
  // told to `failed` (the hub logs and counts it) and the next beat is made a period later.
  void startBeating(std::function<long long()> peers, std::function<void()> late, long long everyMs, long long silentMs,
                    std::function<void(std::string_view what)> failed = {});
  void stopBeating();
  // A message for every connection of `player`, wherever it is (invitations).
  void publishNotify(const std::string& player, const Json& message);
  // A session revoked or a player renamed or deleted: every instance drops what it cached of them.
  void publishForget(const std::string& tokenHash, const std::string& player);

  // The live list in shared keys: a hash of lines and a sorted set by creation time.
  void setLiveLine(const std::string& game, long long created, const Json& line);
  void dropLiveLine(const std::string& game);
  // A player reachable on some instance for `ttlMs` (a bot's connection: docs/bots.md), renewed
  // while it lasts; absent at once when it ends, and no renewal made before lands after
  // (PresenceLeases). presentElsewhere(): on another instance (false when the bus cannot answer).
  // `wait`: written before this returns (the first time, so that what the player is told next
  // holds on every instance), else queued.
  void markPresent(const std::string& player, long long ttlMs, bool wait = false);
  void markAbsent(const std::string& player);
  [[nodiscard]] bool presentElsewhere(const std::string& player);
  [[nodiscard]] std::vector<std::string> presentPlayers(std::size_t limit);  // every instance's (none on failure)
  // The newest `limit` lines, or nothing when the bus cannot answer (the caller shows its own).
  [[nodiscard]] std::optional<std::vector<LiveLine>> liveLines(std::size_t limit);

  // The other instances, by their heartbeats. Each one's presence in the games (its connections)
  // is a lease: valid while it beats, suspended (not counted) once it is silent, valid again when
  // it is heard again, and void when it comes back as a new process (another `boot`).
  enum class Heard { Known, Back, Restarted };
  Heard heard(const std::string& instance, long long peers, const std::string& boot, long long nowMs);
  // Any other message from it: it lives (its boot is unknown here, so not a restart).
  Heard touched(const std::string& instance, long long nowMs);
  // Instances not heard for `silentMs`: suspended and returned, once each. None when this instance
  // itself was not running meanwhile (paused, starved): it cannot tell who was silent.
  std::vector<std::string> silent(long long nowMs, long long silentMs);
  [[nodiscard]] bool alive(const std::string& instance);
  // The instances the heartbeat thread found silent since the last call.
  std::vector<std::string> lapsed();
  // Instances heard again (or anew after a restart) since the last call: name -> restarted.
  std::map<std::string, bool> returned();
  [[nodiscard]] long long otherPeers();
  [[nodiscard]] const std::string& boot() const { return boot_; }

 private:
  cluster::Bus& bus_;
  std::string instance_;
  std::string site_;
  std::string liveLines_;  // the live list: a hash of lines by game id...
  std::string liveOrder_;  // ... and a sorted set of game ids by creation time
  std::string boot_;       // this process: a new one after every start
  std::mutex mu_;          // below
  struct Other {
    long long peers = 0;
    long long lastMs = 0;
    std::string boot;
    bool alive = true;
  };
  std::map<std::string, Other> others_;
  std::map<std::string, bool> returned_;
  std::vector<std::string> lapsed_;
  long long lastCheckMs_ = 0;
  std::mutex beatMu_;  // the heartbeat thread
  std::condition_variable beatWake_;
  bool beatStop_ = false;
  std::thread beater_;
  PresenceLeases leases_;  // last: its writer stops before the rest goes
};

}  // namespace semis::server
