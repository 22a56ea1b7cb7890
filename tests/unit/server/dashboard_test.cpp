// The status listener's dashboard (server/dashboard.hpp) and the TIMELINE
// buffer behind it (server/timeline_ring.hpp), over a real socket.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/dashboard.hpp"
#include "server/http_status.hpp"
#include "server/timeline_ring.hpp"
#include "unit/server/fake_service.hpp"
#include "unit/server/http_get.hpp"

namespace {

using cuzk::server::Dashboard;
using cuzk::server::HttpStatusServer;
using cuzk::server::TimelineRing;
using cuzk::test::FakeService;
using namespace cuzk::test::http;
using namespace std::chrono_literals;

std::string line(int64_t t, const std::string& ev, const std::string& job, const std::string& detail) {
  return "TIMELINE," + std::to_string(t) + "," + ev + "," + job + "," + detail;
}

// The fake service's one device (ordinal 0, workers 0 and 1): worker 0 holds
// the interlock 20..35 s, worker 1 50..60 s and again from 75 s, still held
// at "now" = 80 s. Busy over the last minute [20 s, 80 s]: 15 + 10 + 5 s.
void fill(TimelineRing& ring) {
  ring.add(line(19000, "SYNTH_START", "job-a", "partition=0"));
  ring.add(line(19900, "SYNTH_END", "job-a", "partition=0,synth_ms=900"));
  ring.add(line(19900, "GPU_QUEUE", "job-a", "partition=0"));
  ring.add(line(20000, "GPU_START", "job-a", "worker=0,partition=0"));
  ring.add(line(20000, "GPU_LOCK", "job-a", "worker=0,partition=0"));
  ring.add(line(35000, "GPU_UNLOCK", "job-a", "worker=0,partition=0"));
  ring.add(line(36000, "GPU_END", "job-a", "worker=0,partition=0,gpu_ms=16000"));
  ring.add(line(50000, "GPU_START", "job-b", "worker=1,partition=0"));
  ring.add(line(50000, "GPU_LOCK", "job-b", "worker=1,partition=0"));
  ring.add(line(60000, "GPU_UNLOCK", "job-b", "worker=1,partition=0"));
  ring.add(line(60500, "GPU_END", "job-b", "worker=1,partition=0,gpu_ms=10500"));
  ring.add(line(75000, "GPU_START", "job-c", "worker=1,partition=0"));
  ring.add(line(75000, "GPU_LOCK", "job-c", "worker=1,partition=0"));
}

class DashboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fill(ring);
    ring.set_clock([] { return int64_t(80000); });
    srv = std::make_unique<HttpStatusServer>(fake, "127.0.0.1:0", &ring);
    srv->start();
    port = srv->port();
    ASSERT_GT(port, 0);
  }
  FakeService fake;
  TimelineRing ring;
  std::unique_ptr<HttpStatusServer> srv;
  int port = 0;
};

TEST_F(DashboardTest, PageAndAssetsComeFromTheBinary) {
  auto r = get(port, "/");
  ASSERT_EQ(status_code(r), 200) << r;
  EXPECT_EQ(header(r, "Content-Type"), "text/html; charset=utf-8");
  // Only the daemon's own script and style; no other origin.
  const std::string csp = header(r, "Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos);
  EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos);
  const std::string page = body(r);
  EXPECT_NE(page.find("<script src=\"/dashboard.js\""), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  // Served byte for byte as compiled in.
  for (const char* path : {"/dashboard.js", "/dashboard.css", "/index.html"}) {
    auto a = get(port, path);
    ASSERT_EQ(status_code(a), 200) << path;
    const auto* asset = cuzk::server::dashboard_asset(path);
    ASSERT_NE(asset, nullptr) << path;
    EXPECT_EQ(body(a), std::string(asset->body)) << path;
    EXPECT_EQ(header(a, "X-Content-Type-Options"), "nosniff");
  }
  EXPECT_EQ(header(get(port, "/dashboard.js"), "Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(body(get(port, "/dashboard.js")).find("fetchJson('/status')"), std::string::npos);
  EXPECT_EQ(status_code(get(port, "/dashboard.jsx")), 404);
  EXPECT_EQ(status_code(exchange_tcp(port, "POST /live HTTP/1.1\r\nContent-Length: 0\r\n\r\n")), 405);
  auto head = exchange_tcp(port, "HEAD / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(status_code(head), 200);
  EXPECT_EQ(body(head), "");
}

TEST_F(DashboardTest, LiveJsonCarriesBusyFractionVerdictAndWaterfall) {
  auto r = get(port, "/live?window=120&width=900");
  ASSERT_EQ(status_code(r), 200) << r;
  const auto j = nlohmann::json::parse(body(r));
  EXPECT_EQ(j["now_ms"], 80000);
  EXPECT_EQ(j["window_s"], 120);
  EXPECT_EQ(j["open"]["device"], 1);
  EXPECT_EQ(j["open"]["synthesis"], 0);
  ASSERT_EQ(j["devices"].size(), 1u);
  EXPECT_EQ(j["devices"][0]["device"], 0);
  EXPECT_EQ(j["devices"][0]["busy_ms"], 30000);
  EXPECT_DOUBLE_EQ(j["devices"][0]["busy_fraction"].get<double>(), 0.5);
  // job-c is still on the device: the run goes on up to now.
  ASSERT_TRUE(j["verdict"].is_object());
  EXPECT_EQ(j["verdict"]["proofs"], 3);  // one run: no device silence longer than 30 s
  const std::string svg = j["svg"];
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("width='900'"), std::string::npos);
  EXPECT_NE(svg.find(">last 2 min</text>"), std::string::npos);
  EXPECT_NE(svg.find(">now</text>"), std::string::npos);
  EXPECT_NE(svg.find("job job-c partition 0"), std::string::npos);
  // Out-of-range parameters are clamped, not refused.
  const auto small = nlohmann::json::parse(body(get(port, "/live?window=1&width=5")));
  EXPECT_EQ(small["window_s"], 10);
  EXPECT_NE(small["svg"].get<std::string>().find("width='640'"), std::string::npos);
}

TEST_F(DashboardTest, TimelineServesTheBufferedLines) {
  auto all = body(get(port, "/timeline"));
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 13);
  EXPECT_EQ(all.rfind(line(19000, "SYNTH_START", "job-a", "partition=0") + "\n", 0), 0u);
  auto since = body(get(port, "/timeline?since=60000"));
  EXPECT_EQ(since, line(60000, "GPU_UNLOCK", "job-b", "worker=1,partition=0") + "\n" +
                       line(60500, "GPU_END", "job-b", "worker=1,partition=0,gpu_ms=10500") + "\n" +
                       line(75000, "GPU_START", "job-c", "worker=1,partition=0") + "\n" +
                       line(75000, "GPU_LOCK", "job-c", "worker=1,partition=0") + "\n");
}

TEST_F(DashboardTest, MetricsGainTheDeviceBusyRatio) {
  auto m = body(get(port, "/metrics"));
  EXPECT_NE(m.find("cuzk_proofs_completed_total 10\n"), std::string::npos);  // the service's own
  EXPECT_NE(m.find("# TYPE cuzk_device_busy_ratio gauge\n"), std::string::npos);
  EXPECT_NE(m.find("cuzk_device_busy_ratio{device=\"0\"} 0.5\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_timeline_events_buffered 13\n"), std::string::npos);
  EXPECT_NE(m.find("cuzk_timeline_events_dropped_total 0\n"), std::string::npos);
}

TEST(DashboardNoRing, LiveViewsAreAbsentAndMetricsUnchanged) {
  FakeService fake;
  HttpStatusServer srv(fake, "127.0.0.1:0");
  srv.start();
  EXPECT_EQ(status_code(get(srv.port(), "/")), 200);
  EXPECT_EQ(status_code(get(srv.port(), "/live")), 404);
  EXPECT_EQ(status_code(get(srv.port(), "/timeline")), 404);
  EXPECT_EQ(body(get(srv.port(), "/metrics")), fake.metrics_text());
}

TEST(TimelineRing, KeepsTheNewestLinesWithinCountAndAge) {
  TimelineRing ring(4, 10s);
  ring.add("not a timeline line");
  ring.add("TIMELINE,x,SYNTH_START,j,partition=0");
  EXPECT_EQ(ring.size(), 0u);
  for (int i = 0; i < 6; i++) ring.add(line(1000 * i, "SYNTH_START", "j", "partition=" + std::to_string(i)));
  EXPECT_EQ(ring.size(), 4u);
  EXPECT_EQ(ring.dropped(), 2u);
  EXPECT_EQ(ring.now_ms(), 5000);                          // no clock: the newest line
  ring.add(line(20000, "SYNTH_END", "j", "partition=5"));  // everything before 10 s goes
  EXPECT_EQ(ring.size(), 1u);
  EXPECT_EQ(ring.lines_since(0), line(20000, "SYNTH_END", "j", "partition=5") + "\n");
  ring.set_clock([] { return int64_t(123456); });
  EXPECT_EQ(ring.now_ms(), 123456);
}

TEST(QueryParam, FindsKeys) {
  EXPECT_EQ(cuzk::server::query_param("window=60&width=1200", "width"), "1200");
  EXPECT_EQ(cuzk::server::query_param("window=60&width=1200", "window"), "60");
  EXPECT_EQ(cuzk::server::query_param("a&b=", "b"), "");
  EXPECT_EQ(cuzk::server::query_param("", "a"), "");
  EXPECT_EQ(cuzk::server::query_param("aa=1", "a"), "");
}

}  // namespace
