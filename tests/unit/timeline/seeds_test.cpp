// The worked numbers of the seed analyses (shared/seeds), reproduced from logs
// built to match them.
#include <gtest/gtest.h>

#include "timeline/analyze.hpp"
#include "timeline/report.hpp"
#include "unit/timeline/log_builder.hpp"

namespace cuzk::timeline {
namespace {

using testing::LogBuilder;

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// Seed 003: whole-job proofs, synthesis 96 threads / GPU 32 threads. Its
// table's first three rows:
//   P1  87117 135123 48006 135126 161355 26229     0
//   P2  87097 135132 48035 161369 194241 32872    14
//   P3 165462 209588 44126 209591 237481 27890 15350
// (P4 was cut off after its synthesis start, 199012; P4 and P5 are filled in.)
LogBuilder seed003() {
  LogBuilder b;
  const std::string p1 = "5d3c2f0a-0001-4000-8000-000000000001", p2 = "9b1e7c44-0002-4000-8000-000000000002",
                    p3 = "c0ffee03-0003-4000-8000-000000000003", p4 = "d00d0004-0004-4000-8000-000000000004",
                    p5 = "e1e10005-0005-4000-8000-000000000005";
  b.raw(87000, "2025-01-07T10:01:27Z INFO cuzk_bench: batch -c 5 -j 2");
  b.ev(87097, "SYNTH_START", p2, "kind=porep-c2").ev(87117, "SYNTH_START", p1, "kind=porep-c2");
  b.ev(135123, "SYNTH_END", p1, "synth_ms=48006").ev(135123, "GPU_QUEUE", p1, "monolithic");
  b.ev(135125, "GPU_PICKUP", p1, "worker=0").ev(135126, "GPU_START", p1, "worker=0");
  b.ev(135132, "SYNTH_END", p2, "synth_ms=48035").ev(135133, "CHAN_SEND", p2, "");
  b.ev(161355, "GPU_END", p1, "worker=0,gpu_ms=26229");
  b.ev(161369, "GPU_START", p2, "worker=0").ev(165462, "SYNTH_START", p3, "kind=porep-c2");
  b.ev(194241, "GPU_END", p2, "worker=0,gpu_ms=32872").ev(199012, "SYNTH_START", p4, "kind=porep-c2");
  b.ev(209588, "SYNTH_END", p3, "synth_ms=44126").ev(209591, "GPU_START", p3, "worker=0");
  b.ev(209600, "SYNTH_START", p5, "kind=porep-c2");
  b.ev(237481, "GPU_END", p3, "worker=0,gpu_ms=27890");
  b.ev(243000, "SYNTH_END", p4, "synth_ms=43988").ev(243003, "GPU_START", p4, "worker=0");
  b.ev(255000, "SYNTH_END", p5, "synth_ms=45400");
  b.ev(270000, "GPU_END", p4, "worker=0,gpu_ms=26997");
  b.ev(270010, "GPU_START", p5, "worker=0").ev(298000, "GPU_END", p5, "worker=0,gpu_ms=27990");
  return b;
}

TEST(TimelineSeeds, Seed003JobRows) {
  auto t = seed003().build();
  const Log& log = t.log;
  const auto& jobs = t.analysis.jobs;
  ASSERT_EQ(jobs.size(), 5u);
  struct Want {
    int64_t ss, se, sms, gs, ge, gms, gap;
  };
  const Want want[] = {{87117, 135123, 48006, 135126, 161355, 26229, -1},
                       {87097, 135132, 48035, 161369, 194241, 32872, 14},
                       {165462, 209588, 44126, 209591, 237481, 27890, 15350}};
  for (int i = 0; i < 3; i++) {
    SCOPED_TRACE("P" + std::to_string(i + 1));
    const JobRow& r = jobs[size_t(i)];
    EXPECT_EQ(log.offset_at(*r.synth_start), want[i].ss);
    EXPECT_EQ(log.offset_at(*r.synth_end), want[i].se);
    EXPECT_EQ(*r.synth_ms(), want[i].sms);
    EXPECT_EQ(log.offset_at(*r.device_start), want[i].gs);
    EXPECT_EQ(log.offset_at(*r.device_end), want[i].ge);
    EXPECT_EQ(*r.device_ms(), want[i].gms);
    if (want[i].gap < 0) {
      EXPECT_FALSE(r.idle_gap_ms.has_value());
    } else {
      EXPECT_EQ(r.idle_gap_ms.value(), want[i].gap);
    }
    EXPECT_EQ(r.partitions, 1u);
    EXPECT_TRUE(r.complete);
  }
  EXPECT_EQ(log.offset_at(*jobs[3].synth_start), 199012);
  EXPECT_EQ(log.jobs[jobs[0].job].kind, "porep-c2");

  const JobSummary& s = t.analysis.job_summary;
  EXPECT_EQ(s.jobs, 5u);
  EXPECT_EQ(s.wall_ms, 298000 - 87097);
  EXPECT_DOUBLE_EQ(s.avg_synth_ms, (48006 + 48035 + 44126 + 43988 + 45400) / 5.0);
  EXPECT_DOUBLE_EQ(s.avg_idle_gap_ms, (14 + 15350 + 5522 + 10) / 4.0);

  const std::string text = format_jobs(t, false);
  EXPECT_TRUE(contains(text,
                       "P1    5d3c2f0a   1     1        87117       135123     48006       135126       "
                       "161355     26229         -"));
  EXPECT_TRUE(contains(text,
                       "P3    c0ffee03   1     1       165462       209588     44126       209591       "
                       "237481     27890     15350"));

  // The analysis agrees with the seed's conclusion: synthesis cannot keep up.
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  const timeline::Run& r = t.analysis.runs[0];
  EXPECT_EQ(r.idle_ms, 20896);
  EXPECT_EQ(r.starved_ms, 20866);  // P2 was queued during its 14 ms; P5 during its 10 ms
  EXPECT_EQ(r.idle.count, 2u);
  EXPECT_EQ(r.idle.gaps[0].ms(), 15350);
  EXPECT_EQ(r.idle.gaps[1].ms(), 5522);
  EXPECT_DOUBLE_EQ(r.device_utilization, 141978.0 / 162874.0);
  EXPECT_EQ(r.verdict.bottleneck, "synthesis");
}

// Seed 001: the first rows of the waterfall table, and the ~9.6 s idle gap
// the author derived from them (GPU done ~151.5 s, next synthesis ~161.1 s).
TEST(TimelineSeeds, Seed001TableRows) {
  const std::string a = "ae003926-7d1f-4a53-9a8e-2b7c1d0e5f61", e = "ed6fa5b1-33c0-4b8e-8f0d-6a5b4c3d2e1f";
  LogBuilder b;
  b.raw(0, "2025-01-07T10:00:00Z INFO cuzk_daemon: engine started");
  b.ev(87700, "SYNTH_START", a, "kind=porep-c2");
  b.ev(124510, "SYNTH_END", a, "synth_ms=36592").ev(124510, "CHAN_SEND", a, "");
  b.ev(124530, "SYNTH_START", e, "kind=porep-c2");
  b.ev(124535, "GPU_PICKUP", a, "worker=0").ev(124536, "GPU_START", a, "worker=0");
  b.ev(151500, "GPU_END", a, "worker=0,gpu_ms=26964");
  b.ev(161122, "SYNTH_END", e, "synth_ms=36592").ev(161122, "CHAN_SEND", e, "");
  b.ev(161125, "GPU_PICKUP", e, "worker=0").ev(161126, "GPU_START", e, "worker=0");
  b.ev(188000, "GPU_END", e, "worker=0,gpu_ms=26874");
  auto t = b.build();

  auto rows = table_rows(t.log, false);
  ASSERT_EQ(rows.size(), 12u);
  auto row = [&](size_t i) {
    return short_id(t.log.jobs[rows[i].job].id) + " " + rows[i].event + " " +
           std::to_string(rows[i].offset_ms) + " " + rows[i].detail;
  };
  EXPECT_EQ(row(0), "ae003926 SYNTH_START 87700 kind=porep-c2");
  EXPECT_EQ(row(1), "ae003926 SYNTH_END 124510 synth_ms=36592");
  EXPECT_EQ(row(2), "ae003926 CHAN_SEND 124510 ");
  EXPECT_EQ(row(3), "ed6fa5b1 SYNTH_START 124530 kind=porep-c2");
  EXPECT_EQ(row(4), "ae003926 GPU_PICKUP 124535 worker=0");

  const std::string text = format_table(t.log, false, false);
  EXPECT_TRUE(contains(text, "ae003926 SYNTH_START     87.700  kind=porep-c2\n"));
  EXPECT_TRUE(contains(text, "ae003926 SYNTH_END      124.510  synth_ms=36592\n"));
  EXPECT_TRUE(contains(text, "ed6fa5b1 SYNTH_START    124.530  kind=porep-c2\n"));

  // Grouped by job: all of ae003926 first.
  auto grouped = table_rows(t.log, true);
  for (size_t i = 0; i < 6; i++) EXPECT_EQ(t.log.jobs[grouped[i].job].id, a);
  EXPECT_EQ(grouped[6].event, "SYNTH_START");
  EXPECT_EQ(grouped[6].offset_ms, 124530);

  const timeline::Run& r = t.analysis.runs.at(0);
  ASSERT_EQ(r.idle.count, 1u);
  EXPECT_EQ(r.idle.gaps[0].ms(), 161126 - 151500);
  EXPECT_EQ(r.verdict.bottleneck, "synthesis");
}

// Seed 002: two device workers sharing the GPU through the interlock,
// 3746 ms of device time per partition, 10 partitions per sector.
//   Sector 0 -> 1: prev 2nd-to-last GPU_END 114367, first GPU_START 118857,
//                  delta 4490, prev last GPU_END 119618, overlap 761
//   Sector 1 -> 2: prev 2nd-to-last GPU_END 152997, first GPU_START 153018, delta 21
// and throughput matching serial device time (37.4 s vs 37.5 s).
LogBuilder seed002() {
  const int64_t D = 3746;
  const std::string ids[] = {"0a0a0a0a-aaaa-4aaa-8aaa-000000000000", "1b1b1b1b-bbbb-4bbb-8bbb-111111111111",
                             "2c2c2c2c-cccc-4ccc-8ccc-222222222222"};
  int64_t lock[30], start[30], end[30];
  for (int k = 0; k < 30; k++) {
    lock[k] = k < 10 ? 80000 + k * D : 118860 + (k - 10) * D;  // restarts after sector 1 arrives
    end[k] = lock[k] + D + 700;
  }
  end[8] = 114367;
  end[9] = 119618;
  end[18] = 152997;
  for (int k = 0; k < 30; k++) {
    if (k == 0) start[k] = 79997;
    else if (k == 1) start[k] = 80010;
    else if (k == 10) start[k] = 118857;
    else if (k == 20) start[k] = 153018;
    else start[k] = end[k - 2] + 5;  // the worker's previous partition
  }
  LogBuilder b;
  const int64_t queued[] = {79990, 118850, 150000};
  for (int k = 0; k < 30; k++) {
    const std::string& id = ids[k / 10];
    int p = k % 10;
    b.synth(id, p, queued[k / 10] - 40000 + 100 * p, queued[k / 10], false).queue(id, p, queued[k / 10]);
    b.device_locked(id, p, k % 2, start[k], lock[k], lock[k] + D, end[k]);
  }
  return b;
}

TEST(TimelineSeeds, Seed002TransitionsAndDeviceBound) {
  auto t = seed002().build();
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  const timeline::Run& r = t.analysis.runs[0];
  ASSERT_EQ(r.transitions.size(), 2u);
  const Transition& x = r.transitions[0];
  EXPECT_EQ(*x.prev_second_last_end, 114367);
  EXPECT_EQ(x.next_first_start, 118857);
  EXPECT_EQ(x.delta_ms, 4490);
  EXPECT_EQ(x.prev_last_end, 119618);
  EXPECT_EQ(x.overlap_ms, 761);
  const Transition& y = r.transitions[1];
  EXPECT_EQ(*y.prev_second_last_end, 152997);
  EXPECT_EQ(y.next_first_start, 153018);
  EXPECT_EQ(y.delta_ms, 21);

  EXPECT_EQ(r.proofs, 3u);
  EXPECT_EQ(r.partitions, 30u);
  EXPECT_EQ(r.device_time_source, "interlock");
  EXPECT_DOUBLE_EQ(r.avg_device_ms_per_partition, 3746.0);
  EXPECT_DOUBLE_EQ(r.serial_device_s_per_proof, 37.46);
  ASSERT_TRUE(r.steady_s_per_proof.has_value());
  EXPECT_DOUBLE_EQ(*r.steady_s_per_proof, (194480 - 119618) / 2 / 1000.0);  // 37.431
  EXPECT_EQ(r.end_ms, 194480);
  EXPECT_DOUBLE_EQ(r.device_utilization, 112380.0 / 114483.0);
  // At the interlock level the sector 0 -> 1 hand-over shows a 1.4 s hole
  // (sector 1 was queued only at 118850), plus the last partition's tail.
  ASSERT_EQ(r.idle.count, 2u);
  EXPECT_EQ(r.idle.gaps[0].ms(), 1400);
  EXPECT_EQ(r.idle.gaps[0].starved_ms, 1390);
  EXPECT_EQ(r.idle.gaps[1].ms(), 700);
  EXPECT_EQ(r.verdict.bottleneck, "device");

  const std::string text = format_analysis(t, false);
  EXPECT_TRUE(
      contains(text, "0a0a0a0a -> 1b1b1b1b: 114367 / 119618 -> 118857 ms: delta 4490 ms, overlap 761 ms"));
  EXPECT_TRUE(
      contains(text, "1b1b1b1b -> 2c2c2c2c: 152997 / 157020 -> 153018 ms: delta 21 ms, overlap 4002 ms"));
  EXPECT_TRUE(contains(text, "steady 37.4 s/proof"));
  EXPECT_TRUE(contains(text, "serial device time 37.46 s/proof"));
}

// Seed 000, run 1 (c=5 j=5): 6 proofs, 170.1 s wall, 2.12 proofs/min
// (28.4 s/proof), utilization 84.9%, 6 idle gaps 7.8, 8.4, 2.6, 1.5, 2.0,
// 3.3 s (25.6 s in total, largest 8.4 s).
TEST(TimelineSeeds, Seed000RunOne) {
  LogBuilder b;
  int64_t t = 100000;
  for (int k = 0; k < 60; k++) {
    int64_t gap = 0;
    switch (k) {
      case 10: gap = 7800; break;
      case 20: gap = 8400; break;
      case 30: gap = 2600; break;
      case 40: gap = 1500; break;
      case 50: gap = 2000; break;
      case 55: gap = 3300; break;
      default: gap = (k >= 1 && k <= 15) ? 10 : 0;  // 14 short gaps below the threshold
    }
    t += gap;
    b.device("job-" + std::to_string(k / 10), k % 10, k % 2, t, t + 2406);
    t += 2406;
  }
  auto tl = b.build();
  ASSERT_EQ(tl.analysis.runs.size(), 1u);
  const timeline::Run& r = tl.analysis.runs[0];
  EXPECT_EQ(r.proofs, 6u);
  EXPECT_EQ(r.partitions, 60u);
  EXPECT_DOUBLE_EQ(r.wall_s, 170.1);
  EXPECT_NEAR(r.throughput_proofs_per_min, 2.1164, 1e-4);
  EXPECT_DOUBLE_EQ(r.s_per_proof, 170.1 / 6);
  EXPECT_DOUBLE_EQ(r.device_utilization, 144360.0 / 170100.0);
  std::vector<int64_t> gaps;
  for (const auto& g : r.idle.gaps) gaps.push_back(g.ms());
  EXPECT_EQ(gaps, (std::vector<int64_t>{7800, 8400, 2600, 1500, 2000, 3300}));
  EXPECT_EQ(r.idle.total_ms, 25600);
  EXPECT_EQ(r.idle.largest_ms, 8400);
  EXPECT_NEAR(r.idle.avg_ms, 4266.67, 0.01);
  const std::string text = format_analysis(tl, false);
  EXPECT_TRUE(contains(text, "throughput 2.116 proofs/min (28.4 s/proof)"));
  EXPECT_TRUE(contains(text, "device utilization 84.9%"));
  EXPECT_TRUE(contains(text, "idle gaps > 100 ms: 6, total 25.6 s, largest 8.4 s"));
}

// Seed 000 across runs: four runs 54-60 s apart; device time per partition
// 5.0 -> 5.3 -> 5.7 -> 6.0 s while synthesis parallelism doubles each run.
TEST(TimelineSeeds, Seed000ContentionSignature) {
  const int64_t dev[] = {5000, 5300, 5700, 6000};
  const int parallel[] = {1, 2, 4, 8};
  const int64_t pause[] = {54000, 57000, 60000};
  LogBuilder b;
  int64_t s = 1000000;
  for (int r = 0; r < 4; r++) {
    for (int p = 0; p < parallel[r]; p++)
      b.synth("bg-" + std::to_string(r), p, s - 1000, s + 4 * dev[r] + 1000, false);
    for (int k = 0; k < 4; k++) {
      std::string job = "run" + std::to_string(r) + "-job" + std::to_string(k / 2);
      b.synth(job, k % 2, s - 30000, s - 2000).device(job, k % 2, 0, s + k * dev[r], s + (k + 1) * dev[r]);
    }
    if (r < 3) s += 4 * dev[r] + pause[r];
  }
  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 4u);
  const char* want[] = {"device", "device", "contention", "contention"};
  for (int r = 0; r < 4; r++) {
    SCOPED_TRACE("run " + std::to_string(r + 1));
    const timeline::Run& x = t.analysis.runs[size_t(r)];
    EXPECT_EQ(x.proofs, 2u);
    EXPECT_DOUBLE_EQ(x.avg_device_ms_per_partition, double(dev[r]));
    EXPECT_DOUBLE_EQ(x.concurrency, double(parallel[r]));
    EXPECT_EQ(x.verdict.bottleneck, want[r]);
  }
  EXPECT_NE(t.analysis.runs[3].verdict.evidence[0].find("6000 ms vs 5000 ms in run 1 (+20.0%"),
            std::string::npos);
}

}  // namespace
}  // namespace cuzk::timeline
