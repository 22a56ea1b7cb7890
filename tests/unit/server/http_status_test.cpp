// The HTTP status endpoint over a real socket, and address parsing.
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "server/address.hpp"
#include "server/http_status.hpp"
#include "unit/server/fake_service.hpp"
#include "unit/server/http_get.hpp"

namespace {

using cuzk::server::HttpStatusServer;
using cuzk::test::FakeService;
using namespace cuzk::test::http;

class HttpStatusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    srv = std::make_unique<HttpStatusServer>(fake, "127.0.0.1:0");
    srv->start();
    port = srv->port();
    ASSERT_GT(port, 0);
  }
  FakeService fake;
  std::unique_ptr<HttpStatusServer> srv;
  int port = 0;
};

TEST_F(HttpStatusTest, StatusServesJson) {
  auto r = get(port, "/status");
  EXPECT_EQ(status_code(r), 200) << r;
  EXPECT_NE(r.find("Content-Type: application/json"), std::string::npos);
  EXPECT_EQ(body(r), fake.status_json());
  auto len = "Content-Length: " + std::to_string(fake.status_json().size());
  EXPECT_NE(r.find(len), std::string::npos);
}

TEST_F(HttpStatusTest, MetricsServesPrometheusText) {
  auto r = get(port, "/metrics");
  EXPECT_EQ(status_code(r), 200);
  EXPECT_NE(r.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_EQ(body(r), fake.metrics_text());
  // Query strings are ignored.
  EXPECT_EQ(status_code(get(port, "/metrics?x=1")), 200);
}

TEST_F(HttpStatusTest, OtherPathsAndMethods) {
  EXPECT_EQ(status_code(get(port, "/")), 200);  // the dashboard (dashboard_test.cpp)
  EXPECT_EQ(status_code(get(port, "/nope")), 404);
  EXPECT_EQ(status_code(get(port, "/statusx")), 404);
  EXPECT_EQ(status_code(exchange_tcp(port, "POST /status HTTP/1.1\r\nContent-Length: 0\r\n\r\n")), 405);
  EXPECT_EQ(status_code(exchange_tcp(port, "garbage\r\n\r\n")), 400);
  auto head = exchange_tcp(port, "HEAD /status HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status_code(head), 200);
  EXPECT_EQ(body(head), "");
  // Bare-LF clients work too.
  EXPECT_EQ(status_code(exchange_tcp(port, "GET /status HTTP/1.0\n\n")), 200);
}

TEST_F(HttpStatusTest, KeepsServingAfterBadClients) {
  {  // connect and hang up without a request
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(uint16_t(port));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)), 0);
    ::close(fd);
  }
  EXPECT_EQ(status_code(exchange_tcp(port, std::string(40000, 'A'))), 431);
  for (int i = 0; i < 20; i++) EXPECT_EQ(status_code(get(port, "/status")), 200);
}

TEST_F(HttpStatusTest, SilentClientsDoNotHoldUpOthers) {
  // Connections that never send a request (or send half of one): /metrics
  // still answers at once, and stop() does not wait for them.
  std::vector<int> idle;
  for (int i = 0; i < 5; i++) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(uint16_t(port));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)), 0);
    if (i % 2) ::send(fd, "GET /met", 8, MSG_NOSIGNAL);
    idle.push_back(fd);
  }
  for (int i = 0; i < 3; i++) {
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(status_code(get(port, "/metrics")), 200);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  }
  const auto t0 = std::chrono::steady_clock::now();
  srv->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  for (int fd : idle) ::close(fd);
}

TEST_F(HttpStatusTest, StopClosesTheListener) {
  srv->stop();
  EXPECT_EQ(get(port, "/status"), "connect failed");
  srv->stop();  // idempotent
}

TEST(HttpStatusUnix, ServesOverAUnixSocket) {
  char tmpl[] = "/tmp/cuzk-http-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  std::string path = dir + "/sub/status.sock";
  FakeService fake;
  {
    HttpStatusServer srv(fake, "unix://" + path);
    srv.start();
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)), 0);
    auto r = exchange_fd(fd, "GET /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(status_code(r), 200);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  std::filesystem::remove_all(dir);
}

TEST(HttpStatusBind, BadAddressThrows) {
  FakeService fake;
  HttpStatusServer a(fake, "127.0.0.1:0");
  a.start();
  HttpStatusServer b(fake, "127.0.0.1:" + std::to_string(a.port()));
  EXPECT_THROW(b.start(), std::runtime_error);
  HttpStatusServer c(fake, "no-port");
  EXPECT_THROW(c.start(), std::runtime_error);
}

TEST(RequestLine, Parse) {
  cuzk::server::HttpRequestLine r;
  ASSERT_TRUE(cuzk::server::parse_request_line("GET /status HTTP/1.1", r));
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.target, "/status");
  EXPECT_EQ(r.version, "HTTP/1.1");
  EXPECT_FALSE(cuzk::server::parse_request_line("GET /status", r));
  EXPECT_FALSE(cuzk::server::parse_request_line("GET  /status HTTP/1.1", r));
  EXPECT_FALSE(cuzk::server::parse_request_line("get /status HTTP/1.1", r));
  EXPECT_FALSE(cuzk::server::parse_request_line("GET /status FTP/1", r));
}

TEST(Address, Parse) {
  using cuzk::server::parse_address;
  auto u = parse_address("unix:///run/cuzk/cuzk.sock");
  EXPECT_TRUE(u.is_unix);
  EXPECT_EQ(u.path, "/run/cuzk/cuzk.sock");
  EXPECT_EQ(u.grpc_target(), "unix:/run/cuzk/cuzk.sock");
  EXPECT_EQ(parse_address("unix:rel.sock").path, "rel.sock");
  auto t = parse_address("http://127.0.0.1:9820");
  EXPECT_FALSE(t.is_unix);
  EXPECT_EQ(t.host, "127.0.0.1");
  EXPECT_EQ(t.port, 9820);
  EXPECT_EQ(parse_address("localhost:1/").grpc_target(), "localhost:1");
  EXPECT_EQ(parse_address(":9820").host, "0.0.0.0");
  auto v6 = parse_address("[::1]:50051");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.grpc_target(), "[::1]:50051");
  EXPECT_THROW(parse_address("host"), std::invalid_argument);
  EXPECT_THROW(parse_address("host:abc"), std::invalid_argument);
  EXPECT_THROW(parse_address("host:70000"), std::invalid_argument);
  EXPECT_THROW(parse_address("https://x:1"), std::invalid_argument);
  EXPECT_THROW(parse_address("unix://" + std::string(200, 'x')), std::invalid_argument);
}

}  // namespace
