#pragma once
// Bots that play by themselves, for the contests' black-box tests: each is a KGP connection on a
// thread of its own that signs in with its token and answers every `state` at once with its first
// legal house (firstMove) and `yield`, until stopped (or, `quitAfter` turns in, it drops the connection).

#include <atomic>
#include <thread>

#include "KgpPlay.hpp"

namespace semis::test {

class PlayingBot {
 public:
  // Connects over TCP to the KGP port and signs in; true once the server took the token.
  bool start(unsigned short kgpPort, const std::string& token, int quitAfter = -1) {
    if (!client_.connect(KgpClient::Via::Tcp, kgpPort) || !signIn(client_, token)) return false;
    // A turn offered at once (a game waiting for the bot) came with the sign-in's answer.
    const std::string early = client_.seen().back();
    if (early.rfind("(early) ", 0) == 0) pending_ = early.substr(8);
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
      const int house = firstMove(board);
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
