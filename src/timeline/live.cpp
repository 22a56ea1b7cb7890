#include "timeline/live.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "timeline/event_names.hpp"
#include "timeline/intervals.hpp"
#include "timeline/parse.hpp"

namespace cuzk::timeline {
namespace {

struct OpenStart {
  uint32_t job = 0;
  int32_t partition = -1, worker = -1;
  const char* end_name = nullptr;
};

// The START events (synthesis, device, interlock) that no END has closed
// yet, newest first: closing them in that order keeps the nesting (the
// interlock taken after GPU_START is released before GPU_END).
std::vector<OpenStart> open_starts(const Log& log) {
  std::map<std::tuple<EventKind, uint32_t, int32_t>, std::pair<uint64_t, OpenStart>> open;
  auto key = [](EventKind k, const Event& e) { return std::make_tuple(k, e.job, e.partition); };
  for (const Event& e : log.events) {
    switch (e.kind) {
      case EventKind::kSynthStart:
        open[key(e.kind, e)] = {e.line, {e.job, e.partition, e.worker, events::kSynthEnd}};
        break;
      case EventKind::kGpuStart:
        open[key(e.kind, e)] = {e.line, {e.job, e.partition, e.worker, events::kGpuEnd}};
        break;
      case EventKind::kGpuLock:
        open[key(e.kind, e)] = {e.line, {e.job, e.partition, e.worker, events::kGpuUnlock}};
        break;
      case EventKind::kSynthEnd: open.erase(key(EventKind::kSynthStart, e)); break;
      case EventKind::kGpuEnd: open.erase(key(EventKind::kGpuStart, e)); break;
      case EventKind::kGpuUnlock: open.erase(key(EventKind::kGpuLock, e)); break;
      default: break;
    }
  }
  std::vector<std::pair<uint64_t, OpenStart>> by_line;
  for (auto& [k, v] : open) by_line.push_back(v);
  std::sort(by_line.begin(), by_line.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<OpenStart> out;
  for (auto& [line, o] : by_line) out.push_back(o);
  return out;
}

}  // namespace

const Run* LiveTimeline::current_run() const {
  const auto& runs = timeline.analysis.runs;
  if (runs.empty()) return nullptr;
  return runs.back().end >= now - busy_window_ms ? &runs.back() : nullptr;
}

LiveTimeline live_timeline(std::string_view lines, int64_t now_offset_ms, const LiveOptions& opts) {
  LiveTimeline lt;
  Log first = parse_text(lines);
  const auto open = open_starts(first);
  const int64_t last_offset = first.events.empty() ? 0 : first.events.back().offset_ms;
  const int64_t now_offset = std::max(now_offset_ms, last_offset);

  // The same lines with an END at `now` for each open START: the model then
  // pairs them like finished intervals (open=1 marks them for a reader).
  std::string text(lines);
  if (!text.empty() && text.back() != '\n') text += '\n';
  for (const OpenStart& o : open) {
    text += "TIMELINE," + std::to_string(now_offset) + ',' + o.end_name + ',' + first.jobs[o.job].id + ',';
    if (o.worker >= 0) text += "worker=" + std::to_string(o.worker) + ',';
    if (o.partition >= 0) text += "partition=" + std::to_string(o.partition) + ',';
    text += "open=1\n";
    if (o.end_name == events::kSynthEnd) lt.open_synthesis++;
    if (o.end_name == events::kGpuEnd) lt.open_device++;
  }
  lt.timeline = build_timeline(open.empty() ? std::move(first) : parse_text(text), opts.analyze);
  const Log& log = lt.timeline.log;
  lt.now = (log.epoch_base.empty() ? 0 : log.epoch_base.back()) + now_offset;

  // Busy time per device over [now - busy_window, now] (not before the clock's start).
  lt.busy_window_ms = opts.busy_window_ms;
  const Span window{std::max<int64_t>(lt.now - opts.busy_window_ms, 0), lt.now};
  const int wpd = std::max(1, opts.analyze.workers_per_device);
  std::map<int, std::vector<Span>> per_device;
  for (const DeviceWork& d : lt.timeline.model.device)
    per_device[d.worker / wpd].push_back(
        {std::max(d.busy_start, window.start), std::min(d.busy_end, window.end)});
  for (const Interval& l : lt.timeline.model.stray_locks)
    per_device[std::max(0, l.worker) / wpd].push_back(
        {std::max(l.start, window.start), std::min(l.end, window.end)});
  for (auto& [dev, spans] : per_device) {
    DeviceBusy b;
    b.device = dev;
    b.window_ms = window.len();
    b.busy_ms = total_len(merge_spans(std::move(spans)));
    lt.busy.push_back(b);
  }
  return lt;
}

}  // namespace cuzk::timeline
