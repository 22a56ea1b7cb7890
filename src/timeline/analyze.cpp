#include "timeline/analyze.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "timeline/event_names.hpp"

namespace cuzk::timeline {
namespace {

class RunBuilder {
 public:
  RunBuilder(const Log& log, const Model& m, const AnalyzeOptions& o)
      : log_(log), m_(m), o_(o), wpd_(std::max(1, o.workers_per_device)) {}

  void fill(Run& r, const std::vector<size_t>& idx, const std::vector<int>& job_run) {
    r.start_ms = log_.offset_at(r.start);
    r.end_ms = log_.offset_at(r.end);
    const int64_t wall = r.end - r.start;
    r.wall_s = double(wall) / 1000.0;
    r.partitions = idx.size();
    r.proofs = r.jobs.size();
    if (wall > 0 && r.proofs > 0) {
      r.throughput_proofs_per_min = double(r.proofs) * 60000.0 / double(wall);
      r.s_per_proof = double(wall) / (1000.0 * double(r.proofs));
    }
    busy_and_devices(r, idx);
    idle_and_waiting(r, idx);
    workers(r, idx);
    transitions(r, idx);
    synthesis(r, job_run);
  }

 private:
  void busy_and_devices(Run& r, const std::vector<size_t>& idx) {
    const int64_t wall = r.end - r.start;
    std::vector<Span> all;
    std::map<int, std::vector<Span>> per_device;
    int64_t sum = 0;
    size_t locked = 0;
    for (size_t i : idx) {
      const DeviceWork& d = m_.device[i];
      all.push_back({d.busy_start, d.busy_end});
      per_device[d.worker / wpd_].push_back({d.busy_start, d.busy_end});
      sum += d.busy_ms();
      locked += d.locked;
    }
    for (const Interval& l : m_.stray_locks) {
      if (l.start < r.start || l.end > r.end) continue;
      all.push_back({l.start, l.end});
      per_device[std::max(0, l.worker) / wpd_].push_back({l.start, l.end});
    }
    r.busy = merge_spans(std::move(all));
    r.busy_ms = total_len(r.busy);
    r.device_utilization = wall > 0 ? std::min(1.0, double(r.busy_ms) / double(wall)) : 0.0;
    r.device_time_source = locked == idx.size() ? "interlock" : locked == 0 ? "gpu_start_end" : "mixed";
    r.worker_overlap = r.busy_ms > 0 ? double(sum) / double(r.busy_ms) : 1.0;
    for (auto& [dev, spans] : per_device) {
      auto u = merge_spans(std::move(spans));
      DeviceStats s;
      s.device = dev;
      s.busy_ms = total_len(u);
      s.utilization = wall > 0 ? std::min(1.0, double(s.busy_ms) / double(wall)) : 0.0;
      r.device_stats.push_back(s);
    }
    r.devices = std::max<int>(1, int(r.device_stats.size()));
    if (!idx.empty()) r.avg_device_ms_per_partition = double(sum) / double(idx.size());
    if (r.proofs > 0) r.serial_device_s_per_proof = double(sum) / (1000.0 * r.devices * double(r.proofs));
  }

  void idle_and_waiting(Run& r, const std::vector<size_t>& idx) {
    std::vector<Span> waiting;
    size_t known = 0;
    for (size_t i : idx) {
      const DeviceWork& d = m_.device[i];
      known += d.ready_known;
      if (d.ready_known && d.ready < d.busy_start) waiting.push_back({d.ready, d.busy_start});
    }
    r.waiting = merge_spans(std::move(waiting));
    r.ready_known = !idx.empty() && known * 2 >= idx.size();

    const auto idle = complement(r.busy, Span{r.start, r.end});
    r.idle_ms = total_len(idle);
    r.idle.threshold_ms = o_.idle_gap_ms;
    for (const Span& s : idle) {
      int64_t starved = s.len() - overlap_len(r.waiting, s);
      r.starved_ms += starved;
      if (s.len() > o_.idle_gap_ms) r.idle.gaps.push_back(IdleGap{s.start, s.end, starved});
    }
    r.idle.count = r.idle.gaps.size();
    for (const IdleGap& g : r.idle.gaps) {
      r.idle.total_ms += g.ms();
      r.idle.largest_ms = std::max(r.idle.largest_ms, g.ms());
    }
    if (r.idle.count) r.idle.avg_ms = double(r.idle.total_ms) / double(r.idle.count);
  }

  void workers(Run& r, const std::vector<size_t>& idx) {
    std::map<int, std::vector<size_t>> by_worker;
    for (size_t i : idx) by_worker[m_.device[i].worker].push_back(i);
    for (auto& [w, list] : by_worker) {
      WorkerStats s;
      s.worker = w;
      s.partitions = list.size();
      for (size_t k = 0; k < list.size(); k++) {
        const DeviceWork& d = m_.device[list[k]];
        s.busy_ms += d.busy_ms();
        if (k == 0) continue;
        int64_t g = d.start - m_.device[list[k - 1]].end;
        if (g <= 0) continue;
        s.gap_count++;
        s.gap_total_ms += g;
        s.gap_largest_ms = std::max(s.gap_largest_ms, g);
      }
      r.workers.push_back(s);
    }
  }

  void transitions(Run& r, const std::vector<size_t>& idx) {
    std::map<uint32_t, std::vector<int64_t>> ends;
    std::map<uint32_t, int64_t> first;
    for (size_t i : idx) {
      const DeviceWork& d = m_.device[i];
      ends[d.job].push_back(d.end);
      first.try_emplace(d.job, d.start);
    }
    std::vector<int64_t> last_ends;
    for (size_t j = 0; j < r.jobs.size(); j++) {
      auto& e = ends[r.jobs[j]];
      std::sort(e.begin(), e.end());
      last_ends.push_back(e.back());
      if (j == 0) continue;
      const auto& pe = ends[r.jobs[j - 1]];
      Transition t;
      t.from_job = r.jobs[j - 1];
      t.to_job = r.jobs[j];
      t.prev_last_end = pe.back();
      if (pe.size() >= 2) t.prev_second_last_end = pe[pe.size() - 2];
      t.next_first_start = first[r.jobs[j]];
      t.delta_ms = t.next_first_start - t.prev_second_last_end.value_or(t.prev_last_end);
      t.overlap_ms = std::max<int64_t>(0, t.prev_last_end - t.next_first_start);
      t.gap_ms = std::max<int64_t>(0, t.next_first_start - t.prev_last_end);
      r.transitions.push_back(t);
    }
    if (last_ends.size() >= 2) {
      auto [lo, hi] = std::minmax_element(last_ends.begin(), last_ends.end());
      r.steady_s_per_proof = double(*hi - *lo) / (1000.0 * double(last_ends.size() - 1));
    }
  }

  void synthesis(Run& r, const std::vector<int>& job_run) {
    SynthStats& s = r.synth;
    int64_t first_start = INT64_MAX;
    std::vector<std::pair<int64_t, int>> edges;  // clipped to the run window
    int64_t inside = 0;
    for (const Interval& iv : m_.synth) {
      if (iv.start >= r.end) break;
      if (job_run[iv.job] == r.index - 1) {
        int64_t ms = iv.end - iv.start;
        if (s.count == 0) s.min_ms = s.max_ms = ms;
        s.count++;
        s.total_ms += ms;
        s.min_ms = std::min(s.min_ms, ms);
        s.max_ms = std::max(s.max_ms, ms);
        first_start = std::min(first_start, iv.start);
      }
      int64_t a = std::max(iv.start, r.start), b = std::min(iv.end, r.end);
      if (b > a) {
        inside += b - a;
        edges.push_back({a, +1});
        edges.push_back({b, -1});
      }
    }
    if (s.count) s.avg_ms = double(s.total_ms) / double(s.count);
    if (first_start <= r.start) s.lead_ms = r.start - first_start;
    const int64_t wall = r.end - r.start;
    if (wall > 0) s.parallel_avg = double(inside) / double(wall);
    std::sort(edges.begin(), edges.end());  // ends (-1) before starts at the same time
    int cur = 0;
    for (auto& [t, d] : edges) s.parallel_max = std::max(s.parallel_max, cur += d);
    r.concurrency = s.parallel_avg;
  }

  const Log& log_;
  const Model& m_;
  const AnalyzeOptions& o_;
  const int wpd_;
};

void job_rows(const Log& log, const Model& m, const std::vector<int>& job_run, Analysis& a) {
  std::vector<JobRow> rows(log.jobs.size());
  for (uint32_t j = 0; j < rows.size(); j++) {
    rows[j].job = j;
    rows[j].run = job_run[j] + 1;
  }
  for (const Interval& s : m.synth) {
    JobRow& r = rows[s.job];
    r.synth_start = std::min(r.synth_start.value_or(s.start), s.start);
    r.synth_end = std::max(r.synth_end.value_or(s.end), s.end);
  }
  for (const DeviceWork& d : m.device) {
    JobRow& r = rows[d.job];
    r.device_start = std::min(r.device_start.value_or(d.start), d.start);
    r.device_end = std::max(r.device_end.value_or(d.end), d.end);
    r.device_busy_ms += d.busy_ms();
    r.partitions++;
  }
  for (JobRow& r : rows) r.complete = r.partitions > 0 && m.open_per_job[r.job] == 0;
  for (const Event& e : log.events) {
    if (e.kind == EventKind::kSynthEnd) {
      if (log.detail(e).find("pce=1") != std::string_view::npos) rows[e.job].pce_partitions++;
      continue;
    }
    const std::string& n = log.name(e);
    if (n == events::kCancel) rows[e.job].cancelled = true;
    const char* why = n == events::kSrsLoadStart      ? "srs_load"
                      : n == events::kPceLoadStart    ? "pce_load"
                      : n == events::kPceExtractStart ? "pce_extract"
                                                      : nullptr;
    auto& c = rows[e.job].cold_start;
    if (why && std::find(c.begin(), c.end(), why) == c.end()) c.push_back(why);
  }
  // Jobs synthesized by the gadgets before the log's first partition through
  // pre-compiled constraints paid for the PCE not being ready yet.
  int64_t first_pce = INT64_MAX;
  for (const Event& e : log.events)
    if (e.kind == EventKind::kSynthEnd && log.detail(e).find("pce=1") != std::string_view::npos) {
      first_pce = e.t;
      break;
    }
  for (JobRow& r : rows)
    if (r.pce_partitions == 0 && r.synth_end && *r.synth_end < first_pce && first_pce != INT64_MAX)
      r.cold_start.push_back("gadgets");
  {
    double sum[2] = {0, 0};
    size_t n[2] = {0, 0};
    for (const Interval& iv : m.synth) {
      const bool cold = !rows[iv.job].cold_start.empty();
      sum[cold] += double(iv.end - iv.start);
      n[cold]++;
    }
    if (n[0]) a.job_summary.steady_synth_ms_per_partition = sum[0] / double(n[0]);
    if (n[1]) a.job_summary.cold_synth_ms_per_partition = sum[1] / double(n[1]);
  }
  // Jobs seen only in non-pairing events (SRS loads, ...) have no row.
  std::erase_if(rows, [](const JobRow& r) { return !r.synth_start && !r.device_start; });
  for (const JobRow& r : rows) a.job_summary.cold_jobs += !r.cold_start.empty();
  std::stable_sort(rows.begin(), rows.end(), [](const JobRow& x, const JobRow& y) {
    if (x.device_start.has_value() != y.device_start.has_value()) return x.device_start.has_value();
    if (x.device_start) return *x.device_start < *y.device_start;
    return x.synth_start.value_or(0) < y.synth_start.value_or(0);
  });
  int prev_run = 0;
  int64_t max_end = 0;
  JobSummary& s = a.job_summary;
  int64_t first = INT64_MAX, last = INT64_MIN;
  double synth_sum = 0, dev_sum = 0, gap_sum = 0;
  size_t synth_n = 0, gap_n = 0;
  for (JobRow& r : rows) {
    if (!r.device_start) continue;
    if (r.run == prev_run) r.idle_gap_ms = std::max<int64_t>(0, *r.device_start - max_end);
    max_end = r.run == prev_run ? std::max(max_end, *r.device_end) : *r.device_end;
    prev_run = r.run;
    s.jobs++;
    dev_sum += double(*r.device_ms());
    if (auto ms = r.synth_ms()) synth_sum += double(*ms), synth_n++;
    if (r.idle_gap_ms) gap_sum += double(*r.idle_gap_ms), gap_n++;
    first = std::min(first, r.synth_start.value_or(*r.device_start));
    first = std::min(first, *r.device_start);
    last = std::max(last, *r.device_end);
  }
  if (s.jobs) {
    s.avg_device_ms = dev_sum / double(s.jobs);
    s.wall_ms = last - first;
    if (s.wall_ms > 0) {
      s.throughput_proofs_per_min = double(s.jobs) * 60000.0 / double(s.wall_ms);
      s.s_per_proof = double(s.wall_ms) / (1000.0 * double(s.jobs));
    }
  }
  if (synth_n) s.avg_synth_ms = synth_sum / double(synth_n);
  if (gap_n) s.avg_idle_gap_ms = gap_sum / double(gap_n);
  a.jobs = std::move(rows);
}

}  // namespace

Analysis analyze(const Log& log, const Model& m, const AnalyzeOptions& opts) {
  Analysis a;
  a.options = opts;
  a.warnings = log.warnings;
  a.warnings.merge(m.warnings);
  const int64_t run_gap = std::llround(opts.run_gap_s * 1000.0);

  std::vector<int> dev_run(m.device.size());
  std::vector<std::vector<size_t>> idx;
  int64_t cur_end = 0;
  for (size_t i = 0; i < m.device.size(); i++) {
    const DeviceWork& d = m.device[i];
    const int epoch = log.jobs[d.job].epoch;
    if (a.runs.empty() || epoch != a.runs.back().epoch || d.start - cur_end > run_gap) {
      Run r;
      r.index = int(a.runs.size()) + 1;
      r.epoch = epoch;
      r.start = d.start;
      r.end = d.end;
      a.runs.push_back(r);
      idx.emplace_back();
      cur_end = d.end;
    }
    Run& r = a.runs.back();
    cur_end = std::max(cur_end, d.end);
    r.end = cur_end;
    idx.back().push_back(i);
    dev_run[i] = r.index - 1;
  }

  std::vector<int> job_run(log.jobs.size(), -1);
  for (size_t i = 0; i < m.device.size(); i++) {
    uint32_t j = m.device[i].job;
    if (job_run[j] < 0) {
      job_run[j] = dev_run[i];
      a.runs[size_t(dev_run[i])].jobs.push_back(j);
    }
  }

  RunBuilder b(log, m, opts);
  for (size_t r = 0; r < a.runs.size(); r++) b.fill(a.runs[r], idx[r], job_run);
  assign_verdicts(a.runs, opts);
  job_rows(log, m, job_run, a);
  return a;
}

Timeline build_timeline(Log log, const AnalyzeOptions& opts) {
  Timeline t;
  t.log = std::move(log);
  t.model = build_model(t.log);
  t.analysis = analyze(t.log, t.model, opts);
  return t;
}

}  // namespace cuzk::timeline
