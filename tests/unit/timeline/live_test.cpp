// The live timeline (timeline/live.hpp): a running daemon's lines with the
// open intervals closed at "now", the busy fraction over a trailing window,
// and the live picture (a fixed window with ticks counted back from now).
#include <gtest/gtest.h>

#include <regex>

#include "timeline/live.hpp"
#include "timeline/report.hpp"
#include "unit/timeline/log_builder.hpp"

namespace cuzk::timeline {
namespace {

using testing::LogBuilder;

LiveOptions opts(int wpd, int64_t window_ms) {
  LiveOptions o;
  o.analyze.workers_per_device = wpd;
  o.busy_window_ms = window_ms;
  return o;
}

TEST(LiveTimeline, OpenIntervalsAreClosedAtNow) {
  LogBuilder b;
  b.synth("job-a", 0, 0, 400).device_locked("job-a", 0, 0, 400, 410, 900, 950);
  // Partition 1: synthesized, on worker 1 since 1000 with the interlock
  // taken at 1010 and not yet released; partition 2 still in synthesis.
  b.synth("job-a", 1, 100, 990);
  b.ev(1000, "GPU_START", "job-a", "worker=1,partition=1")
      .ev(1010, "GPU_LOCK", "job-a", "worker=1,partition=1");
  b.ev(1200, "SYNTH_START", "job-a", "partition=2");
  const LiveTimeline lt = live_timeline(b.str(), 1500, opts(2, 60000));
  EXPECT_EQ(lt.open_synthesis, 1u);
  EXPECT_EQ(lt.open_device, 1u);
  EXPECT_EQ(lt.now, 1500);
  const Model& m = lt.timeline.model;
  ASSERT_EQ(m.device.size(), 2u);
  EXPECT_EQ(m.device[1].start, 1000);
  EXPECT_EQ(m.device[1].end, 1500);
  EXPECT_TRUE(m.device[1].locked);
  EXPECT_EQ(m.device[1].busy_start, 1010);
  EXPECT_EQ(m.device[1].busy_end, 1500);
  ASSERT_EQ(m.synth.size(), 3u);
  EXPECT_EQ(m.synth[2].start, 1200);
  EXPECT_EQ(m.synth[2].end, 1500);
  // Nothing is left open for the analysis to warn about.
  EXPECT_EQ(m.warnings.count(WarnKind::kUnpaired), 0u);
  // Busy over [0, 1500]: the interlock 410..900 and 1010..1500, one device.
  ASSERT_EQ(lt.busy.size(), 1u);
  EXPECT_EQ(lt.busy[0].device, 0);
  EXPECT_EQ(lt.busy[0].window_ms, 1500);
  EXPECT_EQ(lt.busy[0].busy_ms, 490 + 490);
  ASSERT_NE(lt.current_run(), nullptr);
}

TEST(LiveTimeline, BusyFractionCountsOnlyTheTrailingWindowPerDevice) {
  LogBuilder b;
  // Device 0 (workers 0, 1): 0..10 s and 50..58 s, overlapping workers merged.
  b.device("j1", 0, 0, 0, 10000).device("j1", 1, 1, 5000, 8000).device("j2", 0, 0, 50000, 58000);
  // Device 1 (workers 2, 3): 40..45 s.
  b.device("j2", 1, 2, 40000, 45000);
  const LiveTimeline lt = live_timeline(b.str(), 60000, opts(2, 20000));
  ASSERT_EQ(lt.busy.size(), 2u);
  // Window [40 s, 60 s]: device 0 busy 50..58 (8 s), device 1 busy 40..45 (5 s).
  EXPECT_EQ(lt.busy[0].device, 0);
  EXPECT_EQ(lt.busy[0].busy_ms, 8000);
  EXPECT_DOUBLE_EQ(lt.busy[0].fraction(), 0.4);
  EXPECT_EQ(lt.busy[1].device, 1);
  EXPECT_EQ(lt.busy[1].busy_ms, 5000);
  EXPECT_DOUBLE_EQ(lt.busy[1].fraction(), 0.25);
}

TEST(LiveTimeline, NoCurrentRunAfterAQuietWindow) {
  LogBuilder b;
  b.synth("j", 0, 0, 100).device("j", 0, 0, 100, 600);
  const LiveTimeline lt = live_timeline(b.str(), 120000, opts(2, 60000));
  EXPECT_EQ(lt.current_run(), nullptr);
  ASSERT_EQ(lt.busy.size(), 1u);
  EXPECT_EQ(lt.busy[0].busy_ms, 0);
  // A clock behind the newest line (read before it was written) counts as that line's time.
  const LiveTimeline behind = live_timeline(b.str(), 300, opts(2, 60000));
  EXPECT_EQ(behind.now, 600);
  EXPECT_TRUE(live_timeline("", 5000, opts(2, 60000)).busy.empty());
}

TEST(LiveTimeline, PictureShowsTheWindowWithTicksBeforeNow) {
  LogBuilder b;
  b.synth("j", 0, 100000, 101000).device("j", 0, 0, 101000, 103000);
  b.ev(110000, "GPU_START", "j2", "worker=1,partition=0");
  const LiveTimeline lt = live_timeline(b.str(), 120000, opts(2, 60000));
  SvgOptions so;
  so.width = 1000;
  so.window_start = lt.now - 60000;
  so.window_end = lt.now;
  so.ticks_before_end = true;
  const std::string svg = render_svg(lt.timeline, so);
  EXPECT_NE(svg.find("width='1000'"), std::string::npos);
  EXPECT_NE(svg.find(">now</text>"), std::string::npos);
  EXPECT_NE(svg.find(">-30 s</text>"), std::string::npos);
  // Two device bars: the finished partition and the one still running.
  size_t bars = 0;
  for (size_t p = svg.find("class='bar'"); p != std::string::npos; p = svg.find("class='bar'", p + 1)) bars++;
  EXPECT_EQ(bars, 2u);
  // The running bar ends at the right edge of the frame: x0 + width = W - 24.
  std::smatch mt;
  ASSERT_TRUE(std::regex_search(svg, mt,
                                std::regex("job j2 partition 0[^<]*</title><rect x='([0-9.]+)' y='[0-9.]+' "
                                           "width='([0-9.]+)' height='18'[^>]*class='bar'")));
  EXPECT_NEAR(std::stod(mt[1]) + std::stod(mt[2]), 1000 - 24, 0.1);
}

}  // namespace
}  // namespace cuzk::timeline
