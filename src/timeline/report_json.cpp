// JSON forms of the timeline commands. Times are the offsets the daemon
// logged (ms since its start); `epoch` says which daemon start they count from.
#include "timeline/report.hpp"

namespace cuzk::timeline {
namespace {

using json = nlohmann::ordered_json;

json opt_offset(const Log& log, const std::optional<int64_t>& t) {
  return t ? json(log.offset_at(*t)) : json(nullptr);
}
json opt_value(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }
json opt_value(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json job_row_json(const Log& log, const JobRow& r) {
  const JobInfo& j = log.jobs[r.job];
  return json{{"job", j.id},
              {"epoch", j.epoch},
              {"run", r.run ? json(r.run) : json(nullptr)},
              {"kind", j.kind.empty() ? json(nullptr) : json(j.kind)},
              {"partitions", r.partitions},
              {"synth_start_ms", opt_offset(log, r.synth_start)},
              {"synth_end_ms", opt_offset(log, r.synth_end)},
              {"synth_ms", opt_value(r.synth_ms())},
              {"device_start_ms", opt_offset(log, r.device_start)},
              {"device_end_ms", opt_offset(log, r.device_end)},
              {"device_ms", opt_value(r.device_ms())},
              {"device_busy_ms", r.device_busy_ms},
              {"idle_gap_ms", opt_value(r.idle_gap_ms)},
              {"complete", r.complete},
              {"cancelled", r.cancelled},
              {"cold_start", r.cold_start.empty() ? json(nullptr) : json(r.cold_start)},
              {"pce_partitions", r.pce_partitions}};
}

json summary_json(const JobSummary& s) {
  return json{{"jobs", s.jobs},
              {"avg_synth_ms", s.avg_synth_ms},
              {"avg_device_ms", s.avg_device_ms},
              {"avg_idle_gap_ms", s.avg_idle_gap_ms},
              {"wall_ms", s.wall_ms},
              {"throughput_proofs_per_min", s.throughput_proofs_per_min},
              {"s_per_proof", s.s_per_proof},
              {"cold_jobs", s.cold_jobs},
              {"cold_synth_ms_per_partition", opt_value(s.cold_synth_ms_per_partition)},
              {"steady_synth_ms_per_partition", opt_value(s.steady_synth_ms_per_partition)}};
}

json log_json(const Log& log) {
  return json{{"lines", log.lines_total},    {"timeline_lines", log.lines_timeline},
              {"events", log.events.size()}, {"jobs", log.jobs.size()},
              {"epochs", log.epochs()},      {"duplicates", log.duplicates},
              {"malformed", log.malformed}};
}

}  // namespace

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

nlohmann::ordered_json table_json(const Log& log, bool by_job) {
  json rows = json::array();
  for (const TableRow& r : table_rows(log, by_job)) {
    rows.push_back(json{{"job", log.jobs[r.job].id},
                        {"event", r.event},
                        {"epoch", r.epoch},
                        {"offset_ms", r.offset_ms},
                        {"detail", r.detail},
                        {"line", r.line}});
  }
  return json{{"log", log_json(log)}, {"events", rows}, {"warnings", log.warnings.lines()}};
}

nlohmann::ordered_json jobs_json(const Timeline& t) {
  json rows = json::array();
  for (const JobRow& r : t.analysis.jobs) rows.push_back(job_row_json(t.log, r));
  return json{{"jobs", rows},
              {"job_summary", summary_json(t.analysis.job_summary)},
              {"warnings", t.analysis.warnings.lines()}};
}

nlohmann::ordered_json run_json(const Timeline& t, const Run& r) {
  const Log& log = t.log;
  json gaps_list = json::array(), gaps_ms = json::array();
  for (const IdleGap& g : r.idle.gaps) {
    gaps_ms.push_back(g.ms());
    gaps_list.push_back(json{{"start_ms", log.offset_at(g.start)},
                             {"end_ms", log.offset_at(g.end)},
                             {"ms", g.ms()},
                             {"starved_ms", g.starved_ms}});
  }
  json workers = json::array();
  for (const WorkerStats& w : r.workers) {
    workers.push_back(json{
        {"worker", w.worker},
        {"partitions", w.partitions},
        {"busy_ms", w.busy_ms},
        {"gaps", {{"count", w.gap_count}, {"total_ms", w.gap_total_ms}, {"largest_ms", w.gap_largest_ms}}}});
  }
  json transitions = json::array();
  for (const Transition& x : r.transitions) {
    transitions.push_back(json{{"from_job", log.jobs[x.from_job].id},
                               {"to_job", log.jobs[x.to_job].id},
                               {"prev_second_last_end_ms", opt_offset(log, x.prev_second_last_end)},
                               {"prev_last_end_ms", log.offset_at(x.prev_last_end)},
                               {"next_first_start_ms", log.offset_at(x.next_first_start)},
                               {"delta_ms", x.delta_ms},
                               {"overlap_ms", x.overlap_ms},
                               {"gap_ms", x.gap_ms}});
  }
  json devices = json::array();
  for (const DeviceStats& d : r.device_stats)
    devices.push_back(json{{"device", d.device}, {"utilization", d.utilization}, {"busy_ms", d.busy_ms}});
  json jobs = json::array();
  for (uint32_t j : r.jobs) jobs.push_back(log.jobs[j].id);
  const SynthStats& s = r.synth;
  return json{
      {"index", r.index},
      {"epoch", r.epoch},
      {"start_ms", r.start_ms},
      {"end_ms", r.end_ms},
      {"wall_s", r.wall_s},
      {"proofs", r.proofs},
      {"partitions", r.partitions},
      {"throughput_proofs_per_min", r.throughput_proofs_per_min},
      {"s_per_proof", r.s_per_proof},
      {"steady_s_per_proof", r.steady_s_per_proof ? json(*r.steady_s_per_proof) : json(nullptr)},
      {"device_utilization", r.device_utilization},
      {"device_time_source", r.device_time_source},
      {"worker_overlap", r.worker_overlap},
      {"devices", r.devices},
      {"device_stats", devices},
      {"avg_device_ms_per_partition", r.avg_device_ms_per_partition},
      {"serial_device_s_per_proof", r.serial_device_s_per_proof},
      {"busy_ms", r.busy_ms},
      {"idle_ms", r.idle_ms},
      {"starved_ms", r.starved_ms},
      {"idle_gaps",
       {{"threshold_ms", r.idle.threshold_ms},
        {"count", r.idle.count},
        {"total_ms", r.idle.total_ms},
        {"largest_ms", r.idle.largest_ms},
        {"avg_ms", r.idle.avg_ms},
        {"list_ms", gaps_ms},
        {"list", gaps_list}}},
      {"workers", workers},
      {"transitions", transitions},
      {"synthesis",
       {{"count", s.count},
        {"avg_ms", s.avg_ms},
        {"min_ms", s.min_ms},
        {"max_ms", s.max_ms},
        {"total_ms", s.total_ms},
        {"parallel_avg", s.parallel_avg},
        {"parallel_max", s.parallel_max},
        {"lead_ms", s.lead_ms ? json(*s.lead_ms) : json(nullptr)}}},
      {"concurrency", r.concurrency},
      {"jobs", jobs},
      {"verdict", {{"bottleneck", r.verdict.bottleneck}, {"evidence", r.verdict.evidence}}},
  };
}

nlohmann::ordered_json analysis_json(const Timeline& t) {
  const AnalyzeOptions& o = t.analysis.options;
  json runs = json::array();
  for (const Run& r : t.analysis.runs) runs.push_back(run_json(t, r));
  json jobs = json::array();
  for (const JobRow& r : t.analysis.jobs) jobs.push_back(job_row_json(t.log, r));
  return json{{"log", log_json(t.log)},
              {"options",
               {{"run_gap_s", o.run_gap_s},
                {"idle_gap_ms", o.idle_gap_ms},
                {"workers_per_device", o.workers_per_device},
                {"device_bound_utilization", o.device_bound_utilization},
                {"device_bound_tolerance", o.device_bound_tolerance},
                {"contention_rise", o.contention_rise},
                {"contention_concurrency_rise", o.contention_concurrency_rise},
                {"starved_share", o.starved_share}}},
              {"runs", runs},
              {"jobs", jobs},
              {"job_summary", summary_json(t.analysis.job_summary)},
              {"warnings", t.analysis.warnings.lines()}};
}

}  // namespace cuzk::timeline
