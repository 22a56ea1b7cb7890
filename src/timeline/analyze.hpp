#pragma once
// Runs, device utilization, idle gaps, per-worker gaps, synthesis statistics,
// cross-job transitions and the bottleneck verdict (docs/TIMELINE.md gives the
// definitions and the rules).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "timeline/event.hpp"
#include "timeline/intervals.hpp"
#include "timeline/model.hpp"

namespace cuzk::timeline {

struct AnalyzeOptions {
  double run_gap_s = 30;       // device silence longer than this separates runs
  int64_t idle_gap_ms = 100;   // idle gaps longer than this are listed
  int workers_per_device = 2;  // worker w runs on device w / workers_per_device
  // Verdict rules.
  double device_bound_utilization = 0.95;
  double device_bound_tolerance = 0.05;       // |s_per_proof / serial - 1|
  double contention_rise = 0.10;              // device ms per partition above the baseline run
  double contention_concurrency_rise = 0.25;  // concurrency above the baseline run
  double starved_share = 0.5;                 // share of idle time with nothing waiting
};

struct IdleGap {
  int64_t start = 0, end = 0;  // continuous axis
  int64_t starved_ms = 0;      // part of the gap with no partition waiting
  int64_t ms() const { return end - start; }
};

struct IdleStats {
  int64_t threshold_ms = 0;
  size_t count = 0;
  int64_t total_ms = 0, largest_ms = 0;
  double avg_ms = 0;
  std::vector<IdleGap> gaps;  // the gaps above the threshold, in time order
};

struct WorkerStats {
  int worker = 0;
  size_t partitions = 0;
  int64_t busy_ms = 0;
  size_t gap_count = 0;  // GPU_END to the same worker's next GPU_START
  int64_t gap_total_ms = 0, gap_largest_ms = 0;
};

struct DeviceStats {
  int device = 0;
  double utilization = 0;
  int64_t busy_ms = 0;
};

struct Transition {
  uint32_t from_job = 0, to_job = 0;
  std::optional<int64_t> prev_second_last_end;  // continuous axis
  int64_t prev_last_end = 0, next_first_start = 0;
  int64_t delta_ms = 0;    // next first start - prev second-to-last end (or last end)
  int64_t overlap_ms = 0;  // prev last end - next first start, when positive
  int64_t gap_ms = 0;      // next first start - prev last end, when positive
};

struct SynthStats {
  size_t count = 0;
  double avg_ms = 0;
  int64_t min_ms = 0, max_ms = 0, total_ms = 0;
  double parallel_avg = 0;  // partitions in synthesis, time-averaged over the run
  int parallel_max = 0;
  std::optional<int64_t> lead_ms;  // first synthesis start to first device start
};

struct Verdict {
  std::string bottleneck = "undetermined";  // device | synthesis | contention | undetermined
  std::vector<std::string> evidence;
};

struct Run {
  int index = 0;  // 1-based
  int epoch = 0;
  int64_t start = 0, end = 0;        // continuous axis: first device start, last device end
  int64_t start_ms = 0, end_ms = 0;  // the same as logged offsets
  double wall_s = 0;
  size_t proofs = 0, partitions = 0;
  double throughput_proofs_per_min = 0, s_per_proof = 0;
  std::optional<double> steady_s_per_proof;  // spacing of consecutive jobs' last device ends
  double device_utilization = 0;
  std::string device_time_source;  // interlock | gpu_start_end | mixed
  double worker_overlap = 1;       // sum of device time / union of it
  int devices = 1;
  std::vector<DeviceStats> device_stats;
  double avg_device_ms_per_partition = 0;
  double serial_device_s_per_proof = 0;
  int64_t busy_ms = 0, idle_ms = 0, starved_ms = 0;  // over the whole wall time
  bool ready_known = false;                          // queue/synthesis events tell when work was available
  IdleStats idle;
  std::vector<WorkerStats> workers;
  std::vector<Transition> transitions;
  SynthStats synth;
  double concurrency = 0;  // = synth.parallel_avg; compared across runs
  Verdict verdict;
  std::vector<uint32_t> jobs;  // in order of first device start
  std::vector<Span> busy;      // merged device-busy spans
  std::vector<Span> waiting;   // merged spans with a partition waiting for the device
};

struct JobRow {
  uint32_t job = 0;
  int run = 0;                                                              // 1-based, 0: no device work
  size_t partitions = 0;                                                    // device intervals
  std::optional<int64_t> synth_start, synth_end, device_start, device_end;  // continuous axis
  int64_t device_busy_ms = 0;
  std::optional<int64_t> idle_gap_ms;  // before its device work; none for a run's first job
  bool complete = false;               // device work seen and no START left open
  bool cancelled = false;              // a CANCEL event under its id
  // Why the job was a cold start, from events under its id: srs_load,
  // pce_load, pce_extract; "gadgets" when it was synthesized without
  // pre-compiled constraints before the log's first partition through them
  // (empty: warm). pce_partitions: SYNTH_END pce=1.
  std::vector<std::string> cold_start;
  size_t pce_partitions = 0;
  std::optional<int64_t> synth_ms() const {
    if (synth_start && synth_end) return *synth_end - *synth_start;
    return std::nullopt;
  }
  std::optional<int64_t> device_ms() const {
    if (device_start && device_end) return *device_end - *device_start;
    return std::nullopt;
  }
};

struct JobSummary {
  size_t jobs = 0;  // with device work
  double avg_synth_ms = 0, avg_device_ms = 0, avg_idle_gap_ms = 0;
  int64_t wall_ms = 0;  // last device end - first synthesis (or device) start
  double throughput_proofs_per_min = 0, s_per_proof = 0;
  // Synthesis per partition (SYNTH_START..SYNTH_END), cold-start jobs apart.
  size_t cold_jobs = 0;
  std::optional<double> cold_synth_ms_per_partition, steady_synth_ms_per_partition;
};

struct Analysis {
  AnalyzeOptions options;
  std::vector<Run> runs;
  std::vector<JobRow> jobs;  // by first device start; jobs without device work last
  JobSummary job_summary;
  Warnings warnings;  // parser's and model's
};

Analysis analyze(const Log& log, const Model& model, const AnalyzeOptions& opts = {});

// Log, model and analysis in one piece, as the commands use them.
struct Timeline {
  Log log;
  Model model;
  Analysis analysis;
};
Timeline build_timeline(Log log, const AnalyzeOptions& opts = {});

// Verdict rules, applied to runs whose numbers are already filled in.
void assign_verdicts(std::vector<Run>& runs, const AnalyzeOptions& opts);

}  // namespace cuzk::timeline
