// The bottleneck verdict of a run, with the numbers that decided it.
// Rules, in order (docs/TIMELINE.md, "Verdict rules"):
//   contention  device time per partition at least `contention_rise` above the
//               run with the lowest synthesis parallelism, while this run's
//               parallelism is at least `contention_concurrency_rise` higher;
//   device      utilization >= `device_bound_utilization` and s/proof within
//               `device_bound_tolerance` of the serial device time per proof;
//   synthesis   utilization below that, and for at least `starved_share` of
//               the idle time no synthesized partition was waiting;
//   undetermined otherwise, saying why.
#include <cmath>

#include "timeline/analyze.hpp"
#include "timeline/format.hpp"

namespace cuzk::timeline {
namespace {

const Run* contention_baseline(const std::vector<Run>& runs) {
  const Run* best = nullptr;
  for (const Run& r : runs) {
    if (r.partitions < 2 || r.avg_device_ms_per_partition <= 0) continue;
    if (!best || r.concurrency < best->concurrency) best = &r;
  }
  return best;
}

// Serial device time can be compared with throughput only when the device
// time is the time the device was held: interlock events, or workers that
// never overlap.
bool serial_is_firm(const Run& r) { return r.device_time_source == "interlock" || r.worker_overlap <= 1.05; }

std::string source_line(const Run& r) {
  if (r.device_time_source == "interlock") return "device time = GPU_LOCK..GPU_UNLOCK (interlock held)";
  std::string s = r.device_time_source == "mixed"
                      ? "device time = GPU_LOCK..GPU_UNLOCK where logged, else GPU_START..GPU_END"
                      : "device time = GPU_START..GPU_END (no interlock events in the log)";
  if (r.worker_overlap > 1.05)
    s += strf("; workers overlap x%.2f, so it includes waiting for the interlock", r.worker_overlap);
  return s;
}

}  // namespace

void assign_verdicts(std::vector<Run>& runs, const AnalyzeOptions& o) {
  const Run* base = contention_baseline(runs);
  const int base_index = base ? base->index : 0;
  const double base_conc = base ? base->concurrency : 0;
  const double base_dev = base ? base->avg_device_ms_per_partition : 0;

  for (Run& r : runs) {
    Verdict v;
    auto& ev = v.evidence;
    const double util = r.device_utilization;
    const double ratio = r.serial_device_s_per_proof > 0 ? r.s_per_proof / r.serial_device_s_per_proof : 0;
    const std::string util_s = strf("device utilization %.1f%%", util * 100);
    const std::string perf_s =
        strf("%.2f s/proof measured; serial device time %.2f s/proof (%.0f ms per partition, %d device%s)",
             r.s_per_proof, r.serial_device_s_per_proof, r.avg_device_ms_per_partition, r.devices,
             r.devices == 1 ? "" : "s");

    const bool contended = base && base_index != r.index && base_dev > 0 && r.concurrency > base_conc &&
                           r.concurrency >= base_conc * (1 + o.contention_concurrency_rise) &&
                           r.avg_device_ms_per_partition >= base_dev * (1 + o.contention_rise);
    const bool device_busy = util >= o.device_bound_utilization;
    const bool serial_match = std::fabs(ratio - 1) <= o.device_bound_tolerance;
    const double starved_share = r.idle_ms > 0 ? double(r.starved_ms) / double(r.idle_ms) : 0;

    if (r.partitions == 0) {
      ev.push_back("no device work in this run");
    } else if (contended) {
      v.bottleneck = "contention";
      ev.push_back(strf("device time per partition %.0f ms vs %.0f ms in run %d (%+.1f%%; rule: >= +%.0f%%)",
                        r.avg_device_ms_per_partition, base_dev, base_index,
                        (r.avg_device_ms_per_partition / base_dev - 1) * 100, o.contention_rise * 100));
      ev.push_back(
          strf("partitions in synthesis %.2f on average vs %.2f in run %d (rule: >= +%.0f%%): "
               "the device slows down as more synthesis runs beside it (memory bandwidth)",
               r.concurrency, base_conc, base_index, o.contention_concurrency_rise * 100));
      ev.push_back(util_s);
      ev.push_back(perf_s);
      if (!serial_is_firm(r))
        ev.push_back(
            "caveat: without GPU_LOCK events the device time includes interlock wait, which also grows with "
            "load");
    } else if (device_busy && (serial_match || !serial_is_firm(r))) {
      v.bottleneck = "device";
      ev.push_back(util_s + strf(" (rule: >= %.0f%%)", o.device_bound_utilization * 100));
      if (serial_is_firm(r)) {
        ev.push_back(strf(
            "%.2f s/proof measured vs %.2f s serial device time per proof (%+.1f%%; rule: within %.0f%%)",
            r.s_per_proof, r.serial_device_s_per_proof, (ratio - 1) * 100, o.device_bound_tolerance * 100));
      } else {
        ev.push_back(
            "serial device time not measurable (no interlock events, workers overlap): utilization decides");
        ev.push_back(perf_s);
      }
      if (r.idle.count)
        ev.push_back(strf("%zu idle gap(s) > %lld ms, %.1f s in total", r.idle.count,
                          (long long)r.idle.threshold_ms, r.idle.total_ms / 1000.0));
    } else if (!device_busy && r.ready_known && r.idle_ms > 0 && starved_share >= o.starved_share) {
      v.bottleneck = "synthesis";
      ev.push_back(util_s + strf(" (rule: < %.0f%%)", o.device_bound_utilization * 100));
      ev.push_back(strf(
          "device idle %.1f s of %.1f s wall; for %.1f s of it (%.0f%%) no synthesized partition was waiting "
          "(rule: >= %.0f%%)",
          r.idle_ms / 1000.0, r.wall_s, r.starved_ms / 1000.0, starved_share * 100, o.starved_share * 100));
      if (r.idle.count)
        ev.push_back(strf("%zu idle gap(s) > %lld ms: %.1f s in total, largest %.1f s", r.idle.count,
                          (long long)r.idle.threshold_ms, r.idle.total_ms / 1000.0,
                          r.idle.largest_ms / 1000.0));
      if (r.synth.count)
        ev.push_back(
            strf("synthesis %s per item on average (%zu items, %.2f in parallel on average, max %d) vs %.0f "
                 "ms device time per partition",
                 human_ms(r.synth.avg_ms).c_str(), r.synth.count, r.synth.parallel_avg, r.synth.parallel_max,
                 r.avg_device_ms_per_partition));
      ev.push_back(perf_s);
    } else {
      if (device_busy) {
        ev.push_back(
            util_s +
            strf(", but %.2f s/proof is %+.1f%% from the %.2f s serial device time (rule: within %.0f%%)",
                 r.s_per_proof, (ratio - 1) * 100, r.serial_device_s_per_proof,
                 o.device_bound_tolerance * 100));
      } else if (!r.ready_known) {
        ev.push_back(util_s +
                     "; no GPU_QUEUE/SYNTH_END events tell when work was ready, so an idle device cannot be "
                     "blamed on synthesis");
      } else {
        ev.push_back(
            util_s +
            strf("; device idle %.1f s, and for %.1f s of it (%.0f%%) partitions were waiting: "
                 "the workers, not synthesis, left the device idle (dispatch, CPU tail, interlock hand-over)",
                 r.idle_ms / 1000.0, (r.idle_ms - r.starved_ms) / 1000.0, (1 - starved_share) * 100));
      }
      ev.push_back(perf_s);
    }
    ev.push_back(source_line(r));
    if (base && base_index == r.index && runs.size() > 1)
      ev.push_back(strf("baseline for the contention rule (lowest synthesis parallelism, %.2f)", base_conc));
    r.verdict = std::move(v);
  }
}

}  // namespace cuzk::timeline
