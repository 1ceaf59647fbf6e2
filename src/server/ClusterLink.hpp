#pragma once
// What one instance says to the others through the bus, and what it knows of them (docs/scaling.md).
// PostgreSQL is the record and the authority: a game action is stored with its next event numbers,
// which the store refuses twice (store::Action), so two instances can never both write event n.
// The bus only spreads what was stored: each stored action goes to the game's channel, where every
// instance holding that game follows it; who watches a game from where (presence, spectators);
// each instance's heartbeat (its connections, and that it lives); the live list's lines.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cluster/Bus.hpp"
#include "protocol/Messages.hpp"
#include "store/Store.hpp"

namespace semis::server {

using protocol::Json;

// One message read from the bus. `instance` is the sender's.
struct BusMessage {
  enum class Kind { Action, Connections, Ask, Heartbeat, Notify, Forget } kind = Kind::Heartbeat;
  std::string instance;
  std::string game;
  store::Action action;                // Action: as stored
  std::map<std::string, int> counts;   // Connections: player id -> that instance's connections to the game
  long long peers = 0;                 // Heartbeat: that instance's connections
  std::string player;                  // Notify: to every connection of this player...
  Json message;                        // ... this message (a JSON object)
  std::string tokenHash;               // Forget: a session ended (and `player`'s cached name)
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

  [[nodiscard]] const std::string& instance() const { return instance_; }
  [[nodiscard]] const std::string& site() const { return site_; }
  [[nodiscard]] cluster::Bus& bus() { return bus_; }
  static std::string gameChannel(const std::string& site, const std::string& game) { return site + ":game:" + game; }
  static std::string instancesChannel(const std::string& site) { return site + ":instances"; }

  void watch(const std::string& game) { bus_.subscribe(gameChannel(site_, game)); }
  void unwatch(const std::string& game) { bus_.unsubscribe(gameChannel(site_, game)); }
  void publishAction(const store::Action& action);
  void publishConnections(const std::string& game, const std::map<std::string, int>& counts);
  void publishAsk(const std::string& game);
  void heartbeat(long long peers);
  // A message for every connection of `player`, wherever it is (invitations).
  void publishNotify(const std::string& player, const Json& message);
  // A session revoked or a player renamed or deleted: every instance drops what it cached of them.
  void publishForget(const std::string& tokenHash, const std::string& player);

  // The live list in shared keys: a hash of lines and a sorted set by creation time.
  void setLiveLine(const std::string& game, long long created, const Json& line);
  void dropLiveLine(const std::string& game);
  // The newest `limit` lines, or nothing when the bus cannot answer (the caller shows its own).
  [[nodiscard]] std::optional<Json> liveLines(std::size_t limit);

  // The other instances, by their heartbeats.
  void heard(const std::string& instance, long long peers, long long nowMs);
  // Instances not heard for `silentMs`: forgotten and returned, once each.
  std::vector<std::string> silent(long long nowMs, long long silentMs);
  [[nodiscard]] long long otherPeers();

 private:
  cluster::Bus& bus_;
  std::string instance_;
  std::string site_;
  std::string liveLines_;  // the live list: a hash of lines by game id...
  std::string liveOrder_;  // ... and a sorted set of game ids by creation time
  std::mutex mu_;  // others_
  struct Other {
    long long peers = 0;
    long long lastMs = 0;
  };
  std::map<std::string, Other> others_;
};

}  // namespace semis::server
