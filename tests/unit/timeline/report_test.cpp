// JSON keys other tools rely on, and the SVG/HTML pictures.
#include <gtest/gtest.h>

#include "timeline/report.hpp"
#include "timeline/synthetic.hpp"
#include "unit/timeline/log_builder.hpp"

namespace cuzk::timeline {
namespace {

using nlohmann::json;
using testing::LogBuilder;

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) n++;
  return n;
}

LogBuilder two_jobs() {
  LogBuilder b;
  b.synth("job-a", 0, 0, 900).synth("job-a", 1, 0, 950).synth("job-b", 0, 100, 2500);
  b.device_locked("job-a", 0, 0, 1000, 1002, 1800, 2000)
      .device_locked("job-a", 1, 1, 1001, 1800, 2600, 2800)
      .device_locked("job-b", 0, 0, 2600, 2600, 3400, 3500);
  return b;
}

TEST(TimelineReport, AnalysisJsonHasTheDocumentedKeys) {
  auto t = two_jobs().build();
  json j = json::parse(dump_json(analysis_json(t)));
  for (const char* k : {"log", "options", "runs", "jobs", "job_summary", "warnings"})
    EXPECT_TRUE(j.contains(k)) << k;
  ASSERT_EQ(j["runs"].size(), 1u);
  const json& r = j["runs"][0];
  for (const char* k :
       {"index", "start_ms", "end_ms", "wall_s", "proofs", "partitions", "throughput_proofs_per_min",
        "s_per_proof", "device_utilization", "avg_device_ms_per_partition", "serial_device_s_per_proof",
        "idle_gaps", "workers", "transitions", "verdict", "synthesis"})
    EXPECT_TRUE(r.contains(k)) << k;
  EXPECT_EQ(r["index"], 1);
  EXPECT_EQ(r["start_ms"], 1000);
  EXPECT_EQ(r["end_ms"], 3500);
  EXPECT_EQ(r["proofs"], 2);
  EXPECT_EQ(r["partitions"], 3);
  EXPECT_DOUBLE_EQ(r["device_utilization"].get<double>(), 2398.0 / 2500.0);      // [1002,3400]
  EXPECT_DOUBLE_EQ(r["avg_device_ms_per_partition"].get<double>(), 2398.0 / 3);  // 798 + 800 + 800
  EXPECT_DOUBLE_EQ(r["serial_device_s_per_proof"].get<double>(), 1.199);
  const json& g = r["idle_gaps"];
  for (const char* k : {"threshold_ms", "count", "total_ms", "largest_ms", "avg_ms", "list_ms"})
    EXPECT_TRUE(g.contains(k)) << k;
  EXPECT_EQ(g["threshold_ms"], 100);
  EXPECT_EQ(g["count"], 0);
  EXPECT_EQ(g["list_ms"], json::array());
  ASSERT_EQ(r["workers"].size(), 2u);
  const json& w0 = r["workers"][0];
  EXPECT_EQ(w0["worker"], 0);
  EXPECT_EQ(w0["partitions"], 2);
  EXPECT_EQ(w0["busy_ms"], 1598);
  EXPECT_EQ(w0["gaps"]["count"], 1);
  EXPECT_EQ(w0["gaps"]["total_ms"], 600);
  EXPECT_EQ(w0["gaps"]["largest_ms"], 600);
  ASSERT_EQ(r["transitions"].size(), 1u);
  EXPECT_EQ(r["transitions"][0]["from_job"], "job-a");
  EXPECT_EQ(r["transitions"][0]["prev_second_last_end_ms"], 2000);
  EXPECT_EQ(r["transitions"][0]["delta_ms"], 600);
  EXPECT_EQ(r["transitions"][0]["overlap_ms"], 200);
  const std::string v = r["verdict"]["bottleneck"];
  EXPECT_TRUE(v == "device" || v == "synthesis" || v == "contention" || v == "undetermined");
  EXPECT_FALSE(r["verdict"]["evidence"].empty());
  EXPECT_GE(r["device_utilization"].get<double>(), 0.0);
  EXPECT_LE(r["device_utilization"].get<double>(), 1.0);

  ASSERT_EQ(j["jobs"].size(), 2u);
  const json& ja = j["jobs"][0];
  EXPECT_EQ(ja["job"], "job-a");
  EXPECT_EQ(ja["run"], 1);
  EXPECT_EQ(ja["synth_start_ms"], 0);
  EXPECT_EQ(ja["synth_end_ms"], 950);
  EXPECT_EQ(ja["device_start_ms"], 1000);
  EXPECT_EQ(ja["device_end_ms"], 2800);
  EXPECT_EQ(ja["device_busy_ms"], 1598);
  EXPECT_TRUE(ja["idle_gap_ms"].is_null());
  EXPECT_EQ(j["jobs"][1]["idle_gap_ms"], 0);
  EXPECT_EQ(j["log"]["events"], 3 * 3 + 3 * 4);
}

TEST(TimelineReport, JsonSurvivesBytesThatAreNotUtf8) {
  auto t = build_timeline(
      parse_text("TIMELINE,1,GPU_START,j\xff\xfe,worker=0\nTIMELINE,9,GPU_END,j\xff\xfe,worker=0\n"));
  std::string s = dump_json(analysis_json(t));
  json j = json::parse(s);
  EXPECT_EQ(j["runs"].size(), 1u);
}

TEST(TimelineReport, TableAndJobsJson) {
  auto t = two_jobs().build();
  auto tab = table_json(t.log, false);
  ASSERT_EQ(tab["events"].size(), 21u);
  EXPECT_EQ(tab["events"][0]["event"], "SYNTH_START");
  EXPECT_EQ(tab["events"][0]["offset_ms"], 0);
  auto jobs = jobs_json(t);
  EXPECT_EQ(jobs["job_summary"]["jobs"], 2);
  EXPECT_EQ(jobs["job_summary"]["wall_ms"], 3500);
}

TEST(TimelineReport, SvgHasOneBarPerPartitionAndALanePerWorker) {
  auto t = two_jobs().build();
  std::string svg = render_svg(t);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "class='bar'"), 3u);
  EXPECT_EQ(count(svg, "class='sbar'"), 3u);
  EXPECT_EQ(count(svg, ">worker 0 <"), 1u);
  EXPECT_EQ(count(svg, ">worker 1 <"), 1u);
  EXPECT_EQ(count(svg, "<g>") + count(svg, "<g "), count(svg, "</g>"));
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  EXPECT_NE(svg.find("Run 1"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
}

TEST(TimelineReport, SvgHatchesIdleGapsAndEscapesJobIds) {
  LogBuilder b;
  b.synth("<bad&id>", 0, 0, 1000).device("<bad&id>", 0, 0, 1000, 2000);
  b.synth("<bad&id>", 1, 0, 5000).device("<bad&id>", 1, 0, 5000, 6000);
  auto t = b.build();
  std::string svg = render_svg(t);
  EXPECT_EQ(svg.find("<bad&id>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;bad&amp;id&gt;"), std::string::npos);
  EXPECT_EQ(count(svg, "fill='url(#starved)' class='gap'"), 1u);  // the 3 s gap, nothing waiting
  EXPECT_NE(svg.find(">3.0 s<"), std::string::npos);
}

TEST(TimelineReport, SvgOfOneRun) {
  LogBuilder b;
  b.device("a", 0, 0, 0, 1000).device("b", 0, 0, 100000, 101000).device("b", 1, 1, 100500, 101500);
  auto t = b.build();
  ASSERT_EQ(t.analysis.runs.size(), 2u);
  SvgOptions o;
  o.run = 2;
  std::string svg = render_svg(t, o);
  EXPECT_EQ(count(svg, "class='bar'"), 2u);
  EXPECT_NE(svg.find("showing run 2"), std::string::npos);
}

TEST(TimelineReport, HtmlIsSelfContained) {
  auto t = two_jobs().build();
  HtmlOptions o;
  o.title = "two jobs";
  std::string html = render_html(t, o);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg "), std::string::npos);
  EXPECT_NE(html.find("<h2>Runs</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>Jobs</h2>"), std::string::npos);
  EXPECT_NE(html.find("<td class='l'>job-a</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no external resource
  EXPECT_EQ(count(html, "<table>"), count(html, "</table>"));
}

TEST(TimelineReport, SyntheticLogIsExactlyTheRequestedSize) {
  SyntheticOptions o;
  o.target_lines = 5000;
  std::string text = generate_synthetic(o);
  EXPECT_EQ(count(text, "\n"), 5000u);
  auto t = build_timeline(parse_text(text));
  EXPECT_EQ(t.log.lines_total, 5000u);
  EXPECT_GE(t.analysis.runs.size(), 2u);
  // Deterministic for a seed.
  EXPECT_EQ(generate_synthetic(o), text);
}

}  // namespace
}  // namespace cuzk::timeline
