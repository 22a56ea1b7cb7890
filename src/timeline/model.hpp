#pragma once
// Events paired into intervals: synthesis (SYNTH_START..SYNTH_END) and device
// work (GPU_START..GPU_END, with the GPU_LOCK..GPU_UNLOCK part inside it when
// the daemon logs its interlock). Pairing is by (job, partition); the
// whole-job form is partition -1.
#include <cstdint>
#include <vector>

#include "timeline/event.hpp"

namespace cuzk::timeline {

struct Interval {
  int64_t start = 0, end = 0;  // continuous-axis ms
  uint32_t job = 0;
  int32_t partition = -1;
  int32_t worker = -1;
  uint64_t line = 0;  // line of the END event
};

struct DeviceWork : Interval {
  // Part of [start, end] during which the device was held: the interlock
  // interval when GPU_LOCK/GPU_UNLOCK were logged, else [start, end].
  int64_t busy_start = 0, busy_end = 0;
  bool locked = false;
  // When the partition became available to the device: GPU_QUEUE (or
  // CHAN_SEND), else SYNTH_END, else GPU_PICKUP; `ready_known` is false when
  // none was logged (then ready = start).
  int64_t ready = 0;
  bool ready_known = false;
  int64_t busy_ms() const { return busy_end - busy_start; }
};

struct Model {
  std::vector<Interval> synth;         // sorted by start
  std::vector<DeviceWork> device;      // sorted by start
  std::vector<Interval> stray_locks;   // interlock intervals outside any device interval
  std::vector<uint32_t> open_per_job;  // STARTs left without an END, per job
  Warnings warnings;
};

Model build_model(const Log& log);

}  // namespace cuzk::timeline
