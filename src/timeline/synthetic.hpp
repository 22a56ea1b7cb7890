#pragma once
// A TIMELINE log of a simulated per-partition pipeline: synthesis slots feed a
// queue, device workers take partitions, share one device through an
// interlock, and finish with a CPU tail. For benchmarks (a million lines on
// demand) and for the pictures in docs/TIMELINE.md; tests build their logs by
// hand instead, so every number in them is checkable.
#include <cstdint>
#include <string>

namespace cuzk::timeline {

struct SyntheticOptions {
  uint64_t target_lines = 0;    // > 0: add runs until the log has exactly this many lines
  int runs = 1;                 // when target_lines == 0
  int jobs = 5;                 // per run
  int partitions = 10;          // per job
  int workers = 2;              // device workers, all on device 0
  int synth_slots = 10;         // partitions synthesized at once
  int64_t synth_ms = 30000;     // per partition, +-10%
  int64_t device_ms = 3750;     // interlock held per partition, +-3%
  int64_t tail_ms = 600;        // CPU work after the interlock, +-20%
  int64_t job_interval_ms = 0;  // spacing of job arrivals within a run
  int64_t run_pause_ms = 60000;
  double contention = 0;  // device time grows by this fraction per partition in synthesis
  bool locks = true;      // emit GPU_LOCK/GPU_UNLOCK
  double noise = 0.25;    // ordinary daemon log lines per event
  uint64_t seed = 1;
};

std::string generate_synthetic(const SyntheticOptions& opts);

}  // namespace cuzk::timeline
