#pragma once
// The hub: every live game, the identities, and the rules of play. Network sessions hand it parsed
// messages; it validates them with the rules engine, writes them to the store, and only then
// acknowledges and broadcasts. One mutex guards it: each call is short (no I/O but SQLite's commit,
// which in WAL mode is a write to the OS), and AI search runs outside it on the AI pool.

#include <array>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/Messages.hpp"
#include "rules/Game.hpp"
#include "server/Metrics.hpp"
#include "server/MoveSource.hpp"
#include "store/Store.hpp"

namespace semis::server {

using protocol::Json;
using Message = std::shared_ptr<const std::string>;

// A connected client as the hub sees it. send() must not block: sessions queue the message.
class Peer {
 public:
  virtual ~Peer() = default;
  virtual void send(Message message) = 0;
  // Sends what is queued, then closes the connection (server shutdown).
  virtual void closeSoon() = 0;
  [[nodiscard]] virtual const std::string& token() const = 0;
};

struct Identity {
  std::string token;
  std::string id;
  std::string name;
  bool created = false;  // a new guest: the answer sets the cookie
};

struct Room;

class Hub {
 public:
  Hub(store::Store& store, Metrics& metrics, std::unique_ptr<MoveSource> ai, int aiThreads);
  ~Hub();

  // Loads the unfinished games and replays their moves; returns how many.
  Result<int> resume();
  // The identity of a cookie's token; an unknown or malformed token gets a fresh guest.
  Identity identify(const std::string& token);
  Result<Identity> rename(const std::string& token, const std::string& name);

  Result<Json> createGame(const std::string& token, const protocol::GameSpec& spec);
  [[nodiscard]] Json liveGames();
  [[nodiscard]] std::optional<Json> state(const std::string& gameId, const std::string& token);
  [[nodiscard]] std::optional<std::string> record(const std::string& gameId);

  void attach(const std::shared_ptr<Peer>& peer);
  void detach(Peer* peer);
  void onMessage(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg);
  // Flags fall: called every 100 ms.
  void tick();
  // Tells every client the server is going down and closes the connections.
  void shutdown(int retryMs);
  // Waits for the AI searches in flight: called before the network objects are destroyed, so no
  // search answers into a session that no longer exists.
  void stopAi();

 private:
  using Clock = std::chrono::steady_clock;
  struct Staged;

  Result<Json> createLocked(const std::string& token, const protocol::GameSpec& spec);
  Room* find(const std::string& id);
  Room* load(const store::GameRow& row);
  void evict();
  Room& newRoom(const std::string& id, const protocol::GameSpec& spec);
  void sendError(Peer& peer, std::string_view code, std::string_view message, const Json& id = nullptr);
  void join(const std::shared_ptr<Peer>& peer, const protocol::ClientMessage& msg);
  void leave(Peer& peer, Room& room);
  void move(Peer& peer, const protocol::ClientMessage& msg);
  void resign(Peer& peer, Room& room);
  void offerDraw(Peer& peer, Room& room);
  void answerDraw(Peer& peer, Room& room, bool accept);
  void swap(Peer& peer, Room& room);
  void rematch(Peer& peer, Room& room);

  // The side `token` plays now in `room` (the side to move for a local game), or nothing.
  std::optional<Side> seatOf(const Room& room, const std::string& token) const;
  // Plays a legal move for `side`; writes it, then broadcasts. Returns the move event's number.
  Result<long long> applyMove(Room& room, Side side, int house, const Json& clientId);
  // Ends the game without a sowing: resign, time, agreement.
  Result<void> adjudicate(Room& room, std::optional<Side> winner, std::string_view reason, std::string_view kind,
                          Side actor, Json extraEvent);
  // Writes the action and the staged events in one transaction, then publishes the events.
  Result<void> commit(Room& room, std::optional<store::MoveRow> action, std::vector<Json> events, bool gameRow);
  void publish(Room& room, const Message& message);
  // Seats' connections changed: an unnumbered `presence` message to the watchers (not logged as an event).
  void presence(Room& room);
  void rebuild(Room& room);
  void maybeAi(Room& room);
  void aiMoved(const std::string& gameId, std::size_t plies, int house, long long micros);
  void startClock(Room& room);
  [[nodiscard]] long long clockLeft(const Room& room, Side s, Clock::time_point now) const;

  [[nodiscard]] Json stateJson(const Room& room, const std::string& token) const;
  [[nodiscard]] Json seatsJson(const Room& room) const;
  [[nodiscard]] Json resultJson(const Room& room) const;
  // The clocks as of `now`: a move event passes the move's own instant, so the time spent playing
  // the move and building its event is not charged to the next player in the event itself.
  [[nodiscard]] Json clockJson(const Room& room, Clock::time_point now = Clock::now()) const;
  [[nodiscard]] std::string status(const Room& room) const;
  [[nodiscard]] std::string playerName(const std::string& token) const;
  void updateActiveGauge();

  std::mutex mu_;
  store::Store& store_;
  Metrics& metrics_;
  std::unique_ptr<MoveSource> ai_;
  boost::asio::thread_pool aiPool_;
  std::unordered_map<std::string, std::unique_ptr<Room>> rooms_;
  std::unordered_map<std::string, store::PlayerRow> players_;
  std::unordered_map<Peer*, std::weak_ptr<Peer>> peers_;
  bool stopping_ = false;
  long long ticks_ = 0;
};

}  // namespace semis::server
