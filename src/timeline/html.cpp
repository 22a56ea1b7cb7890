// A self-contained HTML report: summary cards, the waterfall, and the tables
// of `analyze` and `jobs`. No script, no external resource. Fits a 1280 px
// window without scrolling sideways: the picture scales down to the page's
// width and column headings wrap.
#include <algorithm>

#include "timeline/format.hpp"
#include "timeline/report.hpp"

namespace cuzk::timeline {
namespace {

const char* kStyle = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px 32px;color:#23272e;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #dde2e8;padding-bottom:4px}
.meta{color:#5f6875;font-size:13px;margin:0 0 16px}
.cards{display:flex;flex-wrap:wrap;gap:12px}
.card{background:#fff;border:1px solid #dde2e8;border-left:5px solid #757575;border-radius:6px;padding:10px 14px;min-width:250px}
.card.device{border-left-color:#2e7d32}.card.synthesis{border-left-color:#e65100}
.card.contention{border-left-color:#6a1b9a}
.card h3{margin:0 0 6px;font-size:14px}
.big{font-size:20px;font-weight:bold}
.small{font-size:12px;color:#5f6875}
.badge{display:inline-block;border-radius:10px;padding:1px 8px;font-size:12px;color:#fff;background:#757575}
.badge.device{background:#2e7d32}.badge.synthesis{background:#e65100}.badge.contention{background:#6a1b9a}
figure{margin:16px 0;background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:8px;overflow-x:auto}
figure svg{display:block;max-width:100%;height:auto}
.tw{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:12px;background:#fff}
th,td{border:1px solid #dde2e8;padding:3px 6px;text-align:right;white-space:nowrap}
th{white-space:normal;vertical-align:bottom}
th{background:#eef2f7}
td.l,th.l{text-align:left}
ul.ev{margin:4px 0 12px;font-size:13px}
.warn{font-size:12px;color:#8a4b00}
)";

std::string cell(const std::string& s, bool left = false) {
  return std::string(left ? "<td class='l'>" : "<td>") + xml_escape(s) + "</td>";
}
std::string opt_cell(const Log& log, const std::optional<int64_t>& t, bool offset) {
  if (!t) return cell("-");
  return cell(std::to_string(offset ? log.offset_at(*t) : *t));
}

}  // namespace

std::string render_html(const Timeline& t, const HtmlOptions& o) {
  const Log& log = t.log;
  const Analysis& a = t.analysis;
  std::string title = o.title.empty() ? "cuzk timeline report" : o.title;
  std::string h;
  h += "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>" + xml_escape(title) +
       "</title><style>" + kStyle + "</style></head><body>\n";
  h += "<h1>" + xml_escape(title) + "</h1>\n";
  h += "<p class='meta'>" + (o.source.empty() ? std::string() : xml_escape(o.source) + " · ") +
       strf(
           "%llu lines, %zu events, %zu jobs, %zu run(s), %zu daemon start(s), %llu warning(s) · run gap "
           "%.0f s, "
           "idle gaps longer than %lld ms",
           (unsigned long long)log.lines_total, log.events.size(), log.jobs.size(), a.runs.size(),
           log.epochs(), (unsigned long long)a.warnings.total(), a.options.run_gap_s,
           (long long)a.options.idle_gap_ms) +
       "</p>\n";

  // Cards.
  h += "<div class='cards'>\n";
  for (const Run& r : a.runs) {
    const std::string& v = r.verdict.bottleneck;
    h += "<div class='card " + v + "'><h3>Run " + std::to_string(r.index) + " <span class='badge " + v +
         "'>" + v + "</span></h3>";
    h += strf(
        "<div class='big'>%.1f s/proof</div><div class='small'>%.3f proofs/min · %zu proofs · %zu partitions "
        "· "
        "%.1f s wall</div>",
        r.s_per_proof, r.throughput_proofs_per_min, r.proofs, r.partitions, r.wall_s);
    h += strf(
        "<div class='small'>device utilization <b>%.1f%%</b> · %.0f ms per partition · serial %.2f "
        "s/proof</div>",
        r.device_utilization * 100, r.avg_device_ms_per_partition, r.serial_device_s_per_proof);
    h += "</div>\n";
  }
  h += "</div>\n";

  SvgOptions so = o.svg;
  if (so.title.empty()) so.title = title;
  h += "<figure>\n" + render_svg(t, so) + "</figure>\n";

  // Runs table.
  h += "<h2>Runs</h2>\n<div class='tw'><table><tr><th>run</th><th>start s</th><th>end s</th><th>wall "
       "s</th><th>proofs</th>"
       "<th>partitions</th><th>proofs/min</th><th>s/proof</th><th>steady s/proof</th><th>utilization</th>"
       "<th>device ms/partition</th><th>serial s/proof</th><th>idle gaps</th><th>idle total s</th>"
       "<th>largest s</th><th>synthesis parallel</th><th class='l'>device time</th><th "
       "class='l'>verdict</th></tr>\n";
  for (const Run& r : a.runs) {
    h += "<tr>" + cell(std::to_string(r.index)) + cell(strf("%.3f", r.start_ms / 1000.0)) +
         cell(strf("%.3f", r.end_ms / 1000.0)) + cell(strf("%.1f", r.wall_s)) +
         cell(std::to_string(r.proofs)) + cell(std::to_string(r.partitions)) +
         cell(strf("%.3f", r.throughput_proofs_per_min)) + cell(strf("%.2f", r.s_per_proof)) +
         cell(r.steady_s_per_proof ? strf("%.2f", *r.steady_s_per_proof) : "-") +
         cell(strf("%.1f%%", r.device_utilization * 100)) +
         cell(strf("%.0f", r.avg_device_ms_per_partition)) + cell(strf("%.2f", r.serial_device_s_per_proof)) +
         cell(std::to_string(r.idle.count)) + cell(strf("%.1f", r.idle.total_ms / 1000.0)) +
         cell(strf("%.1f", r.idle.largest_ms / 1000.0)) + cell(strf("%.2f", r.concurrency)) +
         cell(r.device_time_source, true) + cell(r.verdict.bottleneck, true) + "</tr>\n";
  }
  h += "</table></div>\n";

  h += "<h2>Verdicts</h2>\n";
  for (const Run& r : a.runs) {
    h += "<div><b>Run " + std::to_string(r.index) + "</b> <span class='badge " + r.verdict.bottleneck + "'>" +
         r.verdict.bottleneck + "</span><ul class='ev'>";
    for (const auto& e : r.verdict.evidence) h += "<li>" + xml_escape(e) + "</li>";
    h += "</ul></div>\n";
  }

  h +=
      "<h2>Idle gaps and workers</h2>\n<div class='tw'><table><tr><th>run</th><th>at s</th><th>length ms</th>"
      "<th>nothing waiting ms</th></tr>\n";
  for (const Run& r : a.runs)
    for (const IdleGap& g : r.idle.gaps)
      h += "<tr>" + cell(std::to_string(r.index)) + cell(strf("%.3f", log.offset_at(g.start) / 1000.0)) +
           cell(std::to_string(g.ms())) + cell(std::to_string(g.starved_ms)) + "</tr>\n";
  h += "</table></div>\n<p></p><div "
       "class='tw'><table><tr><th>run</th><th>worker</th><th>partitions</th><th>busy s</th><th>gaps</th>"
       "<th>gap total s</th><th>largest gap s</th></tr>\n";
  for (const Run& r : a.runs)
    for (const WorkerStats& w : r.workers)
      h += "<tr>" + cell(std::to_string(r.index)) + cell(std::to_string(w.worker)) +
           cell(std::to_string(w.partitions)) + cell(strf("%.1f", w.busy_ms / 1000.0)) +
           cell(std::to_string(w.gap_count)) + cell(strf("%.1f", w.gap_total_ms / 1000.0)) +
           cell(strf("%.1f", w.gap_largest_ms / 1000.0)) + "</tr>\n";
  h += "</table></div>\n";

  h += "<h2>Transitions between jobs</h2>\n<div class='tw'><table><tr><th>run</th><th class='l'>from</th><th "
       "class='l'>to</th>"
       "<th>prev 2nd-last end ms</th><th>prev last end ms</th><th>next first start ms</th><th>delta ms</th>"
       "<th>overlap ms</th><th>gap ms</th></tr>\n";
  for (const Run& r : a.runs)
    for (const Transition& x : r.transitions)
      h += "<tr>" + cell(std::to_string(r.index)) + cell(short_id(log.jobs[x.from_job].id), true) +
           cell(short_id(log.jobs[x.to_job].id), true) + opt_cell(log, x.prev_second_last_end, true) +
           cell(std::to_string(log.offset_at(x.prev_last_end))) +
           cell(std::to_string(log.offset_at(x.next_first_start))) + cell(std::to_string(x.delta_ms)) +
           cell(std::to_string(x.overlap_ms)) + cell(std::to_string(x.gap_ms)) + "</tr>\n";
  h += "</table></div>\n";

  h +=
      "<h2>Jobs</h2>\n<div class='tw'><table><tr><th>#</th><th "
      "class='l'>job</th><th>run</th><th>partitions</th><th>synth start ms</th>"
      "<th>synth end ms</th><th>synth ms</th><th>device start ms</th><th>device end ms</th><th>device ms</th>"
      "<th>idle gap ms</th></tr>\n";
  for (size_t i = 0; i < a.jobs.size(); i++) {
    const JobRow& r = a.jobs[i];
    h += "<tr>" + cell(strf("P%zu", i + 1)) + cell(log.jobs[r.job].id, true) +
         cell(r.run ? std::to_string(r.run) : "-") + cell(std::to_string(r.partitions)) +
         opt_cell(log, r.synth_start, true) + opt_cell(log, r.synth_end, true) +
         opt_cell(log, r.synth_ms(), false) + opt_cell(log, r.device_start, true) +
         opt_cell(log, r.device_end, true) + opt_cell(log, r.device_ms(), false) +
         opt_cell(log, r.idle_gap_ms, false) + "</tr>\n";
  }
  h += "</table></div>\n";
  const JobSummary& s = a.job_summary;
  h += strf(
      "<p class='small'>average synthesis %s · average device %s · average idle gap %s · "
      "%.3f proofs/min (%.1f s/proof) over %.1f s</p>\n",
      human_ms(s.avg_synth_ms).c_str(), human_ms(s.avg_device_ms).c_str(),
      human_ms(s.avg_idle_gap_ms).c_str(), s.throughput_proofs_per_min, s.s_per_proof, s.wall_ms / 1000.0);

  const auto w = a.warnings.lines();
  h += strf("<h2>Warnings (%llu)</h2>\n", (unsigned long long)a.warnings.total());
  if (w.empty()) h += "<p class='small'>none</p>\n";
  else {
    h += "<ul class='warn'>";
    for (const auto& l : w) h += "<li>" + xml_escape(l) + "</li>";
    h += "</ul>\n";
  }
  h += "</body></html>\n";
  return h;
}

}  // namespace cuzk::timeline
