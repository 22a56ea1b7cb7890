#pragma once
// Output of the timeline commands: text tables, JSON, SVG waterfall, HTML report.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "timeline/analyze.hpp"

namespace cuzk::timeline {

// ---- `timeline table`: every event, time-ordered (or grouped by job) ----
struct TableRow {
  uint32_t job = 0;
  std::string event;  // as written (CHAN_SEND stays CHAN_SEND)
  int epoch = 0;
  int64_t offset_ms = 0;
  std::string detail;
  uint64_t line = 0;
};
std::vector<TableRow> table_rows(const Log& log, bool by_job);
std::string format_table(const Log& log, bool by_job, bool full_ids);
nlohmann::ordered_json table_json(const Log& log, bool by_job);

// ---- `timeline jobs`: one row per job, averages, throughput ----
std::string format_jobs(const Timeline& t, bool full_ids);
nlohmann::ordered_json jobs_json(const Timeline& t);

// ---- `timeline analyze` ----
std::string format_analysis(const Timeline& t, bool full_ids);
// {log, options, runs[], jobs[], job_summary, warnings[]} (docs/TIMELINE.md).
nlohmann::ordered_json analysis_json(const Timeline& t);
nlohmann::ordered_json run_json(const Timeline& t, const Run& r);

// JSON text that never throws on bytes that are not UTF-8 (they are replaced).
std::string dump_json(const nlohmann::ordered_json& j, int indent = 2);

// ---- pictures ----
struct SvgOptions {
  int width = 1400;
  int run = 0;  // 1-based run to draw; 0 = the whole log
  std::string title;
  int max_synth_lanes = 24;  // more than this: only the synthesis-in-flight strip
  size_t max_legend_jobs = 24;
  // A fixed time range on the continuous axis instead of the log's extent
  // (or the run's): the live view's trailing window. Used when window_end >
  // window_start; `run` is ignored then.
  int64_t window_start = 0, window_end = 0;
  // Ticks read as time before window_end ("-30 s") instead of daemon offsets.
  bool ticks_before_end = false;
};
std::string render_svg(const Timeline& t, const SvgOptions& opts = {});

struct HtmlOptions {
  std::string title;
  std::string source;  // shown under the title
  SvgOptions svg;
};
std::string render_html(const Timeline& t, const HtmlOptions& opts = {});

}  // namespace cuzk::timeline
