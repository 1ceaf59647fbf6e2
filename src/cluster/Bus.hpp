#pragma once
// The bus that joins several `semis serve` instances (docs/scaling.md): publish/subscribe for live
// fan-out (a game's events reach the instances whose clients watch it) and a few shared keys (the
// live list). Redis behind it (RedisBus); nothing at all in the embedded default, where the hub has
// no bus. The bus is never the record: PostgreSQL is. A message lost while Redis restarts costs a
// reload from the store, never a move.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace semis::cluster {

struct BusError {
  std::string message;
};

template <class T>
using BusResult = tl::expected<T, BusError>;

// A Redis reply, reduced to what the callers use: nil, an integer, a string (bulk or status), or
// an array of replies.
struct Reply {
  enum class Kind { Nil, Integer, String, Array } kind = Kind::Nil;
  long long integer = 0;
  std::string string;
  std::vector<Reply> array;
};

struct BusHandlers {
  // A message on a subscribed channel: called on the bus's reader thread, in the order published.
  std::function<void(const std::string& channel, const std::string& payload)> message;
  // The subscription connection came back after a loss (Redis restarted, a network cut): messages
  // may have been missed meanwhile, so the caller resynchronizes what it holds.
  std::function<void()> resubscribed;
  // Redis confirmed a subscription: from now on nothing published there is missed. What was
  // published before it is not delivered, so the caller reads the record once more (optional).
  std::function<void(const std::string& channel)> subscribed;
  // An exception caught on one of the bus's threads (`where`: "reader" or "writer"; `what`: its
  // message): that connection is dropped and opened again, the thread goes on. The bus is below
  // the server's log and metrics, so it reports here and the caller logs and counts it (optional;
  // failures() counts them either way). Called on the failing thread, never under the bus's lock.
  std::function<void(std::string_view where, std::string_view what)> failed;
};

class Bus {
 public:
  virtual ~Bus() = default;
  Bus() = default;
  Bus(const Bus&) = delete;
  Bus& operator=(const Bus&) = delete;

  // Starts the reader and writer threads; handlers are called from the reader thread.
  virtual void start(BusHandlers handlers) = 0;
  // Stops both threads; queued publishes are sent first when Redis is reachable (bounded wait).
  virtual void stop() = 0;

  // Never blocks: queued and sent in order by the writer thread. While Redis is unreachable the
  // queue is bounded (oldest dropped, counted in dropped()).
  virtual void publish(const std::string& channel, std::string payload) = 0;
  // Sent now, on a connection of its own, not behind the queue of publish(): for what must not
  // wait behind game traffic (an instance's heartbeat). Blocks for at most the bus's timeout; a
  // failure is dropped (the next one is a second later).
  virtual void publishNow(const std::string& channel, const std::string& payload) { publish(channel, payload); }
  // Also never blocks; the subscriptions are replayed after a reconnection.
  virtual void subscribe(const std::string& channel) = 0;
  virtual void unsubscribe(const std::string& channel) = 0;
  // Any other command, fire-and-forget, on the writer's connection, in order with publish().
  virtual void send(std::vector<std::string> args) = 0;

  // A command answered synchronously on its own connection, bounded by the bus's timeout. Safe
  // from any thread (serialized). For reads off the game path (the live list).
  virtual BusResult<Reply> command(const std::vector<std::string>& args) = 0;

  // Whether the subscription connection is up now.
  [[nodiscard]] virtual bool connected() const = 0;
  [[nodiscard]] virtual long long dropped() const = 0;
  // Exceptions caught on the bus's threads (each also reported to BusHandlers::failed).
  [[nodiscard]] virtual long long failures() const { return 0; }
};

struct BusOptions {
  int timeoutMs = 500;            // connect and synchronous command timeout
  std::size_t maxQueued = 100000;  // outgoing commands held while Redis is unreachable
  int reconnectMs = 200;          // pause between reconnection attempts
};

// `where`: redis://HOST:PORT[/DB] or unix:PATH. Connects once to check the address; fails with a
// clear message when Redis cannot be reached.
[[nodiscard]] BusResult<std::unique_ptr<Bus>> openRedisBus(const std::string& where, const BusOptions& options = {});

// In one process: every bus made by one LoopbackHub sees the others' publishes (tests of several
// hubs without a network or Redis). command() answers from a small in-memory key space: HSET,
// HDEL, HGET, HGETALL, HMGET, ZADD, ZREM, ZREVRANGE, DEL.
class LoopbackHub;
[[nodiscard]] std::shared_ptr<LoopbackHub> makeLoopbackHub();
[[nodiscard]] std::unique_ptr<Bus> makeLoopbackBus(const std::shared_ptr<LoopbackHub>& hub);
// Cuts (false) or restores (true) every loopback bus's connection: publishes are dropped while
// cut, and `resubscribed` is called on restore.
void setLoopbackUp(LoopbackHub& hub, bool up);

}  // namespace semis::cluster
