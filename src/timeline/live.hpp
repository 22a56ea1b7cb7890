#pragma once
// The timeline of a daemon that is still running: its recent TIMELINE lines
// (the status listener keeps them in memory), read like a finished log, with
// the intervals still open (a partition in synthesis or on a device right
// now) closed at "now" so that the picture and the utilization include them.
// The status listener's dashboard (GET /, /live) and its /metrics read it.
#include <cstdint>
#include <string_view>
#include <vector>

#include "timeline/analyze.hpp"

namespace cuzk::timeline {

struct LiveOptions {
  AnalyzeOptions analyze;
  int64_t busy_window_ms = 60000;  // device busy fraction over the last minute
};

// One device's busy time (interlock, else GPU_START..GPU_END) over the busy window.
struct DeviceBusy {
  int device = 0;  // worker / workers_per_device
  int64_t busy_ms = 0, window_ms = 0;
  double fraction() const { return window_ms > 0 ? double(busy_ms) / double(window_ms) : 0.0; }
};

struct LiveTimeline {
  Timeline timeline;
  int64_t now = 0;  // continuous axis
  int64_t busy_window_ms = 0;
  size_t open_synthesis = 0, open_device = 0;  // intervals closed at `now`
  std::vector<DeviceBusy> busy;                // devices seen in the lines, by device
  // The last run, when its device work reaches into the busy window: what
  // the daemon is doing now (nullptr: idle for longer than that, or no work yet).
  const Run* current_run() const;
};

// `lines`: TIMELINE lines, oldest first (other lines are skipped, as in a
// log). `now_offset_ms`: the daemon's TIMELINE clock now.
LiveTimeline live_timeline(std::string_view lines, int64_t now_offset_ms, const LiveOptions& opts = {});

}  // namespace cuzk::timeline
