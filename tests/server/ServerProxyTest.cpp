// Black-box tests of the server behind a reverse proxy: with --trust-proxy, the per-address limits
// count the address in X-Forwarded-For (the proxy's own is the same for everyone); without it the
// header is only text a client wrote. And /healthz, which the proxy polls, says no once the store
// stops answering.

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdlib>
#include <istream>
#include <thread>

#include "Play.hpp"

namespace semis::test {
namespace {

const std::string kLocalGame = Json{{"rules", "kalah"}, {"mode", "local"}}.dump();

// POST /api/games without a cookie (a new guest each time, so only the address bounds it), as
// if through a proxy that appended `forwardedFor` (none: no header).
int createFrom(unsigned short port, const std::string& forwardedFor) {
  std::string request = "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";
  if (!forwardedFor.empty()) request += "X-Forwarded-For: " + forwardedFor + "\r\n";
  request += "Content-Length: " + std::to_string(kLocalGame.size()) + "\r\nConnection: close\r\n\r\n" + kLocalGame;
  return rawHttp(port, request).status;
}

// Creates games until one is refused (429); returns how many were created. The bucket allows a
// burst of 40, then one every 2 s: far more than 40 means the requests were not counted together.
int createUntilRefused(unsigned short port, const std::string& forwardedFor) {
  for (int created = 0; created < 100; ++created) {
    const int status = createFrom(port, forwardedFor);
    if (status == 429) return created;
    EXPECT_EQ(status, 200) << "X-Forwarded-For: " << forwardedFor;
    if (status != 200) return -1;
  }
  return 100;
}

TEST(ServerProxy, TrustedForwardedAddressesGetTheirOwnCreateBuckets) {
  if (onCluster()) GTEST_SKIP() << "cluster: the test plays the proxy; here HAProxy is the proxy and appends the address itself";
  ServerProcess server({"--trust-proxy"});
  ASSERT_TRUE(server.start()) << server.logs();
  const int first = createUntilRefused(server.port(), "198.51.100.7");
  EXPECT_GE(first, 20);
  EXPECT_LT(first, 100);
  // Another visitor behind the same proxy is not refused for the first one's games. The client's
  // own entries come before the proxy's: only the last one counts.
  EXPECT_EQ(createFrom(server.port(), "198.51.100.8"), 200);
  EXPECT_EQ(createFrom(server.port(), "198.51.100.7, 198.51.100.9"), 200);
  EXPECT_EQ(createFrom(server.port(), "198.51.100.9, 198.51.100.7"), 429) << "the last entry is the address";
  EXPECT_EQ(createFrom(server.port(), "2001:db8::1"), 200);
  // The proxy's own address (the TCP peer, loopback) has a bucket of its own, still full.
  EXPECT_EQ(createFrom(server.port(), ""), 200);
}

TEST(ServerProxy, AMalformedForwardedAddressCountsAsThePeer) {
  if (onCluster()) GTEST_SKIP() << "cluster: the test plays the proxy; here HAProxy is the proxy and appends the address itself";
  ServerProcess server({"--trust-proxy"});
  ASSERT_TRUE(server.start()) << server.logs();
  const int first = createUntilRefused(server.port(), "");
  EXPECT_LT(first, 100);
  for (const std::string bad : {"not-an-address", "198.51.100.7:4000", "unknown", "198.51.100.7,"}) {
    EXPECT_EQ(createFrom(server.port(), bad), 429) << bad << " was taken for an address";
  }
  EXPECT_EQ(createFrom(server.port(), "198.51.100.7"), 200);
}

TEST(ServerProxy, WithoutTrustProxyTheHeaderIsIgnored) {
  if (onCluster()) GTEST_SKIP() << "cluster: the test plays the proxy; here HAProxy is the proxy and appends the address itself";
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const int first = createUntilRefused(server.port(), "198.51.100.7");
  EXPECT_LT(first, 100);
  // An attacker cannot choose his own address: every value is the same peer, already refused.
  EXPECT_EQ(createFrom(server.port(), "198.51.100.8"), 429);
  EXPECT_EQ(createFrom(server.port(), "2001:db8::1"), 429);
  EXPECT_EQ(createFrom(server.port(), ""), 429);
}

// A WebSocket handshake as if through a proxy that appended `forwardedFor`; the socket stays open
// (the session holds its per-address slot) as long as this object lives.
class ProxiedSocket {
 public:
  ProxiedSocket(unsigned short port, const std::string& forwardedFor) : socket_(ioc_) {
    boost::system::error_code ec;
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
    if (ec) return;
    const std::string request =
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        "X-Forwarded-For: " +
        forwardedFor + "\r\n\r\n";
    boost::asio::write(socket_, boost::asio::buffer(request), ec);
    if (ec) return;
    boost::asio::streambuf buf;
    boost::asio::read_until(socket_, buf, "\r\n", ec);
    if (ec) return;
    std::istream in(&buf);
    std::string version;
    in >> version >> status_;
  }
  [[nodiscard]] int status() const { return status_; }

 private:
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::socket socket_;
  int status_ = 0;
};

TEST(ServerProxy, TheWebSocketCapPerAddressCountsTheForwardedAddress) {
  if (onCluster()) GTEST_SKIP() << "cluster: the test plays the proxy; here HAProxy is the proxy and appends the address itself";
  ServerProcess server({"--trust-proxy", "--max-ws-per-address", "1"});
  ASSERT_TRUE(server.start()) << server.logs();
  ProxiedSocket first(server.port(), "198.51.100.7");
  ASSERT_EQ(first.status(), 101);
  EXPECT_EQ(ProxiedSocket(server.port(), "198.51.100.7").status(), 503) << "one per address";
  ProxiedSocket other(server.port(), "198.51.100.8");
  EXPECT_EQ(other.status(), 101) << "another visitor behind the same proxy";
}

TEST(ServerProxy, WithoutTrustProxyTheWebSocketCapCountsThePeer) {
  if (onCluster()) GTEST_SKIP() << "cluster: the test plays the proxy; here HAProxy is the proxy and appends the address itself";
  ServerProcess server({"--max-ws-per-address", "1"});
  ASSERT_TRUE(server.start()) << server.logs();
  ProxiedSocket first(server.port(), "198.51.100.7");
  ASSERT_EQ(first.status(), 101);
  EXPECT_EQ(ProxiedSocket(server.port(), "198.51.100.8").status(), 503);
}

// Polls /healthz until it answers `status` (the store is probed once a second, in the background).
bool healthBecomes(unsigned short port, int status) {
  for (int i = 0; i < 100; ++i) {
    const auto r = http(port, "GET", "/healthz");
    if (r.status == status) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

TEST(ServerProxy, HealthIsUnavailableWhileTheStoreIsCutOff) {
  const char* kind = std::getenv("SEMIS_SERVER_TEST_DB");
  const char* admin = std::getenv("SEMIS_TEST_PG");
  if (kind == nullptr || std::string(kind) != "postgresql" || admin == nullptr) {
    GTEST_SKIP() << "needs PostgreSQL (SEMIS_SERVER_TEST_DB=postgresql, SEMIS_TEST_PG)";
  }
  ServerProcess server;
  ASSERT_TRUE(server.start()) << server.logs();
  const auto ok = http(server.port(), "GET", "/healthz");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(Json::parse(ok.body, nullptr, false), Json({{"ok", true}}));
  // The server's database refuses connections and its sessions are ended: as if cut off.
  const std::string name = server.db().substr(server.db().rfind('/') + 1);
  const auto psql = [&](const std::string& sql) {
    return std::system(("psql '" + std::string(admin) + "' -qc \"" + sql + "\" >/dev/null 2>&1").c_str());
  };
  ASSERT_EQ(psql("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false"), 0);
  ASSERT_EQ(psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + name + "'"), 0);
  EXPECT_TRUE(healthBecomes(server.port(), 503)) << server.logs();
  EXPECT_EQ(Json::parse(http(server.port(), "GET", "/healthz").body, nullptr, false), Json({{"ok", false}}));
  ASSERT_EQ(psql("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true"), 0);
  EXPECT_TRUE(healthBecomes(server.port(), 200)) << "the store answers again: " << server.logs();
}

}  // namespace
}  // namespace semis::test
