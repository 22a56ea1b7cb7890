// Plain-text tables of the timeline commands.
#include <algorithm>
#include <string>

#include "timeline/format.hpp"
#include "timeline/report.hpp"

namespace cuzk::timeline {
namespace {

std::string job_name(const Log& log, uint32_t j, bool full) {
  return full ? log.jobs[j].id : short_id(log.jobs[j].id);
}

std::string opt_ms(const Log& log, const std::optional<int64_t>& t) {
  return t ? std::to_string(log.offset_at(*t)) : "-";
}
std::string opt_len(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }

std::string dur(double ms) { return human_ms(ms); }

size_t max_width(const std::vector<std::string>& v, size_t at_least) {
  size_t w = at_least;
  for (const auto& s : v) w = std::max(w, s.size());
  return w;
}

}  // namespace

std::vector<TableRow> table_rows(const Log& log, bool by_job) {
  std::vector<TableRow> rows;
  rows.reserve(log.events.size());
  for (const Event& e : log.events)
    rows.push_back(TableRow{e.job, log.name(e), e.epoch, e.offset_ms, std::string(log.detail(e)), e.line});
  if (by_job) {
    // Jobs in order of their first event; a job's events keep time order.
    std::vector<size_t> first(log.jobs.size(), SIZE_MAX);
    for (size_t i = 0; i < rows.size(); i++) first[rows[i].job] = std::min(first[rows[i].job], i);
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const TableRow& a, const TableRow& b) { return first[a.job] < first[b.job]; });
  }
  return rows;
}

std::string format_table(const Log& log, bool by_job, bool full_ids) {
  const auto rows = table_rows(log, by_job);
  const bool epochs = log.epochs() > 1;
  std::vector<std::string> jobs, names;
  for (const auto& r : rows) {
    jobs.push_back(job_name(log, r.job, full_ids));
    names.push_back(r.event);
  }
  const int jw = int(max_width(jobs, 8)), nw = int(max_width(names, 11));
  std::string out;
  out += strf("%-*s %s%-*s %10s  %s\n", jw, "Job", epochs ? "Epoch " : "", nw, "Event", "Time(s)", "Detail");
  out += std::string(size_t(jw + nw + 30 + (epochs ? 6 : 0)), '-') + "\n";
  for (size_t i = 0; i < rows.size(); i++) {
    if (by_job && i > 0 && rows[i].job != rows[i - 1].job) out += "\n";
    std::string ep = epochs ? strf("%5d ", rows[i].epoch) : "";
    out += strf("%-*s %s%-*s %10.3f  %s\n", jw, jobs[i].c_str(), ep.c_str(), nw, names[i].c_str(),
                rows[i].offset_ms / 1000.0, rows[i].detail.c_str());
  }
  out += strf("\n%zu events, %zu jobs, %llu lines read (%llu TIMELINE)\n", rows.size(), log.jobs.size(),
              (unsigned long long)log.lines_total, (unsigned long long)log.lines_timeline);
  return out;
}

std::string format_jobs(const Timeline& t, bool full_ids) {
  const Log& log = t.log;
  const Analysis& a = t.analysis;
  std::vector<std::string> ids;
  for (const auto& r : a.jobs) ids.push_back(job_name(log, r.job, full_ids));
  const int jw = int(max_width(ids, 8));
  std::string out;
  out += strf("%-5s %-*s %3s %5s %12s %12s %9s %12s %12s %9s %9s\n", "#", jw, "Job", "Run", "Parts",
              "Synth start", "Synth end", "Synth ms", "Dev start", "Dev end", "Dev ms", "Idle gap");
  out += std::string(size_t(jw + 100), '-') + "\n";
  for (size_t i = 0; i < a.jobs.size(); i++) {
    const JobRow& r = a.jobs[i];
    out += strf("P%-4zu %-*s %3s %5zu %12s %12s %9s %12s %12s %9s %9s%s\n", i + 1, jw, ids[i].c_str(),
                r.run ? std::to_string(r.run).c_str() : "-", r.partitions, opt_ms(log, r.synth_start).c_str(),
                opt_ms(log, r.synth_end).c_str(), opt_len(r.synth_ms()).c_str(),
                opt_ms(log, r.device_start).c_str(), opt_ms(log, r.device_end).c_str(),
                opt_len(r.device_ms()).c_str(), opt_len(r.idle_gap_ms).c_str(),
                r.cancelled                     ? "  (cancelled)"
                : r.complete || !r.device_start ? ""
                                                : "  (incomplete)");
    if (!r.cold_start.empty()) {
      std::string why;
      for (const auto& c : r.cold_start) why += (why.empty() ? "" : ", ") + c;
      out.back() = ' ';
      out += "(cold start: " + why + ")\n";
    }
  }
  const JobSummary& s = a.job_summary;
  out += "\n";
  out += strf("jobs with device work: %zu of %zu\n", s.jobs, a.jobs.size());
  out += strf("average synthesis: %s   average device: %s   average idle gap: %s\n",
              dur(s.avg_synth_ms).c_str(), dur(s.avg_device_ms).c_str(), dur(s.avg_idle_gap_ms).c_str());
  if (s.steady_synth_ms_per_partition || s.cold_synth_ms_per_partition)
    out += strf("synthesis per partition: steady %s, cold start %s (%zu cold-start job%s)\n",
                s.steady_synth_ms_per_partition ? dur(*s.steady_synth_ms_per_partition).c_str() : "-",
                s.cold_synth_ms_per_partition ? dur(*s.cold_synth_ms_per_partition).c_str() : "-",
                s.cold_jobs, s.cold_jobs == 1 ? "" : "s");
  out += strf("wall (first start to last device end): %.1f s\n", s.wall_ms / 1000.0);
  out += strf("throughput: %.3f proofs/min (%.1f s/proof)\n", s.throughput_proofs_per_min, s.s_per_proof);
  return out;
}

std::string format_analysis(const Timeline& t, const bool full_ids) {
  const Log& log = t.log;
  const Analysis& a = t.analysis;
  std::string out;
  out += strf(
      "%llu lines, %zu events, %zu jobs, %zu epoch(s), %zu run(s) (run gap %.0f s, idle gap > %lld ms)\n",
      (unsigned long long)log.lines_total, log.events.size(), log.jobs.size(), log.epochs(), a.runs.size(),
      a.options.run_gap_s, (long long)a.options.idle_gap_ms);
  for (const Run& r : a.runs) {
    out += strf("\n=== Run %d%s: %.3f s -> %.3f s ===\n", r.index,
                log.epochs() > 1 ? strf(" (epoch %d)", r.epoch).c_str() : "", r.start_ms / 1000.0,
                r.end_ms / 1000.0);
    out += strf("  proofs %zu, partitions %zu, wall %.1f s\n", r.proofs, r.partitions, r.wall_s);
    out += strf("  throughput %.3f proofs/min (%.1f s/proof)", r.throughput_proofs_per_min, r.s_per_proof);
    if (r.steady_s_per_proof) out += strf(", steady %.1f s/proof", *r.steady_s_per_proof);
    out += "\n";
    out += strf("  device utilization %.1f%% (busy %.1f s; %s; %d device%s)\n", r.device_utilization * 100,
                r.busy_ms / 1000.0, r.device_time_source.c_str(), r.devices, r.devices == 1 ? "" : "s");
    if (r.device_stats.size() > 1)
      for (const auto& d : r.device_stats)
        out += strf("    device %d: %.1f%%\n", d.device, d.utilization * 100);
    out += strf("  device time per partition %.0f ms; serial device time %.2f s/proof\n",
                r.avg_device_ms_per_partition, r.serial_device_s_per_proof);
    out += strf(
        "  idle gaps > %lld ms: %zu, total %.1f s, largest %.1f s, avg %.1f s (all idle %.1f s, nothing "
        "waiting %.1f s)\n",
        (long long)r.idle.threshold_ms, r.idle.count, r.idle.total_ms / 1000.0, r.idle.largest_ms / 1000.0,
        r.idle.avg_ms / 1000.0, r.idle_ms / 1000.0, r.starved_ms / 1000.0);
    const size_t show = std::min<size_t>(r.idle.gaps.size(), 12);
    for (size_t i = 0; i < show; i++) {
      const IdleGap& g = r.idle.gaps[i];
      out += strf("    %8.3f s  at %.3f s%s\n", g.ms() / 1000.0, log.offset_at(g.start) / 1000.0,
                  g.starved_ms * 2 >= g.ms() ? "  (nothing waiting)" : "  (work was waiting)");
    }
    if (r.idle.gaps.size() > show) out += strf("    ... %zu more\n", r.idle.gaps.size() - show);
    out += "  workers:\n";
    for (const auto& w : r.workers)
      out += strf("    w%-3d %4zu partitions, busy %.1f s, gaps %zu (total %.1f s, largest %.1f s)\n",
                  w.worker, w.partitions, w.busy_ms / 1000.0, w.gap_count, w.gap_total_ms / 1000.0,
                  w.gap_largest_ms / 1000.0);
    const SynthStats& s = r.synth;
    out += strf("  synthesis: %zu items, avg %s (min %s, max %s), in parallel %.2f avg / %d max", s.count,
                dur(s.avg_ms).c_str(), dur(double(s.min_ms)).c_str(), dur(double(s.max_ms)).c_str(),
                s.parallel_avg, s.parallel_max);
    if (s.lead_ms) out += ", lead " + dur(double(*s.lead_ms));
    out += "\n";
    if (!r.transitions.empty()) {
      out += "  transitions (prev 2nd-last end / last end -> next first start: delta, overlap):\n";
      const size_t n = std::min<size_t>(r.transitions.size(), 12);
      for (size_t i = 0; i < n; i++) {
        const Transition& x = r.transitions[i];
        out += strf(
            "    %s -> %s: %s / %lld -> %lld ms: delta %lld ms, %s %lld ms\n",
            job_name(log, x.from_job, full_ids).c_str(), job_name(log, x.to_job, full_ids).c_str(),
            x.prev_second_last_end ? std::to_string(log.offset_at(*x.prev_second_last_end)).c_str() : "-",
            (long long)log.offset_at(x.prev_last_end), (long long)log.offset_at(x.next_first_start),
            (long long)x.delta_ms, x.overlap_ms > 0 ? "overlap" : "gap",
            (long long)(x.overlap_ms > 0 ? x.overlap_ms : x.gap_ms));
      }
      if (r.transitions.size() > n) out += strf("    ... %zu more\n", r.transitions.size() - n);
    }
    std::string verdict = r.verdict.bottleneck;
    std::transform(verdict.begin(), verdict.end(), verdict.begin(), ::toupper);
    out += "  verdict: " + verdict +
           (r.verdict.bottleneck == "device" || r.verdict.bottleneck == "synthesis" ? "-BOUND" : "") + "\n";
    for (const auto& e : r.verdict.evidence) out += "    - " + e + "\n";
  }
  if (a.runs.empty()) out += "\nno device work (GPU_START..GPU_END) in the log\n";
  const auto w = a.warnings.lines();
  if (!w.empty()) {
    out += strf("\nwarnings (%llu):\n", (unsigned long long)a.warnings.total());
    for (const auto& l : w) out += "  " + l + "\n";
  }
  return out;
}

}  // namespace cuzk::timeline
