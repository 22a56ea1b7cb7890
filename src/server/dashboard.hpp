#pragma once
// What the status listener serves besides /status and /metrics
// (docs/PROTOCOL.md §6):
//   GET /                the live page (src/server/dashboard/index.html);
//   GET /dashboard.js, /dashboard.css   its script and style, compiled into
//                        the binary (cmake/embed_assets.cmake): nothing is
//                        loaded from elsewhere, the page works offline
//   GET /live?window=S&width=PX   JSON for the page: the rolling waterfall of
//                        the last S seconds (an SVG drawn by timeline::render_svg,
//                        the report's renderer), each device's busy fraction
//                        over the last minute and the current verdict
//   GET /timeline?since=MS       the buffered TIMELINE lines with offset >= MS
//                        (text; `cuzk-bench timeline` reads a saved copy)
// and the gauges /metrics gains from the same lines (live_metrics).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/service.hpp"
#include "server/timeline_ring.hpp"

namespace cuzk::server {

// A file of src/server/dashboard/ as compiled in (generated dashboard_assets.cpp).
struct DashboardAsset {
  std::string_view path;  // "/index.html", "/dashboard.js", ...
  std::string_view content_type;
  std::string_view body;
};
const DashboardAsset* dashboard_asset(std::string_view path);

struct HttpReply {
  int code = 200;
  std::string content_type;
  std::string body;
  std::string extra_headers;  // "Name: value\r\n" lines
};

class Dashboard {
 public:
  // `ring` may be null (no TIMELINE buffer): /live and /timeline answer 404
  // and /metrics gains nothing.
  Dashboard(const engine::ProvingService& service, const TimelineRing* ring)
      : service_(service), ring_(ring) {}

  // Whether `path` is one of the dashboard's.
  static bool serves(std::string_view path);
  // The reply to GET `path` (query string apart), or nullopt when the path is
  // not the dashboard's.
  std::optional<HttpReply> get(std::string_view path, std::string_view query) const;

  // JSON of GET /live. window_s: the picture's span; width_px: its width.
  std::string live_json(int64_t window_s, int width_px) const;
  // Prometheus text appended to /metrics: cuzk_device_busy_ratio{device}
  // (every device of the status snapshot, 0 without work in the last minute)
  // and the buffer's cuzk_timeline_events_buffered / _dropped_total.
  std::string live_metrics() const;

 private:
  const engine::ProvingService& service_;
  const TimelineRing* ring_;
};

// The value of `key` in a query string "a=1&b=2" ("" when absent).
std::string query_param(std::string_view query, std::string_view key);

}  // namespace cuzk::server
