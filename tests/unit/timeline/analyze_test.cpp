// Analysis of hand-made logs whose every number can be worked out on paper.
#include <gtest/gtest.h>

#include "timeline/analyze.hpp"
#include "timeline/report.hpp"
#include "unit/timeline/log_builder.hpp"

namespace cuzk::timeline {
namespace {

using testing::LogBuilder;

std::vector<int64_t> gap_list(const timeline::Run& r) {
  std::vector<int64_t> v;
  for (const auto& g : r.idle.gaps) v.push_back(g.ms());
  return v;
}

// Two workers on one device, overlapping:
//   w0 |A0 10000-11000|      |A1 11500-12500|
//   w1       |B0 10800-11800|                    |B1 13000-13500|
// union = [10000,12500] + [13000,13500] = 3000 ms of a 3500 ms wall.
TEST(TimelineAnalyze, OverlappingWorkers) {
  LogBuilder b;
  b.device("job-a", 0, 0, 10000, 11000)
      .device("job-b", 0, 1, 10800, 11800)
      .device("job-a", 1, 0, 11500, 12500)
      .device("job-b", 1, 1, 13000, 13500);
  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  const timeline::Run& r = t.analysis.runs[0];
  EXPECT_EQ(r.start_ms, 10000);
  EXPECT_EQ(r.end_ms, 13500);
  EXPECT_DOUBLE_EQ(r.wall_s, 3.5);
  EXPECT_EQ(r.proofs, 2u);
  EXPECT_EQ(r.partitions, 4u);
  EXPECT_EQ(r.busy_ms, 3000);
  EXPECT_DOUBLE_EQ(r.device_utilization, 3000.0 / 3500.0);
  EXPECT_EQ(r.device_time_source, "gpu_start_end");
  EXPECT_DOUBLE_EQ(r.worker_overlap, 3500.0 / 3000.0);
  EXPECT_EQ(r.devices, 1);
  EXPECT_DOUBLE_EQ(r.avg_device_ms_per_partition, 875.0);
  EXPECT_DOUBLE_EQ(r.serial_device_s_per_proof, 1.75);
  EXPECT_DOUBLE_EQ(r.s_per_proof, 1.75);
  EXPECT_DOUBLE_EQ(r.throughput_proofs_per_min, 2 * 60000.0 / 3500.0);
  ASSERT_TRUE(r.steady_s_per_proof.has_value());
  EXPECT_DOUBLE_EQ(*r.steady_s_per_proof, 1.0);  // last ends 12500 and 13500
  EXPECT_EQ(gap_list(r), (std::vector<int64_t>{500}));
  EXPECT_EQ(r.idle.count, 1u);
  EXPECT_EQ(r.idle.largest_ms, 500);

  ASSERT_EQ(r.workers.size(), 2u);
  EXPECT_EQ(r.workers[0].worker, 0);
  EXPECT_EQ(r.workers[0].partitions, 2u);
  EXPECT_EQ(r.workers[0].busy_ms, 2000);
  EXPECT_EQ(r.workers[0].gap_count, 1u);
  EXPECT_EQ(r.workers[0].gap_total_ms, 500);  // 11000 -> 11500
  EXPECT_EQ(r.workers[1].busy_ms, 1500);
  EXPECT_EQ(r.workers[1].gap_total_ms, 1200);  // 11800 -> 13000
  EXPECT_EQ(r.workers[1].gap_largest_ms, 1200);

  ASSERT_EQ(r.transitions.size(), 1u);
  const Transition& x = r.transitions[0];
  EXPECT_EQ(t.log.jobs[x.from_job].id, "job-a");
  EXPECT_EQ(t.log.jobs[x.to_job].id, "job-b");
  ASSERT_TRUE(x.prev_second_last_end.has_value());
  EXPECT_EQ(*x.prev_second_last_end, 11000);
  EXPECT_EQ(x.prev_last_end, 12500);
  EXPECT_EQ(x.next_first_start, 10800);
  EXPECT_EQ(x.delta_ms, -200);
  EXPECT_EQ(x.overlap_ms, 1700);
  EXPECT_EQ(x.gap_ms, 0);

  // No GPU_QUEUE or SYNTH_END: an idle device cannot be blamed on synthesis.
  EXPECT_FALSE(r.ready_known);
  EXPECT_EQ(r.verdict.bottleneck, "undetermined");
  ASSERT_FALSE(r.verdict.evidence.empty());
  EXPECT_NE(r.verdict.evidence[0].find("no GPU_QUEUE/SYNTH_END"), std::string::npos);
}

// One worker, gaps of 50, 100, 101 and 2500 ms: "longer than the threshold"
// keeps 101 and 2500 at 100 ms, and all four at 49 ms.
TEST(TimelineAnalyze, ExactGapListsAndThreshold) {
  LogBuilder b;
  b.device("j", 0, 0, 5000, 6000)
      .device("j", 1, 0, 6050, 7050)
      .device("j", 2, 0, 7150, 8150)
      .device("j", 3, 0, 8251, 9251)
      .device("j", 4, 0, 11751, 12751);
  auto t = b.build();
  const timeline::Run& r = t.analysis.runs.at(0);
  EXPECT_EQ(r.idle.threshold_ms, 100);
  EXPECT_EQ(gap_list(r), (std::vector<int64_t>{101, 2500}));
  EXPECT_EQ(r.idle.count, 2u);
  EXPECT_EQ(r.idle.total_ms, 2601);
  EXPECT_EQ(r.idle.largest_ms, 2500);
  EXPECT_DOUBLE_EQ(r.idle.avg_ms, 1300.5);
  EXPECT_EQ(r.idle_ms, 2751);
  EXPECT_EQ(t.log.offset_at(r.idle.gaps[1].start), 9251);
  EXPECT_EQ(t.log.offset_at(r.idle.gaps[1].end), 11751);
  EXPECT_DOUBLE_EQ(r.device_utilization, 5000.0 / 7751.0);
  EXPECT_EQ(r.workers.at(0).gap_count, 4u);
  EXPECT_EQ(r.workers.at(0).gap_total_ms, 2751);
  EXPECT_EQ(r.workers.at(0).gap_largest_ms, 2500);
  EXPECT_EQ(r.proofs, 1u);
  EXPECT_TRUE(r.transitions.empty());
  EXPECT_FALSE(r.steady_s_per_proof.has_value());

  AnalyzeOptions o;
  o.idle_gap_ms = 49;
  auto t2 = b.build(o);
  EXPECT_EQ(gap_list(t2.analysis.runs.at(0)), (std::vector<int64_t>{50, 100, 101, 2500}));
  EXPECT_EQ(t2.analysis.runs.at(0).idle.total_ms, 2751);
}

// Runs split only when the device is silent for longer than --run-gap-s.
TEST(TimelineAnalyze, RunSplitAtTheThresholdBoundary) {
  auto runs = [](int64_t second_start, double gap_s = 30) {
    LogBuilder b;
    b.device("a", 0, 0, 1000, 2000).device("b", 0, 0, second_start, second_start + 1000);
    AnalyzeOptions o;
    o.run_gap_s = gap_s;
    return b.build(o).analysis.runs.size();
  };
  EXPECT_EQ(runs(32000), 1u);  // silent exactly 30 000 ms
  EXPECT_EQ(runs(32001), 2u);  // 30 001 ms
  EXPECT_EQ(runs(2500, 0.5), 1u);
  EXPECT_EQ(runs(2501, 0.5), 2u);

  // Silence is measured from the latest device end of any worker.
  LogBuilder b;
  b.device("a", 0, 0, 0, 10000).device("a", 1, 1, 1000, 2000).device("b", 0, 1, 40000, 41000);
  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  EXPECT_EQ(t.analysis.runs[0].proofs, 2u);

  LogBuilder c;
  c.device("a", 0, 0, 0, 10000).device("a", 1, 1, 1000, 2000).device("b", 0, 1, 40001, 41000);
  auto t2 = c.build();
  ASSERT_EQ(t2.analysis.runs.size(), 2u);
  EXPECT_EQ(t2.analysis.runs[1].index, 2);
  EXPECT_EQ(t2.analysis.runs[1].start_ms, 40001);
  EXPECT_EQ(t2.analysis.runs[0].proofs, 1u);
  EXPECT_EQ(t2.analysis.jobs.at(1).run, 2);
  EXPECT_FALSE(t2.analysis.jobs.at(1).idle_gap_ms.has_value());  // first job of its run
}

// Whole-job pipeline where synthesis (10 s) is slower than the device (4 s)
// and serialized: the device idles 6 s before each job with nothing queued.
TEST(TimelineAnalyze, SynthesisBound) {
  LogBuilder b;
  for (int i = 0; i < 4; i++) {
    std::string id = "job-" + std::to_string(i);
    b.synth(id, -1, 10000 * i, 10000 * (i + 1)).device(id, -1, 0, 10000 * (i + 1), 10000 * (i + 1) + 4000);
  }
  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  const timeline::Run& r = t.analysis.runs[0];
  EXPECT_EQ(r.start_ms, 10000);
  EXPECT_EQ(r.end_ms, 44000);
  EXPECT_EQ(r.proofs, 4u);
  EXPECT_EQ(r.partitions, 4u);
  EXPECT_DOUBLE_EQ(r.device_utilization, 16000.0 / 34000.0);
  EXPECT_EQ(gap_list(r), (std::vector<int64_t>{6000, 6000, 6000}));
  EXPECT_EQ(r.idle_ms, 18000);
  EXPECT_EQ(r.starved_ms, 18000);
  EXPECT_TRUE(r.ready_known);
  EXPECT_DOUBLE_EQ(r.s_per_proof, 8.5);
  EXPECT_DOUBLE_EQ(r.serial_device_s_per_proof, 4.0);
  EXPECT_EQ(r.synth.count, 4u);
  EXPECT_DOUBLE_EQ(r.synth.avg_ms, 10000.0);
  EXPECT_DOUBLE_EQ(r.synth.parallel_avg, 30000.0 / 34000.0);
  EXPECT_EQ(r.synth.parallel_max, 1);
  ASSERT_TRUE(r.synth.lead_ms.has_value());
  EXPECT_EQ(*r.synth.lead_ms, 10000);
  EXPECT_EQ(r.verdict.bottleneck, "synthesis");
  EXPECT_NE(r.verdict.evidence[1].find("for 18.0 s of it (100%) no synthesized partition was waiting"),
            std::string::npos);

  const auto& jobs = t.analysis.jobs;
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_FALSE(jobs[0].idle_gap_ms.has_value());
  EXPECT_EQ(jobs[1].idle_gap_ms.value(), 6000);
  EXPECT_EQ(jobs[3].synth_ms().value(), 10000);
  EXPECT_EQ(jobs[3].device_ms().value(), 4000);
  EXPECT_TRUE(jobs[3].complete);
  const JobSummary& s = t.analysis.job_summary;
  EXPECT_EQ(s.jobs, 4u);
  EXPECT_DOUBLE_EQ(s.avg_synth_ms, 10000.0);
  EXPECT_DOUBLE_EQ(s.avg_device_ms, 4000.0);
  EXPECT_DOUBLE_EQ(s.avg_idle_gap_ms, 6000.0);
  EXPECT_EQ(s.wall_ms, 44000);
  EXPECT_DOUBLE_EQ(s.throughput_proofs_per_min, 4 * 60000.0 / 44000.0);
}

// Two workers, interlock held back to back for 1 s per partition, a 200 ms
// CPU tail after each: the device is the bottleneck.
TEST(TimelineAnalyze, DeviceBound) {
  LogBuilder b;
  for (int k = 0; k < 8; k++) {
    std::string job = k < 4 ? "job-a" : "job-b";
    int64_t lock = 10000 + 1000 * k;
    int64_t start = k == 0 ? 9998 : k == 1 ? 10005 : lock - 700;
    b.queue(job, k % 4, 9000).device_locked(job, k % 4, k % 2, start, lock, lock + 1000, lock + 1200);
  }
  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  const timeline::Run& r = t.analysis.runs[0];
  EXPECT_EQ(r.device_time_source, "interlock");
  EXPECT_EQ(r.start_ms, 9998);
  EXPECT_EQ(r.end_ms, 18200);
  EXPECT_EQ(r.busy_ms, 8000);
  EXPECT_DOUBLE_EQ(r.device_utilization, 8000.0 / 8202.0);
  EXPECT_DOUBLE_EQ(r.worker_overlap, 1.0);
  EXPECT_DOUBLE_EQ(r.avg_device_ms_per_partition, 1000.0);
  EXPECT_DOUBLE_EQ(r.serial_device_s_per_proof, 4.0);
  EXPECT_DOUBLE_EQ(r.s_per_proof, 4.101);
  EXPECT_EQ(gap_list(r), (std::vector<int64_t>{200}));  // the last CPU tail
  EXPECT_EQ(r.idle_ms, 202);
  EXPECT_EQ(r.starved_ms, 200);  // the first 2 ms had work waiting
  EXPECT_EQ(r.verdict.bottleneck, "device");
  EXPECT_NE(r.verdict.evidence[0].find("device utilization 97.5%"), std::string::npos);
  EXPECT_NE(r.verdict.evidence[1].find("4.10 s/proof measured vs 4.00 s serial"), std::string::npos);
  // Worker gaps: end of its partition to its next start.
  ASSERT_EQ(r.workers.size(), 2u);
  EXPECT_EQ(r.workers[0].partitions, 4u);
  EXPECT_EQ(r.workers[0].busy_ms, 4000);
  EXPECT_EQ(r.workers[0].gap_total_ms, 3 * 100);  // ends lock+1200, next starts lock+2000-700
}

// Device time per partition rises from 5.0 s to 6.0 s while five times as
// many partitions are in synthesis: memory-bandwidth contention.
TEST(TimelineAnalyze, ContentionAcrossRuns) {
  LogBuilder b;
  // Run 1: 4 partitions x 5000 ms, 0.5 partitions in synthesis on average.
  b.synth("c1", 0, 90000, 100000).synth("c1", 1, 90000, 100000);
  b.synth("c2", 0, 100000, 105000).synth("c2", 1, 100000, 105000);
  const char* r1[] = {"c1", "c1", "c2", "c2"};
  for (int k = 0; k < 4; k++) b.device(r1[k], k % 2, 0, 100000 + 5000 * k, 105000 + 5000 * k);
  // Run 2: 4 partitions x 6000 ms with 4 background partitions in synthesis
  // over the whole run and d2's two for its first 12 s: 5.0 on average.
  b.synth("d1", 0, 190000, 200000).synth("d1", 1, 190000, 200000);
  b.synth("d2", 0, 200000, 212000).synth("d2", 1, 200000, 212000);
  for (int p = 0; p < 4; p++) b.synth("bg", p, 195000, 224000, false);
  const char* r2[] = {"d1", "d1", "d2", "d2"};
  for (int k = 0; k < 4; k++) b.device(r2[k], k % 2, 0, 200000 + 6000 * k, 206000 + 6000 * k);

  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 2u);
  const timeline::Run& a = t.analysis.runs[0];
  const timeline::Run& c = t.analysis.runs[1];
  EXPECT_DOUBLE_EQ(a.avg_device_ms_per_partition, 5000.0);
  EXPECT_DOUBLE_EQ(c.avg_device_ms_per_partition, 6000.0);
  EXPECT_DOUBLE_EQ(a.concurrency, 10000.0 / 20000.0);
  EXPECT_DOUBLE_EQ(c.concurrency, (4 * 24000.0 + 2 * 12000.0) / 24000.0);
  EXPECT_EQ(c.synth.parallel_max, 6);
  EXPECT_DOUBLE_EQ(a.device_utilization, 1.0);
  EXPECT_EQ(a.verdict.bottleneck, "device");
  EXPECT_EQ(c.verdict.bottleneck, "contention");
  EXPECT_NE(c.verdict.evidence[0].find("6000 ms vs 5000 ms in run 1 (+20.0%"), std::string::npos);
  EXPECT_NE(c.verdict.evidence[1].find("5.00 on average vs 0.50 in run 1"), std::string::npos);

  // The background job has synthesis but no device work: listed last, no run.
  const JobRow& bg = t.analysis.jobs.back();
  EXPECT_EQ(t.log.jobs[bg.job].id, "bg");
  EXPECT_EQ(bg.run, 0);
  EXPECT_EQ(bg.partitions, 0u);
  EXPECT_FALSE(bg.complete);

  // A 9% rise is below the rule.
  LogBuilder small;
  for (int k = 0; k < 2; k++) small.device("x", k, 0, 1000 + 5000 * k, 6000 + 5000 * k);
  small.synth("y", 0, 100000, 210000, false).synth("y", 1, 100000, 210000, false);
  for (int k = 0; k < 2; k++) small.device("y", k, 0, 200000 + 5450 * k, 205450 + 5450 * k);
  auto t2 = small.build();
  ASSERT_EQ(t2.analysis.runs.size(), 2u);
  EXPECT_NE(t2.analysis.runs[1].verdict.bottleneck, "contention");
}

// The device idles while partitions wait: not synthesis, and not the device.
TEST(TimelineAnalyze, IdleWithWorkWaitingIsUndetermined) {
  LogBuilder b;
  for (int p = 0; p < 3; p++) b.queue("u", p, 0);
  b.device("u", 0, 0, 1000, 2000).device("u", 1, 0, 2500, 3500).device("u", 2, 0, 4000, 5000);
  auto t = b.build();
  const timeline::Run& r = t.analysis.runs.at(0);
  EXPECT_DOUBLE_EQ(r.device_utilization, 0.75);
  EXPECT_EQ(gap_list(r), (std::vector<int64_t>{500, 500}));
  EXPECT_EQ(r.starved_ms, 0);
  EXPECT_EQ(r.idle.gaps[0].starved_ms, 0);
  EXPECT_EQ(r.verdict.bottleneck, "undetermined");
  EXPECT_NE(r.verdict.evidence[0].find("partitions were waiting"), std::string::npos);
}

TEST(TimelineAnalyze, MissingAndInferredEnds) {
  LogBuilder b;
  b.device("a", 0, 0, 1000, 2000);
  b.ev(2100, "GPU_START", "a", "worker=0,partition=1");            // never ends
  b.ev(4000, "GPU_END", "a", "worker=1,partition=2,gpu_ms=1500");  // start lost: 2500
  b.ev(4500, "GPU_END", "a", "worker=1,partition=3");              // start lost, no duration
  b.ev(100, "SYNTH_END", "a", "partition=0,synth_ms=50");
  auto t = b.build();
  ASSERT_EQ(t.model.device.size(), 2u);
  EXPECT_EQ(t.model.device[1].start, 2500);
  EXPECT_EQ(t.model.device[1].end, 4000);
  ASSERT_EQ(t.model.synth.size(), 1u);
  EXPECT_EQ(t.model.synth[0].start, 50);
  const Warnings& w = t.analysis.warnings;
  EXPECT_EQ(w.count(WarnKind::kInferred), 2u);
  EXPECT_EQ(w.count(WarnKind::kUnpaired), 2u);  // the open GPU_START, the GPU_END without anything
  bool found = false;
  for (const auto& l : w.lines())
    found |= l.find("GPU_START of job a partition 1 has no GPU_END") != std::string::npos;
  EXPECT_TRUE(found);
  ASSERT_EQ(t.analysis.jobs.size(), 1u);
  EXPECT_FALSE(t.analysis.jobs[0].complete);
  const timeline::Run& r = t.analysis.runs.at(0);
  EXPECT_EQ(r.partitions, 2u);
  EXPECT_EQ(r.busy_ms, 2500);
}

TEST(TimelineAnalyze, InterlockIntervalsAreTheBusyTime) {
  LogBuilder b;
  b.device_locked("a", 0, 0, 0, 100, 1100, 1500).device_locked("a", 1, 1, 50, 1100, 2100, 2600);
  auto t = b.build();
  const timeline::Run& r = t.analysis.runs.at(0);
  EXPECT_EQ(r.device_time_source, "interlock");
  EXPECT_EQ(r.busy_ms, 2000);
  EXPECT_DOUBLE_EQ(r.device_utilization, 2000.0 / 2600.0);
  EXPECT_EQ(gap_list(r), (std::vector<int64_t>{500}));  // tail after the last unlock
  ASSERT_EQ(t.model.device.size(), 2u);
  EXPECT_TRUE(t.model.device[0].locked);
  EXPECT_EQ(t.model.device[0].busy_ms(), 1000);
  // Partially logged interlock: the partition without it counts whole.
  LogBuilder m;
  m.device_locked("a", 0, 0, 0, 100, 1100, 1500).device("a", 1, 0, 1500, 2500);
  EXPECT_EQ(m.build().analysis.runs.at(0).device_time_source, "mixed");
  EXPECT_EQ(m.build().analysis.runs.at(0).busy_ms, 2000);
}

TEST(TimelineAnalyze, WorkersSpreadOverDevices) {
  LogBuilder b;
  // Workers 0,1 on device 0; 2,3 on device 1 (2 per device).
  b.device("a", 0, 0, 0, 1000)
      .device("a", 1, 1, 1000, 2000)
      .device("a", 2, 2, 0, 500)
      .device("a", 3, 3, 1500, 2000);
  auto t = b.build();
  const timeline::Run& r = t.analysis.runs.at(0);
  EXPECT_EQ(r.devices, 2);
  ASSERT_EQ(r.device_stats.size(), 2u);
  EXPECT_DOUBLE_EQ(r.device_stats[0].utilization, 1.0);
  EXPECT_DOUBLE_EQ(r.device_stats[1].utilization, 0.5);
  EXPECT_DOUBLE_EQ(r.serial_device_s_per_proof, 3000.0 / 1000 / 2 / 1);
  AnalyzeOptions o;
  o.workers_per_device = 4;
  EXPECT_EQ(b.build(o).analysis.runs.at(0).devices, 1);
}

}  // namespace
}  // namespace cuzk::timeline

namespace cuzk::timeline {
namespace {

// Cold starts: a job under whose id parameters or pre-compiled constraints
// were loaded or extracted is marked, and per-partition synthesis is
// averaged apart for cold and warm jobs. cold: 2 partitions of 900 and
// 1100 ms, and job-c's 2000 ms by the gadgets before the first PCE
// synthesis; warm: 300 and 500 ms, through the PCE.
TEST(TimelineAnalyze, ColdStartJobsAreMarked) {
  LogBuilder b;
  b.ev(0, "SRS_LOAD_START", "job-a", "circuit=porep-2k")
      .ev(50, "SRS_LOAD_END", "job-a", "circuit=porep-2k,load_ms=50")
      .synth("job-a", 0, 100, 1000)
      .synth("job-a", 1, 100, 1200)
      .ev(1000, "PCE_EXTRACT_START", "job-a", "circuit=porep-2k,reason=missing")
      .device("job-a", 0, 0, 1000, 2000)
      .device("job-a", 1, 0, 2000, 3000)
      .ev(2500, "PCE_EXTRACT_END", "job-a", "circuit=porep-2k,reason=missing,ms=1500,bytes=10")
      .ev(3000, "SYNTH_START", "job-b", "partition=0")
      .ev(3300, "SYNTH_END", "job-b", "partition=0,synth_ms=300,pce=1")
      .ev(3000, "SYNTH_START", "job-b", "partition=1")
      .ev(3500, "SYNTH_END", "job-b", "partition=1,synth_ms=500,pce=1")
      .device("job-b", 0, 0, 3500, 4500)
      .device("job-b", 1, 0, 4500, 5500)
      // Synthesized by the gadgets alongside job-a: cold, with no event of its own.
      .synth("job-c", 0, 100, 2100)
      .device("job-c", 0, 0, 5500, 6500);
  auto t = b.build();
  ASSERT_EQ(t.analysis.jobs.size(), 3u);
  EXPECT_EQ(t.analysis.jobs[2].cold_start, (std::vector<std::string>{"gadgets"}));
  const JobRow& a = t.analysis.jobs[0];
  const JobRow& w = t.analysis.jobs[1];
  EXPECT_EQ(a.cold_start, (std::vector<std::string>{"srs_load", "pce_extract", "gadgets"}));
  EXPECT_EQ(a.pce_partitions, 0u);
  EXPECT_TRUE(w.cold_start.empty());
  EXPECT_EQ(w.pce_partitions, 2u);
  const JobSummary& s = t.analysis.job_summary;
  EXPECT_EQ(s.cold_jobs, 2u);
  ASSERT_TRUE(s.cold_synth_ms_per_partition && s.steady_synth_ms_per_partition);
  EXPECT_DOUBLE_EQ(*s.cold_synth_ms_per_partition, 4000.0 / 3);
  EXPECT_DOUBLE_EQ(*s.steady_synth_ms_per_partition, 400.0);
}

}  // namespace
}  // namespace cuzk::timeline

namespace cuzk::timeline {
namespace {

// A job cancelled while its first partition was on the device, then sent
// again under the same id. The daemon numbers its job ids now
// ("<request_id>#<n>"), so the two are apart by name; a log from before,
// where both carried the request id, is split at the re-admission after
// the CANCEL. Either way: two rows, the first cancelled, the second complete.
TEST(TimelineAnalyze, ACancelledJobAndItsResubmissionAreTwoJobs) {
  for (bool numbered : {true, false}) {
    const std::string first = numbered ? "porep-1000-7#3" : "porep-1000-7";
    const std::string second = numbered ? "porep-1000-7#4" : "porep-1000-7";
    LogBuilder b;
    b.ev(0, "PARSE_START", first, "kind=porep-c2").ev(5, "PARSE_END", first, "partitions=2");
    b.ev(10, "SYNTH_START", first, "partition=0").ev(100, "SYNTH_END", first, "partition=0,synth_ms=90");
    b.ev(110, "GPU_START", first, "worker=0,partition=0");
    b.ev(150, "CANCEL", first, "was_running=1");
    b.ev(200, "GPU_END", first, "worker=0,partition=0,gpu_ms=90");
    b.ev(300, "PARSE_START", second, "kind=porep-c2").ev(305, "PARSE_END", second, "partitions=1");
    b.device(second, 0, 0, 400, 500);
    auto t = b.build();
    ASSERT_EQ(t.log.jobs.size(), 2u) << numbered;
    ASSERT_EQ(t.analysis.jobs.size(), 2u) << numbered;
    const JobRow& a = t.analysis.jobs[0];
    const JobRow& r = t.analysis.jobs[1];
    EXPECT_TRUE(a.cancelled);
    EXPECT_FALSE(r.cancelled);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(*r.device_start, 400);
    EXPECT_NE(t.log.jobs[a.job].id, t.log.jobs[r.job].id);
    if (!numbered) {
      EXPECT_EQ(t.log.jobs[r.job].id, "porep-1000-7 (2)");
    }
    const std::string table = format_jobs(t, false);
    EXPECT_NE(table.find("(cancelled)"), std::string::npos) << table;
  }
}

TEST(TimelineAnalyze, ShortIdsKeepTheJobNumber) {
  EXPECT_EQ(short_id("wdpost-1000-0-[204 110 44 217 152 219 151 34]#12"), "wdpost-1000-..#12");
  EXPECT_EQ(short_id("porep-1000-5#7"), "porep-1000-5#7");
  EXPECT_NE(short_id("wdpost-1000-0-[1 2 3 4 5 6 7 8]#1"), short_id("wdpost-1000-0-[1 2 3 4 5 6 7 8]#2"));
  EXPECT_EQ(short_id("5d2c7a4e-0000-4000-8000-000000000000"), "5d2c7a4e");
  EXPECT_EQ(short_id("a-b#c"), "a-b#c");
}

}  // namespace
}  // namespace cuzk::timeline
