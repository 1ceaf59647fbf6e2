// What one hostile visitor can do to the server: text cut mid-character, a reader that stalls,
// targets that reach beside the web folder, and taking every connection slot. Each must leave the
// server up and serving everyone else.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "Play.hpp"

namespace semis::test {
namespace {

// 31 ASCII bytes then a 2-byte character: a cut at 32 bytes falls inside it.
const std::string kCutText = std::string(31, 'a') + "\xC3\xA9";

bool healthy(unsigned short port) { return http(port, "GET", "/healthz").status == 200; }

bool validUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

TEST(Attack, TextCutInsideACharacterIsAnsweredAndTheServerLives) {
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  // The message type, quoted back in the error.
  WsClient ws;
  ASSERT_TRUE(ws.connect(port));
  for (const std::string& type :
       {kCutText, std::string(30, 'b') + "\xE2\x82\xAC", std::string(29, 'c') + "\xF0\x9F\x8E\xB2"}) {
    ws.sendRaw(Json{{"type", type}}.dump());
    auto e = ws.untilType("error");
    ASSERT_TRUE(e) << "no answer: " << server.logs();
    EXPECT_EQ((*e)["code"], "unknown_type");
    const std::string message = (*e)["message"];
    EXPECT_TRUE(validUtf8(message));
    EXPECT_NE(message.find(type.substr(0, 29)), std::string::npos) << "the type is quoted: " << message;
  }
  ws.send({{"type", "ping"}, {"t", 7}});
  ASSERT_TRUE(ws.untilType("pong")) << "the connection goes on";
  // The same text as a game's mode or level, without a cookie.
  for (const char* field : {"mode", "level"}) {
    auto r = http(port, "POST", "/api/games", Json{{"rules", "kalah"}, {field, kCutText}}.dump());
    EXPECT_EQ(r.status, 400) << field << ": " << r.body;
    auto j = Json::parse(r.body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.body;
    EXPECT_EQ(j["error"]["code"], "bad_message");
  }
  EXPECT_TRUE(healthy(port));
  EXPECT_TRUE(server.running());
}

// A spectator-like client that stops reading while the server has much to send it, then reads
// again: it is dropped (its queue is bounded), and the server serves the others throughout.
TEST(Attack, AReaderThatStallsThenResumesIsDroppedCleanly) {
  ServerProcess server({"--rate", "10000"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string pad(64, 'p');  // the longest `t` a ping may carry: every pong is ~130 bytes
  for (int round = 0; round < 6 && server.running(); ++round) {
    WsClient slow;
    slow.setReceiveBuffer(4096);
    ASSERT_TRUE(slow.connect(port));
    ASSERT_TRUE(slow.untilType("hello"));
    // Stall: send pings, read nothing. Then resume reading while the pings still pour in: writes
    // complete again just as the queue reaches its bound.
    std::atomic<bool> stop{false};
    std::thread flood([&] {
      const std::string ping = Json{{"type", "ping"}, {"t", pad}}.dump();
      for (int i = 0; i < 40000 && !stop && !slow.closed(); ++i) slow.sendRaw(ping);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + 150 * round));
    int read = 0;
    while (slow.next(2000ms)) ++read;
    stop = true;
    flood.join();
    EXPECT_TRUE(slow.closed()) << "round " << round << ": the stalled reader was not dropped (" << read << " read)";
    ASSERT_TRUE(server.running()) << "round " << round << ": the server died\n" << server.logs();
  }
  // Everyone else is still served.
  EXPECT_TRUE(healthy(port));
  WsClient other;
  ASSERT_TRUE(other.connect(port));
  other.send({{"type", "ping"}, {"t", 1}});
  EXPECT_TRUE(other.untilType("pong"));
  EXPECT_NE(server.logs().find("slow_client"), std::string::npos);
}

TEST(Attack, NothingBesideOrOutsideTheWebFolderIsServed) {
  ServerProcess server;
  const std::string d = server.dir();
  // The web folder is semis/, so that the SQLite database (semis.db) lies beside it, as would
  // `--web dist --db dist.db`; semis-secret/ and secret.txt lie beside it too.
  const std::string setup = "cd '" + d +
                            "' && mkdir -p semis/assets semis-secret && printf '<html>app</html>' > semis/index.html"
                            " && printf 'let x=1;' > semis/assets/app.js && printf 'SECRET-DIR' > semis-secret/x"
                            " && printf 'SECRET-TXT' > secret.txt && printf 'SECRET-DOT' > semis/.env"
                            " && ln -s ../semis-secret semis/link && ln -s ../secret.txt semis/file.txt";
  ASSERT_EQ(std::system(setup.c_str()), 0);
  server.addArgs({"--web", d + "/semis"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  ASSERT_EQ(http(port, "POST", "/api/games", Json{{"rules", "kalah"}}.dump()).status, 200) << "the database has a game";
  EXPECT_EQ(http(port, "GET", "/assets/app.js").body, "let x=1;");
  EXPECT_EQ(http(port, "GET", "/assets/app%2Ejs").body, "let x=1;") << "percent-encoding is decoded";
  EXPECT_EQ(http(port, "GET", "/").body, "<html>app</html>");
  auto refused = [&](const std::string& requestLine) {
    auto r = rawHttp(port, requestLine + "\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_NE(r.status, 200) << requestLine << " -> " << r.body.substr(0, 40);
    EXPECT_EQ(r.body.find("SECRET"), std::string::npos) << requestLine << " -> " << r.body.substr(0, 40);
    EXPECT_EQ(r.body.find("SQLite format"), std::string::npos) << requestLine << " served the database";
  };
  refused("GET .db HTTP/1.1");  // appended to the folder's name: semis.db
  refused("GET -secret/x HTTP/1.1");
  refused("GET /../semis.db HTTP/1.1");
  refused("GET /%2e%2e/semis.db HTTP/1.1");  // .. encoded
  refused("GET /assets/..%2f..%2fsemis.db HTTP/1.1");
  refused("GET /link/x HTTP/1.1");  // a symlink out of the folder
  refused("GET /file.txt HTTP/1.1");
  refused("GET /.env HTTP/1.1");
  refused("GET /assets HTTP/1.1");  // a directory
  refused("GET /assets/ HTTP/1.1");
  refused("GET /assets/app.js%00.png HTTP/1.1");
  refused("GET http://x/semis.db HTTP/1.1");
  refused("GET * HTTP/1.1");
  EXPECT_TRUE(healthy(port));
}

// The per-cookie limit: one visitor's cookie cannot take every WebSocket slot.
TEST(Limits, OneCookieHoldsAtMostItsShareOfSockets) {
  if (onCluster()) GTEST_SKIP() << "cluster: the sockets per cookie are counted per instance (docs/scaling.md, limits)";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  const std::string a = newCookie(port);
  constexpr int kPerToken = 32;  // the default --max-ws-per-token
  std::vector<std::unique_ptr<WsClient>> held;
  for (int i = 0; i < kPerToken; ++i) {
    held.push_back(std::make_unique<WsClient>());
    ASSERT_TRUE(held.back()->connect(port, a)) << "connection " << i;
  }
  WsClient over;
  EXPECT_FALSE(over.connect(port, a)) << "one past the limit";
  EXPECT_EQ(over.handshakeStatus(), 503);
  WsClient b;
  EXPECT_TRUE(b.connect(port, newCookie(port))) << "another visitor still gets in";
  // A closed connection gives its place back.
  held.back()->close();
  bool again = false;
  for (int i = 0; i < 100 && !again; ++i) {
    WsClient retry;
    again = retry.connect(port, a);
    if (!again) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(again);
}

// The per-address limit: many cookies from one address share it; another address is not touched.
TEST(Limits, OneAddressHoldsAtMostItsShareOfSockets) {
  if (onCluster()) GTEST_SKIP() << "cluster: the sockets per address are counted per instance (docs/scaling.md, limits)";
  ServerProcess server({"--max-ws-per-address", "4"});
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  std::vector<std::unique_ptr<WsClient>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<WsClient>());
    ASSERT_TRUE(held.back()->connect(port)) << "connection " << i;  // each a new guest
  }
  WsClient over;
  EXPECT_FALSE(over.connect(port));
  EXPECT_EQ(over.handshakeStatus(), 503);
  WsClient elsewhere;
  elsewhere.setLocalAddress("127.0.0.2");
  EXPECT_TRUE(elsewhere.connect(port)) << "a visitor from another address still gets in";
}

// Opens `n` TCP connections that never send a byte; the fds are closed when it goes.
struct IdleConnections {
  explicit IdleConnections(unsigned short port, int n) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < n; ++i) {
      const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd < 0) break;
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
        ::close(fd);
        break;
      }
      fds.push_back(fd);
    }
  }
  ~IdleConnections() {
    for (int fd : fds) ::close(fd);
  }
  std::vector<int> fds;
};

bool raiseOpenFiles(rlim_t want) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return false;
  if (lim.rlim_cur >= want) return true;
  if (lim.rlim_max < want) return false;
  lim.rlim_cur = want;
  return setrlimit(RLIMIT_NOFILE, &lim) == 0;
}

// More half-open connections than the server takes in all, from one address: another address is
// still served (loopback has all of 127/8).
TEST(Limits, IdleConnectionsFromOneAddressDoNotLockOthersOut) {
  constexpr int kIdle = 10200;  // past the default 10000 (+100) connections
  if (!raiseOpenFiles(kIdle + 512)) GTEST_SKIP() << "this process may not open " << kIdle << " sockets";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  IdleConnections idle(port, kIdle);
  ASSERT_EQ(static_cast<int>(idle.fds.size()), kIdle);
  auto r = httpFrom("127.0.0.2", port, "GET", "/healthz");
  EXPECT_EQ(r.status, 200) << "a visitor from 127.0.0.2 was locked out";
  EXPECT_TRUE(server.running());
}

// The same with connections that each sent one request and then sit idle, kept alive.
TEST(Limits, IdleKeptAliveConnectionsFromOneAddressDoNotLockOthersOut) {
  constexpr int kIdle = 10200;
  if (!raiseOpenFiles(kIdle + 512)) GTEST_SKIP() << "this process may not open " << kIdle << " sockets";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  // One at a time: connect, ask, read the answer, and keep the connection open.
  IdleConnections held(port, 0);
  const std::string request = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";  // keep-alive by default
  for (int i = 0; i < kIdle; ++i) {
    IdleConnections one(port, 1);
    ASSERT_EQ(one.fds.size(), 1u) << "connection " << i;
    const int fd = one.fds.back();
    one.fds.clear();
    held.fds.push_back(fd);
    ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
    char buf[512];
    (void)::recv(fd, buf, sizeof buf, 0);
  }
  auto r = httpFrom("127.0.0.2", port, "GET", "/healthz");
  EXPECT_EQ(r.status, 200) << "a visitor from 127.0.0.2 was locked out";
  EXPECT_TRUE(server.running());
}

// At the open-files limit accept() fails at once, again and again: the server backs off, lives,
// and serves again once descriptors are free.
TEST(Limits, TheServerOutlivesAFloodPastItsOpenFilesLimit) {
  if (onCluster()) GTEST_SKIP() << "cluster: HAProxy holds the flood; the instances never see it";
  ServerProcess server;
  server.setOpenFilesLimit(64);
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  {
    IdleConnections flood(port, 300);  // the kernel queues them; the server can take ~40
    ASSERT_GT(flood.fds.size(), 64u);
    bool paused = false;
    for (int i = 0; i < 100 && !paused; ++i) {
      paused = server.logs().find("accept_paused") != std::string::npos;
      if (!paused) std::this_thread::sleep_for(50ms);
    }
    EXPECT_TRUE(paused) << "the server never said it ran out of descriptors\n" << server.logs();
    EXPECT_TRUE(server.running());
  }
  bool served = false;
  for (int i = 0; i < 200 && !served; ++i) {
    served = healthy(port);
    if (!served) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(served) << server.logs();
  EXPECT_TRUE(server.running());
  WsClient ws;
  EXPECT_TRUE(ws.connect(port));
}

}  // namespace
}  // namespace semis::test
