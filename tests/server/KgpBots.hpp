#pragma once
// Bots that play by themselves, for the contests' black-box tests: each is a KGP connection on a
// thread of its own that signs in with its token and answers every `state` at once with its first
// legal house and `yield`, until stopped (or, `quitAfter` turns in, it drops the connection).

#include <atomic>
#include <thread>

#include "ClubPlay.hpp"
#include "KgpClient.hpp"

namespace semis::test {

struct BotAccount {
  std::string id;
  std::string name;
  std::string token;
};

// A bot of `owner`'s, made over HTTP.
inline BotAccount newBot(unsigned short port, const Member& owner, const std::string& stem) {
  BotAccount b;
  auto r = http(port, "POST", "/api/bots", Json{{"name", uniqueName(stem)}}.dump(), owner.cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  auto j = Json::parse(r.body, nullptr, false);
  if (j.is_object()) {
    b.id = j.value("id", "");
    b.name = j.value("name", "");
    b.token = j.value("token", "");
  }
  return b;
}

class PlayingBot {
 public:
  // Connects over TCP to the KGP port and signs in; true once the server took the token.
  bool start(unsigned short kgpPort, const std::string& token, int quitAfter = -1) {
    if (!client_.connect(KgpClient::Via::Tcp, kgpPort)) return false;
    auto hello = client_.next();
    if (!hello || splitKgp(*hello).name != "kgp") return false;
    client_.sendLine("set auth:token " + token);
    client_.sendLine("mode freeplay");
    // An `error` would come at once; silence is a bot signed in, waiting for a turn.
    if (auto early = client_.next(500ms)) {
      if (splitKgp(*early).name == "error") return false;
      pending_ = *early;
    }
    quitAfter_ = quitAfter;
    thread_ = std::thread([this] { run(); });
    return true;
  }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    client_.close();
  }
  ~PlayingBot() { stop(); }
  [[nodiscard]] int turns() const { return turns_.load(); }

 private:
  void run() {
    while (!stop_) {
      std::optional<std::string> line;
      if (pending_) {
        line = std::move(pending_);
        pending_.reset();
      } else {
        line = client_.next(200ms);
      }
      if (!line) {
        if (client_.closed()) return;
        continue;
      }
      const KgpLine l = splitKgp(*line);
      if (l.name == "ping") {
        client_.sendLine("@" + std::to_string(l.id) + " pong");
        continue;
      }
      if (l.name != "state") continue;
      if (turns_ == quitAfter_) {
        client_.close();  // gone mid-game, its turn unanswered
        return;
      }
      const std::vector<int> board = kgpBoard(l.args);
      if (board.empty()) continue;
      const int n = board.at(0);
      int house = 1;
      for (int k = 1; k <= n; ++k) {
        if (board.at(static_cast<std::size_t>(2 + k)) > 0) {
          house = k;
          break;
        }
      }
      client_.sendLine("@" + std::to_string(l.id) + " move " + std::to_string(house));
      client_.sendLine("@" + std::to_string(l.id) + " yield");
      ++turns_;
    }
  }

  KgpClient client_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> turns_{0};
  int quitAfter_ = -1;
  std::optional<std::string> pending_;
};

}  // namespace semis::test
