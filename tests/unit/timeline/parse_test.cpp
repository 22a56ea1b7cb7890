// Reading TIMELINE lines: what is accepted, what is skipped, and that damaged
// input turns into warnings rather than crashes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "timeline/analyze.hpp"
#include "timeline/parse.hpp"
#include "timeline/report.hpp"
#include "unit/timeline/log_builder.hpp"

namespace cuzk::timeline {
namespace {

TEST(TimelineParse, SkipsLinesThatAreNotTimelineRecords) {
  Log log = parse_text(
      "2025-01-07T10:00:00Z INFO cuzk: daemon listening on unix:///run/cuzk.sock\n"
      "TIMELINE,100,SYNTH_START,job-a,partition=0\n"
      "\n"
      "some TIMELINE text without the comma\n"
      "TIMELINE,200,SYNTH_END,job-a,partition=0,synth_ms=100\n");
  EXPECT_EQ(log.lines_total, 5u);
  EXPECT_EQ(log.lines_timeline, 2u);
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[0].kind, EventKind::kSynthStart);
  EXPECT_EQ(log.events[1].ms, 100);
  EXPECT_EQ(log.warnings.total(), 0u);
}

TEST(TimelineParse, FindsRecordsAfterALogPrefix) {
  Log log =
      parse_text("Jan 07 10:00:00 host cuzk[812]: TIMELINE,4242,GPU_START,job-a,worker=1,partition=3\n");
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].offset_ms, 4242);
  EXPECT_EQ(log.events[0].worker, 1);
  EXPECT_EQ(log.events[0].partition, 3);
  EXPECT_EQ(log.jobs[0].id, "job-a");
}

TEST(TimelineParse, DetailIsEverythingAfterTheFourthComma) {
  Log log = parse_text("TIMELINE,10,GPU_END,job-a,worker=2,partition=7,gpu_ms=1234,note=x,flag\n");
  ASSERT_EQ(log.events.size(), 1u);
  const Event& e = log.events[0];
  EXPECT_EQ(log.detail(e), "worker=2,partition=7,gpu_ms=1234,note=x,flag");
  EXPECT_EQ(e.worker, 2);
  EXPECT_EQ(e.partition, 7);
  EXPECT_EQ(e.ms, 1234);
}

TEST(TimelineParse, ChanSendIsGpuQueueAndKeepsItsName) {
  Log log = parse_text("TIMELINE,10,CHAN_SEND,job-a,\nTIMELINE,11,GPU_QUEUE,job-b,monolithic\n");
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[0].kind, EventKind::kGpuQueue);
  EXPECT_EQ(log.name(log.events[0]), "CHAN_SEND");
  EXPECT_EQ(log.events[1].kind, EventKind::kGpuQueue);
  EXPECT_EQ(log.events[1].partition, -1);
  EXPECT_EQ(log.detail(log.events[0]), "");
}

TEST(TimelineParse, WholeJobFormRecordsTheKind) {
  Log log = parse_text("TIMELINE,5,SYNTH_START,job-a,kind=snap-update\n");
  ASSERT_EQ(log.jobs.size(), 1u);
  EXPECT_EQ(log.jobs[0].kind, "snap-update");
  EXPECT_EQ(log.events[0].partition, -1);
}

TEST(TimelineParse, ExtraEventsAreKeptButChangeNoNumber) {
  testing::LogBuilder plain, extra;
  for (auto* b : {&plain, &extra}) {
    b->synth("job-a", 0, 0, 1000).device("job-a", 0, 0, 1000, 3000);
    b->synth("job-b", 0, 500, 4000).device("job-b", 0, 0, 4000, 6000);
  }
  extra.ev(0, "SRS_LOAD_START", "job-a", "circuit=porep-32g")
      .ev(400, "SRS_LOAD_END", "job-a", "circuit=porep-32g,ms=400")
      .ev(1, "PARSE_START", "job-a")
      .ev(3001, "ASSEMBLE_START", "job-a", "partitions=1")
      .ev(3002, "ASSEMBLE_END", "job-a", "bytes=192");
  auto a = plain.build(), b = extra.build();
  EXPECT_EQ(b.log.events.size(), a.log.events.size() + 5);
  EXPECT_EQ(std::count_if(b.log.events.begin(), b.log.events.end(),
                          [](const Event& e) { return e.kind == EventKind::kOther; }),
            5);
  ASSERT_EQ(a.analysis.runs.size(), 1u);
  ASSERT_EQ(b.analysis.runs.size(), 1u);
  EXPECT_EQ(b.analysis.runs[0].busy_ms, a.analysis.runs[0].busy_ms);
  EXPECT_EQ(b.analysis.runs[0].idle.count, a.analysis.runs[0].idle.count);
  EXPECT_EQ(b.analysis.runs[0].idle.total_ms, a.analysis.runs[0].idle.total_ms);
  EXPECT_DOUBLE_EQ(b.analysis.runs[0].device_utilization, a.analysis.runs[0].device_utilization);
  EXPECT_EQ(b.analysis.warnings.total(), 0u);
}

TEST(TimelineParse, TimestampRestartStartsANewEpoch) {
  Log log = parse_text(
      "TIMELINE,1000,GPU_START,job-a,worker=0\n"
      "TIMELINE,9000,GPU_END,job-a,worker=0,gpu_ms=8000\n"
      "TIMELINE,8500,GPU_QUEUE,job-z,monolithic\n"  // 500 ms back: threads, not a restart
      "TIMELINE,200,GPU_START,job-a,worker=0\n"     // restart
      "TIMELINE,800,GPU_END,job-a,worker=0,gpu_ms=600\n");
  EXPECT_EQ(log.epochs(), 2u);
  ASSERT_EQ(log.epoch_base.size(), 2u);
  EXPECT_EQ(log.epoch_base[1], 9000 + 10000);  // previous epoch's end + separation
  ASSERT_EQ(log.events.size(), 5u);
  EXPECT_EQ(log.events[3].t, 19200);
  EXPECT_EQ(log.events[3].offset_ms, 200);
  EXPECT_EQ(log.events[3].epoch, 1);
  // The same id after a restart is another job.
  ASSERT_EQ(log.jobs.size(), 3u);
  EXPECT_EQ(log.jobs[0].id, "job-a");
  EXPECT_EQ(log.jobs[2].id, "job-a");
  EXPECT_EQ(log.jobs[2].epoch, 1);
  EXPECT_EQ(log.warnings.count(WarnKind::kRestart), 1u);
  EXPECT_EQ(log.offset_at(19200), 200);

  auto t = build_timeline(std::move(log));
  ASSERT_EQ(t.analysis.runs.size(), 2u);  // never one run across a restart
  EXPECT_EQ(t.analysis.runs[1].epoch, 1);
  EXPECT_EQ(t.analysis.runs[1].start_ms, 200);
  EXPECT_EQ(t.analysis.runs[1].end_ms, 800);
}

TEST(TimelineParse, TruncatedAndGarbledRecordsBecomeWarnings) {
  Log log = parse_text(
      "TIMELINE,12\n"
      "TIMELINE,abc,GPU_START,j,worker=0\n"
      "TIMELINE,100,GPU_END\n"
      "TIMELINE,100,GPU_START,\n"
      "TIMELINE,100,gpu start,j,\n"
      "TIMELINE,-5,GPU_START,j,worker=0\n"
      "TIMELINE,9223372036854775807,GPU_START,j,worker=0\n"
      "TIMELINE,100,GPU_START,j,worker=0,partition=\n"
      "TIMELINE,150,GPU_START,k,worker=x1,partition=2\n");
  EXPECT_EQ(log.malformed, 7u);
  EXPECT_EQ(log.warnings.count(WarnKind::kMalformed), 7u);
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[0].partition, -1);  // "partition=" cut short
  EXPECT_EQ(log.events[1].worker, -1);
  EXPECT_EQ(log.events[1].partition, 2);
  EXPECT_EQ(log.warnings.count(WarnKind::kBadDetail), 2u);
  auto lines = log.warnings.lines();
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("line 1:"), std::string::npos);
}

TEST(TimelineParse, DuplicateLinesAreSkippedOnce) {
  const std::string a = "TIMELINE,100,GPU_START,j,worker=0,partition=1\n";
  const std::string b = "TIMELINE,900,GPU_END,j,worker=0,partition=1,gpu_ms=800\n";
  Log log = parse_text(a + a + b + a + b);
  EXPECT_EQ(log.duplicates, 3u);
  EXPECT_EQ(log.events.size(), 2u);
  auto t = build_timeline(std::move(log));
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  EXPECT_EQ(t.analysis.runs[0].partitions, 1u);
  EXPECT_EQ(t.analysis.runs[0].busy_ms, 800);
  EXPECT_EQ(t.analysis.warnings.count(WarnKind::kDuplicate), 3u);
  EXPECT_EQ(t.analysis.warnings.count(WarnKind::kUnpaired), 0u);
}

TEST(TimelineParse, CrLfAndAMissingFinalNewline) {
  Log log = parse_text("TIMELINE,1,GPU_START,j,worker=0\r\nTIMELINE,5,GPU_END,j,worker=0,gpu_ms=4");
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.jobs.size(), 1u);
  EXPECT_EQ(log.jobs[0].id, "j");
  EXPECT_EQ(log.events[1].ms, 4);
  EXPECT_EQ(log.lines_total, 2u);
}

TEST(TimelineParse, TwoRecordsRunTogetherOnOneLine) {
  Log log = parse_text("TIMELINE,1,GPU_START,j,worker=0,partTIMELINE,2,GPU_START,k,worker=1\n");
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.detail(log.events[0]), "worker=0,part");
  EXPECT_EQ(log.events[1].worker, 1);
  EXPECT_EQ(log.malformed, 1u);
}

TEST(TimelineParse, IncrementalFeedingMatchesOneShot) {
  testing::LogBuilder b;
  for (int p = 0; p < 10; p++)
    b.synth("job-a", p, 100 * p, 100 * p + 5000).device("job-a", p, p % 2, 6000 + 700 * p, 6600 + 700 * p);
  b.raw(3000, "INFO something in between");
  const std::string text = b.str();
  Log whole = parse_text(text);
  std::mt19937 rng(5);
  Parser p;
  for (size_t i = 0; i < text.size();) {
    size_t n = std::min<size_t>(text.size() - i, 1 + rng() % 37);
    p.feed(std::string_view(text).substr(i, n));
    i += n;
  }
  p.finish();
  Log parts = p.take();
  ASSERT_EQ(parts.events.size(), whole.events.size());
  for (size_t i = 0; i < whole.events.size(); i++) {
    EXPECT_EQ(parts.events[i].t, whole.events[i].t);
    EXPECT_EQ(parts.events[i].kind, whole.events[i].kind);
    EXPECT_EQ(parts.detail(parts.events[i]), whole.detail(whole.events[i]));
  }
  EXPECT_EQ(parts.lines_total, whole.lines_total);
}

TEST(TimelineParse, SnapshotLeavesAPartialLineForLater) {
  Parser p;
  p.feed("TIMELINE,1,GPU_START,j,worker=0\nTIMELINE,5,GPU_E");
  EXPECT_EQ(p.snapshot().events.size(), 1u);
  p.feed("ND,j,worker=0,gpu_ms=4\n");
  Log log = p.snapshot();
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[1].kind, EventKind::kGpuEnd);
}

TEST(TimelineParse, WarningsAreCappedPerKind) {
  std::string text;
  for (int i = 0; i < 1000; i++) text += "TIMELINE,garbage\n";
  Log log = parse_text(text);
  EXPECT_EQ(log.malformed, 1000u);
  auto lines = log.warnings.lines();
  ASSERT_EQ(lines.size(), Warnings::kKeepPerKind + 1);
  EXPECT_EQ(lines.back(), "... and 960 more malformed warnings");
}

TEST(TimelineParse, RandomDamageNeverCrashes) {
  testing::LogBuilder b;
  for (int j = 0; j < 6; j++)
    for (int p = 0; p < 10; p++)
      b.synth("job-" + std::to_string(j), p, 1000 * j + 10 * p, 1000 * j + 10 * p + 3000)
          .device_locked("job-" + std::to_string(j), p, p % 2, 5000 + 400 * (10 * j + p),
                         5010 + 400 * (10 * j + p), 5300 + 400 * (10 * j + p), 5390 + 400 * (10 * j + p));
  const std::string clean = b.str();
  std::mt19937 rng(2024);
  for (int round = 0; round < 20; round++) {
    std::string text;
    size_t start = 0;
    while (start < clean.size()) {
      size_t nl = clean.find('\n', start);
      std::string line = clean.substr(start, nl - start);
      start = nl + 1;
      switch (rng() % 12) {
        case 0: line = line.substr(0, rng() % (line.size() + 1)); break;  // truncated
        case 1: text += line + "\n"; break;                               // duplicated
        case 2: line[rng() % line.size()] = char(rng() % 256); break;     // a flipped byte
        case 3: continue;                                                 // lost
        case 4: line += "\xff\xfe,extra=,=,,"; break;
        default: break;
      }
      text += line + (rng() % 50 ? "\n" : "");
    }
    auto t = build_timeline(parse_text(text));
    // Every output path copes with what is left.
    EXPECT_FALSE(dump_json(analysis_json(t)).empty());
    EXPECT_FALSE(format_analysis(t, false).empty());
    EXPECT_FALSE(format_jobs(t, false).empty());
    EXPECT_FALSE(format_table(t.log, true, false).empty());
    EXPECT_NE(render_html(t).find("</html>"), std::string::npos);
    for (const timeline::Run& r : t.analysis.runs) {
      EXPECT_GE(r.device_utilization, 0.0);
      EXPECT_LE(r.device_utilization, 1.0);
      EXPECT_LE(r.busy_ms + r.idle_ms, int64_t(r.wall_s * 1000 + 0.5));
    }
  }
}

TEST(TimelineParse, EmptyInput) {
  auto t = build_timeline(parse_text(""));
  EXPECT_TRUE(t.log.events.empty());
  EXPECT_TRUE(t.analysis.runs.empty());
  EXPECT_TRUE(t.analysis.jobs.empty());
  EXPECT_NE(render_svg(t).find("</svg>"), std::string::npos);
  EXPECT_NE(format_analysis(t, false).find("no device work"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::timeline
