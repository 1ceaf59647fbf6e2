#include "Harness.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace semis::test {

namespace beast = boost::beast;
namespace http_ = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

std::string makeTempDir() {
  char tmpl[] = "/tmp/semis-server-test-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d != nullptr ? d : "/tmp";
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string readFrom(const std::string& path, std::size_t offset) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(static_cast<std::streamoff>(offset));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t fileSize(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
}

// The admin URL with its database replaced by `name` (postgresql://u:p@h:5432/postgres?x=y -> .../name?x=y).
std::string withDatabase(const std::string& url, const std::string& name) {
  const auto scheme = url.find("://");
  const std::size_t hostStart = scheme == std::string::npos ? 0 : scheme + 3;
  const auto query = url.find('?', hostStart);
  const auto slash = url.find('/', hostStart);
  const std::size_t pathStart = slash != std::string::npos && slash < query ? slash : std::min(query, url.size());
  const std::string rest = query == std::string::npos ? std::string() : url.substr(query);
  return url.substr(0, pathStart) + "/" + name + rest;
}

}  // namespace

ServerProcess::ServerProcess(std::vector<std::string> extra) : extra_(std::move(extra)), dir_(makeTempDir()) {}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) kill9();
  const char* admin = std::getenv("SEMIS_TEST_PG");
  if (!pgName_.empty() && admin != nullptr) {
    const std::string drop = "psql " + shellQuote(admin) + " -qc " +
                             shellQuote("DROP DATABASE IF EXISTS " + pgName_ + " WITH (FORCE)") + " >/dev/null 2>&1";
    (void)std::system(drop.c_str());
  }
  std::string cmd = "rm -rf '" + dir_ + "'";
  if (std::getenv("SEMIS_KEEP_TEST_DIRS") == nullptr) (void)std::system(cmd.c_str());
}

bool ServerProcess::prepareDb() {
  const char* kind = std::getenv("SEMIS_SERVER_TEST_DB");
  if (kind == nullptr || std::string(kind) != "postgresql") {
    db_ = dir_ + "/semis.db";
    return true;
  }
  const char* admin = std::getenv("SEMIS_TEST_PG");
  if (admin == nullptr || *admin == '\0') {
    std::fprintf(stderr, "SEMIS_SERVER_TEST_DB=postgresql needs SEMIS_TEST_PG=<admin url>\n");
    return false;
  }
  std::random_device rd;
  char name[32];
  std::snprintf(name, sizeof name, "semis_t_%08x%08x", rd(), rd());
  const std::string create = "psql " + shellQuote(admin) + " -v ON_ERROR_STOP=1 -qc " +
                             shellQuote(std::string("CREATE DATABASE ") + name) + " >>" +
                             shellQuote(dir_ + "/psql.log") + " 2>&1";
  if (std::system(create.c_str()) != 0) {
    std::fprintf(stderr, "could not create the test database: %s\n", readFrom(dir_ + "/psql.log", 0).c_str());
    return false;
  }
  pgName_ = name;
  db_ = withDatabase(admin, name);
  return true;
}

unsigned short ServerProcess::readPort(std::size_t fromOffset) {
  std::istringstream lines(readFrom(dir_ + "/server.log", fromOffset));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("\"listening\"") == std::string::npos) continue;
    auto j = Json::parse(line, nullptr, false);
    if (j.is_object() && j.value("event", "") == "listening" && j.contains("port") && j["port"].is_number_integer())
      return j["port"].get<unsigned short>();
  }
  return 0;
}

bool ServerProcess::start() {
  if (db_.empty() && !prepareDb()) return false;
  const char* binary = std::getenv("SEMIS_SERVER_BINARY");
  // The first start takes any free port (no race for one); a restart asks for the same port again.
  std::vector<std::string> args{
      binary != nullptr ? binary : SEMIS_BINARY, "serve", "--port", std::to_string(port_), "--db", db_};
  for (auto& e : extra_) args.push_back(e);
  const std::string logPath = dir_ + "/server.log";
  const std::size_t logStart = fileSize(logPath);
  pid_ = fork();
  if (pid_ == 0) {
    if (openFiles_ > 0) {
      const rlimit lim{static_cast<rlim_t>(openFiles_), static_cast<rlim_t>(openFiles_)};
      setrlimit(RLIMIT_NOFILE, &lim);
    }
    FILE* log = std::fopen(logPath.c_str(), "a");
    if (log != nullptr) dup2(fileno(log), 2);
    // The test's own sockets must not live on in the server (nor count against its limit).
    for (int fd = 3; fd < 65536; ++fd) ::close(fd);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 400; ++i) {
    std::this_thread::sleep_for(25ms);
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    const unsigned short port = readPort(logStart);
    if (port == 0) continue;
    port_ = port;
    for (int k = 0; k < 200; ++k) {
      if (http(port_, "GET", "/healthz").status == 200) return true;
      std::this_thread::sleep_for(25ms);
    }
    return false;
  }
  return false;
}

bool ServerProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

void ServerProcess::kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

int ServerProcess::terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  for (int i = 0; i < 400; ++i) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(25ms);
  }
  kill9();
  return -1;
}

std::string ServerProcess::logs() const {
  std::ifstream in(dir_ + "/server.log");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

HttpReply request(const std::string& localAddress, unsigned short port, const std::string& method,
                  const std::string& target, const std::string& body, const std::string& cookie) {
  HttpReply reply;
  try {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(5s);
    if (!localAddress.empty()) {
      stream.socket().open(tcp::v4());
      stream.socket().bind(tcp::endpoint(net::ip::make_address(localAddress), 0));
    }
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http_::request<http_::string_body> req(http_::string_to_verb(method), target, 11);
    req.set(http_::field::host, "127.0.0.1");
    if (!cookie.empty()) req.set(http_::field::cookie, cookie);
    if (!body.empty()) {
      req.set(http_::field::content_type, "application/json");
      req.body() = body;
    }
    req.prepare_payload();
    http_::write(stream, req);
    beast::flat_buffer buf;
    http_::response<http_::string_body> res;
    http_::read(stream, buf, res);
    reply.status = static_cast<int>(res.result_int());
    reply.body = res.body();
    reply.contentType = std::string(res[http_::field::content_type]);
    std::string sc(res[http_::field::set_cookie]);
    reply.setCookie = sc.substr(0, sc.find(';'));
  } catch (const std::exception&) {
    reply.status = 0;
  }
  return reply;
}

}  // namespace

HttpReply http(unsigned short port, const std::string& method, const std::string& target, const std::string& body,
               const std::string& cookie) {
  return request("", port, method, target, body, cookie);
}

HttpReply httpFrom(const std::string& localAddress, unsigned short port, const std::string& method,
                   const std::string& target) {
  return request(localAddress, port, method, target, "", "");
}

HttpReply rawHttp(unsigned short port, const std::string& text) {
  HttpReply reply;
  try {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(5s);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    net::write(stream, net::buffer(text));
    beast::flat_buffer buf;
    http_::response<http_::string_body> res;
    http_::read(stream, buf, res);
    reply.status = static_cast<int>(res.result_int());
    reply.body = res.body();
    reply.contentType = std::string(res[http_::field::content_type]);
  } catch (const std::exception&) {
    reply.status = 0;
  }
  return reply;
}

struct WsClient::Impl {
  net::io_context ioc;
  std::optional<websocket::stream<beast::tcp_stream>> ws;
  beast::flat_buffer buffer;
  std::string cookie;
  bool closed = true;
  std::vector<Json> skipped;
  int receiveBuffer = 0;
  std::string localAddress;
  int handshakeStatus = 0;
  int closeCode = 0;
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}
WsClient::~WsClient() = default;

bool WsClient::connect(unsigned short port, const std::string& cookie) {
  try {
    impl_->ws.emplace(impl_->ioc);
    impl_->handshakeStatus = 0;
    auto& lowest = beast::get_lowest_layer(*impl_->ws);
    lowest.expires_after(5s);
    if (impl_->receiveBuffer > 0 || !impl_->localAddress.empty()) lowest.socket().open(tcp::v4());
    if (impl_->receiveBuffer > 0)
      lowest.socket().set_option(net::socket_base::receive_buffer_size(impl_->receiveBuffer));
    if (!impl_->localAddress.empty())
      lowest.socket().bind(tcp::endpoint(net::ip::make_address(impl_->localAddress), 0));
    lowest.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    lowest.expires_never();
    impl_->cookie = cookie;
    impl_->ws->set_option(websocket::stream_base::decorator([cookie](websocket::request_type& req) {
      if (!cookie.empty()) req.set(http_::field::cookie, cookie);
    }));
    impl_->ws->read_message_max(1 << 20);
    websocket::response_type res;
    beast::error_code ec;
    impl_->ws->handshake(res, "127.0.0.1", "/ws", ec);
    impl_->handshakeStatus = static_cast<int>(res.result_int());
    if (ec) return false;
    std::string sc(res[http_::field::set_cookie]);
    if (!sc.empty()) impl_->cookie = sc.substr(0, sc.find(';'));
    impl_->closed = false;
    impl_->buffer.clear();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

const std::string& WsClient::cookie() const { return impl_->cookie; }

void WsClient::setReceiveBuffer(int bytes) { impl_->receiveBuffer = bytes; }

void WsClient::setLocalAddress(const std::string& address) { impl_->localAddress = address; }

int WsClient::handshakeStatus() const { return impl_->handshakeStatus; }

void WsClient::send(const Json& j) { sendRaw(j.dump()); }

void WsClient::sendRaw(const std::string& text, bool binary) {
  if (impl_->closed) return;
  beast::error_code ec;
  impl_->ws->binary(binary);
  impl_->ws->write(net::buffer(text), ec);
  if (ec) impl_->closed = true;
}

std::optional<Json> WsClient::next(std::chrono::milliseconds timeout) {
  if (impl_->closed) return std::nullopt;
  std::optional<beast::error_code> result;
  impl_->ws->async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) { result = ec; });
  impl_->ioc.restart();
  impl_->ioc.run_for(timeout);
  if (!result) {
    // Timed out: cancel the read and let its handler run before the next call.
    beast::get_lowest_layer(*impl_->ws).cancel();
    impl_->ioc.restart();
    impl_->ioc.run();
    if (result && *result && *result != net::error::operation_aborted) impl_->closed = true;
    if (result && !*result) {
      std::string text = beast::buffers_to_string(impl_->buffer.data());
      impl_->buffer.consume(impl_->buffer.size());
      return Json::parse(text, nullptr, false);
    }
    // A cancelled websocket read leaves the stream unusable: treat it as closed.
    if (result && *result == net::error::operation_aborted) impl_->closed = true;
    return std::nullopt;
  }
  if (*result) {
    if (*result == websocket::error::closed) impl_->closeCode = static_cast<int>(impl_->ws->reason().code);
    impl_->closed = true;
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(impl_->buffer.data());
  impl_->buffer.consume(impl_->buffer.size());
  return Json::parse(text, nullptr, false);
}

std::optional<Json> WsClient::until(const std::function<bool(const Json&)>& pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!impl_->closed) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    auto m = next(left);
    if (!m) return std::nullopt;
    if (pred(*m)) return m;
    impl_->skipped.push_back(*m);
  }
  return std::nullopt;
}

std::optional<Json> WsClient::untilType(const std::string& type, std::chrono::milliseconds timeout) {
  return until([&type](const Json& j) { return j.value("type", "") == type; }, timeout);
}

bool WsClient::closed() const { return impl_->closed; }

int WsClient::closeCode() const { return impl_->closeCode; }

void WsClient::close() {
  if (impl_->closed) return;
  beast::error_code ec;
  beast::get_lowest_layer(*impl_->ws).socket().close(ec);
  impl_->closed = true;
}

std::vector<Json>& WsClient::skipped() { return impl_->skipped; }

}  // namespace semis::test
