#include "server/dashboard.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "timeline/live.hpp"
#include "timeline/report.hpp"

namespace cuzk::server {
namespace {

// The page may load only what the daemon serves, and fetch only from it.
// Inline styles: the waterfall SVG carries its own <style> element.
constexpr const char* kPageHeaders =
    "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors "
    "'none'\r\n"
    "X-Content-Type-Options: nosniff\r\n";

constexpr int64_t kMinWindowS = 10, kMaxWindowS = 900;
constexpr int kMinWidth = 640, kMaxWidth = 3840;

int64_t int_param(std::string_view query, std::string_view key, int64_t fallback) {
  const std::string v = query_param(query, key);
  int64_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && p == v.data() + v.size() && !v.empty() ? out : fallback;
}

// Timeline device d is the engine's d-th device (worker ids are d·k + i).
uint32_t device_ordinal(const engine::StatusSnapshot& snap, int d) {
  return d >= 0 && size_t(d) < snap.devices.size() ? snap.devices[size_t(d)].ordinal
                                                   : uint32_t(std::max(d, 0));
}

timeline::LiveTimeline analyze(const engine::StatusSnapshot& snap, const TimelineRing& ring) {
  timeline::LiveOptions o;
  o.analyze.workers_per_device =
      snap.devices.empty() ? 1 : int(std::max<uint32_t>(1, snap.devices[0].workers));
  const int64_t now = ring.now_ms();
  return timeline::live_timeline(ring.lines_since(INT64_MIN), now, o);
}

std::string window_title(int64_t window_s) {
  if (window_s % 60 == 0) return "last " + std::to_string(window_s / 60) + " min";
  return "last " + std::to_string(window_s) + " s";
}

}  // namespace

std::string query_param(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const size_t eq = pair.find('=');
    if (pair.substr(0, eq) == key)
      return eq == std::string_view::npos ? "" : std::string(pair.substr(eq + 1));
  }
  return "";
}

bool Dashboard::serves(std::string_view path) {
  return path == "/" || path == "/live" || path == "/timeline" || dashboard_asset(path) != nullptr;
}

std::optional<HttpReply> Dashboard::get(std::string_view path, std::string_view query) const {
  if (path == "/live" || path == "/timeline") {
    if (!ring_) return HttpReply{404, "text/plain", "no TIMELINE buffer on this listener\n", {}};
    if (path == "/timeline")
      return HttpReply{
          200, "text/plain; charset=utf-8", ring_->lines_since(int_param(query, "since", INT64_MIN)), {}};
    const int64_t window = std::clamp<int64_t>(int_param(query, "window", 300), kMinWindowS, kMaxWindowS);
    const int width = int(std::clamp<int64_t>(int_param(query, "width", 1400), kMinWidth, kMaxWidth));
    return HttpReply{200, "application/json", live_json(window, width), {}};
  }
  const DashboardAsset* a = dashboard_asset(path == "/" ? "/index.html" : path);
  if (!a) return std::nullopt;
  return HttpReply{200, std::string(a->content_type), std::string(a->body), kPageHeaders};
}

std::string Dashboard::live_json(int64_t window_s, int width_px) const {
  using nlohmann::json;
  const engine::StatusSnapshot snap = service_.status();
  const timeline::LiveTimeline lt = analyze(snap, *ring_);
  json j;
  j["now_ms"] = lt.timeline.log.offset_at(lt.now);
  j["window_s"] = window_s;
  j["events"] = ring_->size();
  j["dropped"] = ring_->dropped();
  j["open"] = {{"synthesis", lt.open_synthesis}, {"device", lt.open_device}};
  json devices = json::array();
  for (const auto& b : lt.busy)
    devices.push_back({{"device", device_ordinal(snap, b.device)},
                       {"busy_fraction", b.fraction()},
                       {"busy_ms", b.busy_ms},
                       {"window_s", double(b.window_ms) / 1000.0}});
  j["devices"] = devices;
  if (const timeline::Run* r = lt.current_run()) {
    j["verdict"] = {{"run", r->index},
                    {"bottleneck", r->verdict.bottleneck},
                    {"evidence", r->verdict.evidence},
                    {"device_utilization", r->device_utilization},
                    {"proofs", r->proofs},
                    {"partitions", r->partitions},
                    {"s_per_proof", r->s_per_proof},
                    {"wall_s", r->wall_s}};
  } else {
    j["verdict"] = nullptr;
  }
  timeline::SvgOptions so;
  so.width = width_px;
  so.window_end = lt.now;
  so.window_start = lt.now - window_s * 1000;
  so.ticks_before_end = true;
  so.title = window_title(window_s);
  j["svg"] = timeline::render_svg(lt.timeline, so);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Dashboard::live_metrics() const {
  if (!ring_) return {};
  const engine::StatusSnapshot snap = service_.status();
  const timeline::LiveTimeline lt = analyze(snap, *ring_);
  std::map<uint32_t, double> busy;
  for (const auto& d : snap.devices) busy[d.ordinal] = 0;
  for (const auto& b : lt.busy) busy[device_ordinal(snap, b.device)] = b.fraction();
  std::ostringstream o;
  o << "# HELP cuzk_device_busy_ratio Fraction of the last " << lt.busy_window_ms / 1000
    << " s each device was busy (interlock held), from the TIMELINE events.\n"
       "# TYPE cuzk_device_busy_ratio gauge\n";
  for (const auto& [dev, f] : busy) o << "cuzk_device_busy_ratio{device=\"" << dev << "\"} " << f << "\n";
  o << "# HELP cuzk_timeline_events_buffered TIMELINE lines kept for the live views.\n"
       "# TYPE cuzk_timeline_events_buffered gauge\n"
       "cuzk_timeline_events_buffered "
    << ring_->size()
    << "\n# HELP cuzk_timeline_events_dropped_total TIMELINE lines dropped from the live buffer (age or "
       "count).\n"
       "# TYPE cuzk_timeline_events_dropped_total counter\n"
       "cuzk_timeline_events_dropped_total "
    << ring_->dropped() << "\n";
  return o.str();
}

}  // namespace cuzk::server
