#pragma once
// A bot as the tests write it: the Kalah Game Protocol (KGP) over TCP or over the WebSocket /kgp,
// line by line, with the quirks of the real client libraries at hand (a frame per token, quoted
// words, raw bytes). Beast is hidden behind this header, as in Harness.hpp.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace semis::test {

using namespace std::chrono_literals;

class KgpClient {
 public:
  enum class Via { Tcp, WebSocket };
  KgpClient();
  ~KgpClient();
  // TCP: `port` is the --kgp-port; WebSocket: the HTTP port (path /kgp).
  bool connect(Via via, unsigned short port);
  // One line (the newline added: "\r\n" over TCP, a frame of its own over WebSocket).
  void sendLine(const std::string& line);
  // Bytes as they are: over TCP in one write, over WebSocket each element in a frame of its own.
  void sendRaw(const std::vector<std::string>& pieces, bool binary = false);
  // The next line the server sent (without its line end), or nothing after `timeout` or once closed.
  std::optional<std::string> next(std::chrono::milliseconds timeout = 3000ms);
  // Reads until a line satisfies `pred`; the lines before it are kept in seen().
  std::optional<std::string> until(const std::function<bool(const std::string&)>& pred,
                                   std::chrono::milliseconds timeout = 5000ms);
  // Until a line whose command (after the id and reference) is `name`.
  std::optional<std::string> untilCommand(const std::string& name, std::chrono::milliseconds timeout = 5000ms);
  [[nodiscard]] bool closed() const;
  void close();
  [[nodiscard]] std::vector<std::string>& seen();  // every line read, in order

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A KGP line's parts: "12@4 stop" -> id 12, ref 4, name "stop", args "".
struct KgpLine {
  long long id = -1;
  long long ref = -1;
  std::string name;
  std::string args;
};
KgpLine splitKgp(const std::string& line);
// The numbers of a board literal "<n,s,N,...>" (empty if the text holds none).
std::vector<int> kgpBoard(const std::string& text);

}  // namespace semis::test
