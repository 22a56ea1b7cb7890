// A real log of our own daemon (CPU backend, 6 generic R1CS proofs of 4
// partitions, 2 device workers, client concurrency 2), analysed end to end.
// The log is tests/integration/timeline/cuzk-daemon-r1cs.log; its daemon
// lines (start-up, shutdown) and extra events (SRS_LOAD, PARSE, ASSEMBLE)
// are in it as written.
#include <gtest/gtest.h>

#include "timeline/analyze.hpp"
#include "timeline/parse.hpp"
#include "timeline/report.hpp"

namespace cuzk::timeline {
namespace {

Timeline daemon_log() {
  return build_timeline(
      parse_file(std::string(CUZK_TEST_VECTORS) + "/../integration/timeline/cuzk-daemon-r1cs.log"));
}

TEST(TimelineDaemonLog, AnalysedEndToEnd) {
  auto t = daemon_log();
  EXPECT_EQ(t.log.lines_total, 225u);
  EXPECT_EQ(t.log.lines_timeline, 218u);
  EXPECT_EQ(t.analysis.warnings.total(), 0u);
  ASSERT_EQ(t.analysis.runs.size(), 1u);
  const timeline::Run& r = t.analysis.runs[0];
  EXPECT_EQ(r.proofs, 6u);
  EXPECT_EQ(r.partitions, 24u);
  EXPECT_EQ(r.start_ms, 251);
  EXPECT_EQ(r.end_ms, 29459);
  EXPECT_EQ(r.device_time_source, "interlock");
  EXPECT_EQ(r.busy_ms, 28736);
  EXPECT_DOUBLE_EQ(r.device_utilization, 28736.0 / 29208.0);
  EXPECT_DOUBLE_EQ(r.serial_device_s_per_proof, 28736.0 / 6000.0);
  EXPECT_DOUBLE_EQ(r.s_per_proof, 29208.0 / 6000.0);
  ASSERT_EQ(r.idle.count, 1u);
  EXPECT_EQ(r.idle.gaps[0].ms(), 419);  // the last partition's CPU tail
  ASSERT_EQ(r.workers.size(), 2u);
  EXPECT_EQ(r.workers[0].partitions, 12u);
  EXPECT_EQ(r.workers[1].partitions, 12u);
  EXPECT_EQ(r.transitions.size(), 5u);
  EXPECT_EQ(r.verdict.bottleneck, "device");
  // Six jobs in the table, all complete; the SRS preload's id is not a job row.
  ASSERT_EQ(t.analysis.jobs.size(), 6u);
  for (const JobRow& j : t.analysis.jobs) {
    EXPECT_TRUE(j.complete);
    EXPECT_EQ(j.partitions, 4u);
  }
  EXPECT_EQ(render_svg(t).find("class='bar'") != std::string::npos, true);
}

}  // namespace
}  // namespace cuzk::timeline
