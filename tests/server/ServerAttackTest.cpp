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
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "KgpClient.hpp"
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

// The open-files limit the flood tests give their server, and the descriptors it keeps from
// visitors at that limit (accept/AcceptLoop.hpp: a quarter of the limit).
constexpr int kFloodLimit = 64;
constexpr int kFloodReserve = kFloodLimit / 4;

// The server's cpu time so far (/proc/PID/stat: user and system, in clock ticks).
double cpuSeconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // the name may hold spaces
  std::vector<std::string> f{std::istream_iterator<std::string>(fields), {}};
  if (f.size() < 13) return -1;
  return (std::stod(f[11]) + std::stod(f[12])) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

int openDescriptors(int pid) {
  int n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++n;
  }
  return n;
}

// Whether the server has logged `event` for the listening port `name`, or for any if it is empty
// (within 5 s).
bool loggedForPort(const ServerProcess& server, const std::string& event, const std::string& name) {
  for (int i = 0; i < 100; ++i) {
    std::istringstream lines(server.logs());
    for (std::string line; std::getline(lines, line);) {
      auto j = Json::parse(line, nullptr, false);
      if (j.is_object() && j.value("event", "") == event && (name.empty() || j.value("port", "") == name)) return true;
    }
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

// At the open-files limit accept() fails at once, again and again. Every listening port (the
// game's, the bots' KGP port, the health port) pauses instead of spinning, leaves the server its
// reserve of descriptors, lives, and serves again once the flood is gone. The KGP and health
// ports retried at once and each took a core while the flood lasted.
TEST(Limits, EveryPortWaitsOutAFloodPastItsOpenFilesLimit) {
  if (onCluster()) GTEST_SKIP() << "cluster: HAProxy holds the flood; the instances never see it";
  ServerProcess server({"--kgp-port", "0", "--health-port", "0"});
  server.setOpenFilesLimit(kFloodLimit);
  ASSERT_TRUE(server.start()) << server.logs();
  const std::string logs = server.logs();
  const unsigned short healthPort = listeningPort(logs, "health_port");
  const unsigned short kgpPort = listeningPort(logs, "kgp_port");
  ASSERT_NE(healthPort, 0) << logs;
  ASSERT_NE(kgpPort, 0) << logs;
  const std::pair<std::string, unsigned short> ports[] = {
      {"game", server.port()}, {"kgp", kgpPort}, {"health", healthPort}};
  for (const auto& [name, port] : ports) {
    SCOPED_TRACE(name);
    {
      IdleConnections flood(port, 300);  // the kernel queues what the server does not take
      ASSERT_GT(flood.fds.size(), static_cast<std::size_t>(kFloodLimit));
      EXPECT_TRUE(loggedForPort(server, "accept_paused", name)) << server.logs();
      const double before = cpuSeconds(server.pid());
      std::this_thread::sleep_for(1s);
      // A loop retrying at once burns its thread's whole second; one that waits, a few wake-ups.
      EXPECT_LT(cpuSeconds(server.pid()) - before, 0.25) << "the accept loop spins";
      // Visitors stop at the reserve; half of it is left even if the server's own work (a store
      // connection opened meanwhile) has taken some. Without a reserve they took all 64.
      EXPECT_LE(openDescriptors(server.pid()), kFloodLimit - kFloodReserve / 2) << "visitors took the reserve";
      EXPECT_TRUE(server.running());
    }
    bool served = false;
    for (int i = 0; i < 200 && !served; ++i) {
      if (name == "kgp") {
        KgpClient bot;
        served = bot.connect(KgpClient::Via::Tcp, port) && bot.next().has_value();
      } else {
        served = healthy(port);
      }
      if (!served) std::this_thread::sleep_for(50ms);
    }
    EXPECT_TRUE(served) << server.logs();
  }
  WsClient ws;
  EXPECT_TRUE(ws.connect(server.port()));
  EXPECT_TRUE(server.running());
}

// Sends a request on a connection the server took earlier and returns the reply's status line.
std::string statusLineOn(int fd, const std::string& request) {
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) return {};
  timeval timeout{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string reply;
  char buf[4096];
  while (reply.find("\r\n") == std::string::npos) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    reply.append(buf, static_cast<std::size_t>(n));
  }
  return reply.substr(0, reply.find("\r\n"));
}

// Visitors who hold every descriptor they can get leave the server the ones its own work needs:
// a static file read for the first time during the flood is served (a 404 when the flood could
// take the last descriptor).
TEST(Limits, AFloodLeavesTheServerDescriptorsForItsOwnFiles) {
  if (onCluster()) GTEST_SKIP() << "cluster: HAProxy holds the flood; the instances never see it";
  ServerProcess server;
  const auto web = std::filesystem::path(server.dir()) / "web";
  std::filesystem::create_directories(web);
  std::ofstream(web / "index.html") << "<!doctype html><title>Semis</title>";
  std::ofstream(web / "late.txt") << "read during the flood";
  server.addArgs({"--web", web.string()});
  server.setOpenFilesLimit(kFloodLimit);
  ASSERT_TRUE(server.start()) << server.logs();
  const auto port = server.port();
  IdleConnections early(port, 1);  // taken before the flood; its request comes during it
  ASSERT_EQ(early.fds.size(), 1u);
  IdleConnections flood(port, 300);
  ASSERT_GT(flood.fds.size(), static_cast<std::size_t>(kFloodLimit));
  ASSERT_TRUE(loggedForPort(server, "accept_paused", "")) << server.logs();
  EXPECT_EQ(statusLineOn(early.fds[0], "GET /late.txt HTTP/1.1\r\nHost: x\r\n\r\n"), "HTTP/1.1 200 OK")
      << server.logs();
  EXPECT_TRUE(server.running());
}

}  // namespace
}  // namespace semis::test
