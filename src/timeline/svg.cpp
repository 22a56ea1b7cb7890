// The waterfall picture: one lane per device worker with a bar per partition
// (coloured by job, labelled by partition), a utilization strip, idle gaps
// hatched over the device lanes, strips for work waiting and synthesis in
// flight, and packed synthesis lanes. Plain SVG 1.1, no script.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "timeline/format.hpp"
#include "timeline/report.hpp"

namespace cuzk::timeline {
namespace {

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948",
                                    "#9c755f", "#ff9da7", "#2f4b7c", "#86bcb6", "#8cd17d", "#d4a6c8"};
constexpr size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

const char* verdict_color(const std::string& v) {
  if (v == "device") return "#2e7d32";
  if (v == "synthesis") return "#e65100";
  if (v == "contention") return "#6a1b9a";
  return "#757575";
}

size_t glyphs(std::string_view s) {  // UTF-8 code points
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
double text_w(std::string_view s, double font_px) { return double(glyphs(s)) * font_px * 0.58; }

struct Frame {
  int64_t t0, t1;
  double x0, x1;
  double x(int64_t t) const { return x0 + double(t - t0) * (x1 - x0) / double(t1 - t0); }
  double xc(int64_t t) const { return std::clamp(x(t), x0, x1); }
};

// Time-averaged number of spans covering each of `n` equal columns of [t0, t1).
std::vector<double> column_average(const std::vector<Span>& spans, int64_t t0, int64_t t1, int n) {
  std::vector<double> val(size_t(n) + 1, 0.0), diff(size_t(n) + 2, 0.0);
  const double cw = double(t1 - t0) / n;
  for (const Span& s : spans) {
    int64_t a = std::max(s.start, t0), b = std::min(s.end, t1);
    if (b <= a) continue;
    double fa = double(a - t0) / cw, fb = double(b - t0) / cw;
    int ia = std::min(n - 1, int(fa)), ib = std::min(n, int(fb));
    if (ia == ib) {
      val[size_t(ia)] += fb - fa;
      continue;
    }
    val[size_t(ia)] += ia + 1 - fa;
    if (ib < n) val[size_t(ib)] += fb - ib;
    diff[size_t(ia) + 1] += 1;
    diff[size_t(ib)] -= 1;
  }
  double run = 0;
  for (int i = 0; i < n; i++) {
    run += diff[size_t(i)];
    val[size_t(i)] += run;
  }
  val.resize(size_t(n));
  return val;
}

std::string util_color(double f) {
  f = std::clamp(f, 0.0, 1.0);
  const double stops[3][3] = {{214, 39, 40}, {242, 177, 52}, {89, 161, 79}};
  int k = f < 0.5 ? 0 : 1;
  double u = f < 0.5 ? f * 2 : (f - 0.5) * 2;
  int rgb[3];
  for (int i = 0; i < 3; i++) rgb[i] = int(std::lround(stops[k][i] + (stops[k + 1][i] - stops[k][i]) * u));
  return strf("#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

std::string tick_label(int64_t offset, int64_t step) {
  if (step < 1000) return strf("%lld ms", (long long)offset);
  int dec = step % 1000 == 0 ? 0 : step % 100 == 0 ? 1 : 2;
  if (step % 60000 == 0 && offset % 60000 == 0) return strf("%lld min", (long long)(offset / 60000));
  return strf("%.*f s", dec, offset / 1000.0);
}

int64_t nice_step(double span_ms, double target_ticks) {
  double raw = span_ms / std::max(1.0, target_ticks);
  double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return std::max<int64_t>(1, int64_t(m * p));
  return std::max<int64_t>(1, int64_t(10 * p));
}

// A step-shaped area of `vals` (one per column of width cw), base line y0.
std::string area_path(const std::vector<double>& vals, double x0, double cw, double y0, double scale) {
  std::string d = strf("M%.1f %.1f", x0, y0);
  double last = -1;
  for (size_t i = 0; i < vals.size(); i++) {
    double y = y0 - vals[i] * scale;
    if (std::fabs(y - last) > 0.05) {
      d += strf("V%.1f", y);
      last = y;
    }
    d += strf("H%.1f", x0 + cw * double(i + 1));
  }
  d += strf("V%.1fZ", y0);
  return d;
}

std::string part_label(const Interval& iv) {
  if (iv.partition < 0) return "job";
  std::string s(1, 'p');
  s += std::to_string(iv.partition);
  return s;
}

// Heights and tops of the picture's bands, top to bottom: run band, axis,
// utilization strip, device lanes, waiting strip, synthesis strip,
// synthesis lanes; the legend and verdicts follow y_content_end.
struct Layout {
  static constexpr double y_runs = 58, y_axis = 96, y_util = 102, y_gaplbl = 130, y_dev = 136, lane_h = 24;
  static constexpr double strip_h = 30, slane_h = 11;
  double dev_h, y_wait, y_synth, y_slanes, y_content_end;

  Layout(size_t device_lanes, size_t synth_lanes_drawn) {
    dev_h = double(std::max<size_t>(1, device_lanes)) * lane_h;
    y_wait = y_dev + dev_h + 14;
    y_synth = y_wait + strip_h + 12;
    y_slanes = y_synth + strip_h + 8;
    y_content_end = y_slanes + double(synth_lanes_drawn) * slane_h;
  }
};

// The shown time range: the window asked for, else one run (with its
// synthesis lead) or the whole log, padded by 1/80 on each side.
std::pair<int64_t, int64_t> time_window(const Model& m, const Run* only, const SvgOptions& o) {
  if (o.window_end > o.window_start) return {o.window_start, o.window_end};
  int64_t t0 = INT64_MAX, t1 = INT64_MIN;
  if (only) {
    t0 = only->start - only->synth.lead_ms.value_or(0);
    t1 = only->end;
  } else {
    for (const auto& d : m.device) t0 = std::min(t0, d.start), t1 = std::max(t1, d.end);
    for (const auto& s : m.synth) t0 = std::min(t0, s.start), t1 = std::max(t1, s.end);
  }
  if (t0 > t1) t0 = 0, t1 = 1000;
  if (t1 - t0 < 10) t1 = t0 + 10;
  const int64_t pad = std::max<int64_t>(1, (t1 - t0) / 80);
  return {t0 - pad, t1 + pad};
}

// Synthesis intervals packed into lanes, first fit in start order.
struct SynthLanes {
  std::vector<const Interval*> spans;  // the visible ones, in start order
  std::vector<size_t> lane;            // per span
  size_t count = 0;                    // lanes needed
};

template <class Visible>
SynthLanes pack_synth_lanes(const std::vector<Interval>& synth, Visible&& visible) {
  SynthLanes out;
  for (const auto& s : synth)
    if (visible(s)) out.spans.push_back(&s);
  std::vector<int64_t> lane_end;
  out.lane.resize(out.spans.size());
  for (size_t i = 0; i < out.spans.size(); i++) {
    size_t k = 0;
    while (k < lane_end.size() && lane_end[k] > out.spans[i]->start) k++;
    if (k == lane_end.size()) lane_end.push_back(0);
    lane_end[k] = out.spans[i]->end;
    out.lane[i] = k;
  }
  out.count = lane_end.size();
  return out;
}

// The document around the drawn elements: size, patterns, gradient, styles.
std::string svg_document(double W, double H, const std::string& body) {
  std::string out;
  out.reserve(body.size() + 2048);
  out += strf(
      "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
      "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'>\n",
      W, H, W, H);
  out += R"(<defs>
<pattern id='starved' patternUnits='userSpaceOnUse' width='7' height='7' patternTransform='rotate(45)'><rect width='7' height='7' fill='#d62728' fill-opacity='0.10'/><line x1='0' y1='0' x2='0' y2='7' stroke='#d62728' stroke-opacity='0.45' stroke-width='2.2'/></pattern>
<pattern id='waited' patternUnits='userSpaceOnUse' width='7' height='7' patternTransform='rotate(45)'><rect width='7' height='7' fill='#ef6c00' fill-opacity='0.10'/><line x1='0' y1='0' x2='0' y2='7' stroke='#ef6c00' stroke-opacity='0.45' stroke-width='2.2'/></pattern>
<linearGradient id='utilgrad'><stop offset='0' stop-color='#d62728'/><stop offset='0.5' stop-color='#f2b134'/><stop offset='1' stop-color='#59a14f'/></linearGradient>
<style>
text{fill:#2b2f36}
.title{font-size:17px;font-weight:bold}
.sub{font-size:12px;fill:#5f6875}
.run{font-size:11px;fill:#24313f}
.tick{font-size:10px;fill:#6b7380;text-anchor:middle}
.grid{stroke:#e3e7ed;stroke-width:1}
.restart{stroke:#6a1b9a;stroke-width:1.2;stroke-dasharray:5 3}
.restartlbl{font-size:10px;fill:#6a1b9a}
.lane{font-size:11px;text-anchor:end}
.dim{fill:#8a929e;font-size:10px}
.bar{stroke:#ffffff;stroke-width:0.6}
.barlbl{font-size:10px;fill:#ffffff;text-anchor:middle;font-weight:bold}
.sbar{fill-opacity:0.62}
.slbl{font-size:8px;fill:#1f2430;text-anchor:middle}
.gaplbl{font-size:10px;text-anchor:middle;font-weight:bold}
.gaplbl.st{fill:#c62828}
.gaplbl.wt{fill:#e65100}
.base{stroke:#c3c9d2;stroke-width:1}
.wait{fill:#8e9bb5;fill-opacity:0.55;stroke:#5b6b8c;stroke-width:0.8}
.syn{fill:#9fc5a8;fill-opacity:0.6;stroke:#4f8a5b;stroke-width:0.8}
.peak{font-size:9px;fill:#6b7380;text-anchor:end}
.note{font-size:11px;fill:#8a929e;font-style:italic}
.legendh{font-size:11px;font-weight:bold}
.legend{font-size:11px}
.verdict{font-size:12px}
.ev{fill:#4a525e;font-size:11px}
</style>
</defs>
)";
  out += strf("<rect width='%.0f' height='%.0f' fill='#ffffff'/>\n", W, H);
  out += body;
  out += "</svg>\n";
  return out;
}

// One picture: the time frame, lanes and layout worked out up front, then
// each part drawn into body_ in document order.
class Waterfall {
 public:
  Waterfall(const Timeline& tl, const SvgOptions& o)
      : log_(tl.log),
        m_(tl.model),
        a_(tl.analysis),
        o_(o),
        only_(o.run >= 1 && size_t(o.run) <= a_.runs.size() && o.window_end <= o.window_start
                  ? &a_.runs[size_t(o.run) - 1]
                  : nullptr),
        W_(std::max(640, o.width)),
        f_(frame(time_window(m_, only_, o), W_)),
        rank_(job_ranks(log_, a_)),
        workers_(device_workers()),
        synth_(pack_synth_lanes(m_.synth, [this](const Interval& iv) { return visible(iv); })),
        draw_synth_lanes_(synth_.count <= size_t(std::max(0, o.max_synth_lanes))),
        y_(workers_.size(), draw_synth_lanes_ ? synth_.count : 0) {
    for (size_t i = 0; i < workers_.size(); i++) lane_of_[workers_[i]] = i;
  }

  std::string render() {
    body_.reserve(1 << 16);
    title();
    run_band();
    axis();
    lane_labels();
    utilization_and_gaps();
    device_bars();
    activity_strips();
    synthesis_lanes();
    double y = legend();
    y = verdicts(y);
    return svg_document(W_, y + 20, body_);
  }

 private:
  static constexpr double L = 124, R = 24;  // left margin (lane labels), right margin

  const Log& log_;
  const Model& m_;
  const Analysis& a_;
  const SvgOptions& o_;
  const Run* only_;  // the run drawn alone, if any
  const double W_;
  const Frame f_;
  const std::vector<size_t> rank_;  // job -> its row in the jobs table (its colour)
  const std::vector<int> workers_;  // device lanes, by worker id
  std::map<int, size_t> lane_of_;   // worker id -> device lane
  const SynthLanes synth_;
  const bool draw_synth_lanes_;
  const Layout y_;
  std::string body_;

  static Frame frame(std::pair<int64_t, int64_t> t, double W) { return Frame{t.first, t.second, L, W - R}; }

  static std::vector<size_t> job_ranks(const Log& log, const Analysis& a) {
    std::vector<size_t> rank(log.jobs.size(), 0);
    for (size_t i = 0; i < a.jobs.size(); i++) rank[a.jobs[i].job] = i;
    return rank;
  }

  std::vector<int> device_workers() const {
    std::set<int> worker_set;
    for (const auto& d : m_.device)
      if (visible(d)) worker_set.insert(d.worker);
    return {worker_set.begin(), worker_set.end()};
  }

  bool visible(const Interval& iv) const { return iv.end > f_.t0 && iv.start < f_.t1; }
  const char* color(uint32_t job) const { return kPalette[rank_[job] % kPaletteSize]; }

  // Title and the counts line under it.
  void title() {
    std::string title = o_.title.empty() ? "cuzk timeline" : o_.title;
    body_ += strf("<text x='%.0f' y='26' class='title'>%s</text>\n", L - 100, xml_escape(title).c_str());
    size_t parts_in_window = 0;
    for (const auto& d : m_.device) parts_in_window += visible(d);
    std::string sub = strf("%zu jobs · %zu partitions on %zu worker%s · %zu run%s", a_.jobs.size(),
                           parts_in_window, workers_.size(), workers_.size() == 1 ? "" : "s", a_.runs.size(),
                           a_.runs.size() == 1 ? "" : "s");
    if (log_.epochs() > 1) sub += strf(" · %zu daemon starts", log_.epochs());
    if (only_) sub += strf(" · showing run %d", only_->index);
    body_ += strf("<text x='%.0f' y='45' class='sub'>%s</text>\n", L - 100, xml_escape(sub).c_str());
  }

  // One box per run with its verdict colour and the longest summary that fits.
  void run_band() {
    const double y_runs = y_.y_runs;
    for (const Run& r : a_.runs) {
      if (r.end <= f_.t0 || r.start >= f_.t1) continue;
      double xa = f_.xc(r.start), xb = f_.xc(r.end), w = std::max(2.0, xb - xa);
      const char* vc = verdict_color(r.verdict.bottleneck);
      std::string vb = r.verdict.bottleneck == "device" || r.verdict.bottleneck == "synthesis"
                           ? r.verdict.bottleneck + "-bound"
                           : r.verdict.bottleneck;
      const std::string cands[] = {
          strf("Run %d · %zu proofs · %.1f s/proof · util %.1f%% · %s", r.index, r.proofs, r.s_per_proof,
               r.device_utilization * 100, vb.c_str()),
          strf("Run %d · util %.1f%% · %s", r.index, r.device_utilization * 100, vb.c_str()),
          strf("R%d · %.0f%%", r.index, r.device_utilization * 100), strf("R%d", r.index)};
      body_ +=
          strf("<rect x='%.1f' y='%.0f' width='%.1f' height='22' rx='4' fill='#eef2f7' stroke='#c9d3df'/>\n",
               xa, y_runs, w);
      body_ += strf("<rect x='%.1f' y='%.0f' width='4' height='22' fill='%s'/>\n", xa, y_runs, vc);
      for (const auto& c : cands) {
        if (text_w(c, 11) <= w - 12) {
          body_ += strf("<text x='%.1f' y='%.0f' class='run'>%s</text>\n", xa + 9, y_runs + 15,
                        xml_escape(c).c_str());
          break;
        }
      }
    }
  }

  // Grid lines with time ticks, and a marker at each daemon restart.
  void axis() {
    const int64_t t0 = f_.t0, t1 = f_.t1;
    const int64_t step = nice_step(double(t1 - t0), (f_.x1 - f_.x0) / 110.0);
    // Ticks on multiples of the step: of the daemon's offsets, or counted back from the end.
    const int64_t first = o_.ticks_before_end ? t1 - (t1 - t0) / step * step : (t0 / step + 1) * step;
    for (int64_t t = first; t < t1 || (o_.ticks_before_end && t == t1); t += step) {
      if (t <= t0) continue;
      double x = f_.x(t);
      body_ += strf("<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.1f' class='grid'/>\n", x, y_.y_util - 2, x,
                    y_.y_content_end);
      body_ += strf("<text x='%.1f' y='%.0f' class='tick'>%s</text>\n", x, y_.y_axis - 4,
                    !o_.ticks_before_end ? tick_label(log_.offset_at(t), step).c_str()
                    : t == t1            ? "now"
                                         : tick_label(t - t1, step).c_str());
    }
    for (size_t e = 1; e < log_.epoch_base.size(); e++) {
      int64_t t = log_.epoch_base[e];
      if (t <= t0 || t >= t1) continue;
      double x = f_.x(t);
      body_ += strf("<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.1f' class='restart'/>\n", x, y_.y_runs - 4, x,
                    y_.y_content_end);
      body_ += strf("<text x='%.1f' y='%.0f' class='restartlbl'>daemon restart</text>\n", x + 3,
                    y_.y_content_end + 12);
    }
  }

  // Lane labels, and the device lanes' alternating backgrounds.
  void lane_labels() {
    body_ += strf("<text x='%.0f' y='%.0f' class='lane'>device busy</text>\n", L - 8, y_.y_util + 11);
    for (size_t i = 0; i < workers_.size(); i++) {
      double y = y_.y_dev + double(i) * y_.lane_h;
      body_ += strf("<rect x='%.0f' y='%.1f' width='%.1f' height='%.0f' fill='%s'/>\n", f_.x0, y,
                    f_.x1 - f_.x0, y_.lane_h, i % 2 ? "#ffffff" : "#f4f6f9");
      int wpd = std::max(1, a_.options.workers_per_device);
      body_ +=
          strf("<text x='%.0f' y='%.1f' class='lane'>worker %d <tspan class='dim'>gpu %d</tspan></text>\n",
               L - 8, y + 16, workers_[i], workers_[i] / wpd);
    }
    body_ +=
        strf("<text x='%.0f' y='%.0f' class='lane'>waiting</text>\n", L - 8, y_.y_wait + y_.strip_h - 10);
    body_ += strf("<text x='%.0f' y='%.0f' class='lane'>synthesizing</text>\n", L - 8,
                  y_.y_synth + y_.strip_h - 10);
    if (draw_synth_lanes_ && synth_.count != 0)
      body_ +=
          strf("<text x='%.0f' y='%.0f' class='lane dim'>synthesis lanes</text>\n", L - 8, y_.y_slanes + 9);
  }

  // Per run: the utilization strip (colour runs of equal 5% steps), and the
  // idle gaps hatched over the device lanes.
  void utilization_and_gaps() {
    const int64_t t0 = f_.t0, t1 = f_.t1;
    for (const Run& r : a_.runs) {
      if (r.end <= t0 || r.start >= t1 || r.end <= r.start) continue;
      double xa = f_.xc(r.start), xb = f_.xc(r.end);
      int cols = std::max(1, int((xb - xa) / 3));
      auto vals = column_average(r.busy, r.start, r.end, cols);
      double cw = (xb - xa) / cols;
      for (int i = 0; i < cols;) {
        std::string c = util_color(std::round(vals[size_t(i)] * 20) / 20);
        int j = i + 1;
        while (j < cols && util_color(std::round(vals[size_t(j)] * 20) / 20) == c) j++;
        body_ += strf("<rect x='%.1f' y='%.0f' width='%.2f' height='14' fill='%s'/>\n", xa + cw * i,
                      y_.y_util, cw * (j - i) + 0.3, c.c_str());
        i = j;
      }
      for (const IdleGap& g : r.idle.gaps) {
        if (g.end <= t0 || g.start >= t1) continue;
        double ga = f_.xc(g.start), gb = f_.xc(g.end);
        bool starved = g.starved_ms * 2 >= g.ms();
        body_ += strf(
            "<rect x='%.1f' y='%.0f' width='%.2f' height='%.0f' fill='url(#%s)' class='gap'><title>idle "
            "%.3f s at %.3f s; nothing waiting for %.3f s of it</title></rect>\n",
            ga, y_.y_dev, std::max(1.0, gb - ga), y_.dev_h, starved ? "starved" : "waited", g.ms() / 1000.0,
            log_.offset_at(g.start) / 1000.0, g.starved_ms / 1000.0);
        std::string lbl = strf("%.1f s", g.ms() / 1000.0);
        if (text_w(lbl, 10) <= gb - ga)
          body_ += strf("<text x='%.1f' y='%.0f' class='gaplbl %s'>%s</text>\n", (ga + gb) / 2, y_.y_gaplbl,
                        starved ? "st" : "wt", lbl.c_str());
      }
    }
  }

  // A bar per partition on its worker's lane: the interlock (or the whole
  // GPU_START..GPU_END) solid, the rest of GPU_START..GPU_END faint.
  void device_bars() {
    for (const DeviceWork& d : m_.device) {
      if (!visible(d)) continue;
      double y = y_.y_dev + double(lane_of_.at(d.worker)) * y_.lane_h + 3;
      double xa = f_.xc(d.start), xb = f_.xc(d.end);
      double ba = f_.xc(d.busy_start), bb = f_.xc(d.busy_end);
      const char* c = color(d.job);
      std::string tip = strf(
          "job %s %s · worker %d · GPU_START %.3f s → GPU_END %.3f s (%lld ms)", log_.jobs[d.job].id.c_str(),
          d.partition >= 0 ? ("partition " + std::to_string(d.partition)).c_str() : "(whole job)", d.worker,
          log_.offset_at(d.start) / 1000.0, log_.offset_at(d.end) / 1000.0, (long long)(d.end - d.start));
      if (d.locked)
        tip += strf(" · interlock held %.3f → %.3f s (%lld ms)", log_.offset_at(d.busy_start) / 1000.0,
                    log_.offset_at(d.busy_end) / 1000.0, (long long)d.busy_ms());
      body_ += "<g><title>" + xml_escape(tip) + "</title>";
      if (d.locked) {
        body_ += strf("<rect x='%.2f' y='%.1f' width='%.2f' height='18' fill='%s' fill-opacity='0.3'/>", xa,
                      y, std::max(0.6, xb - xa), c);
      }
      body_ += strf("<rect x='%.2f' y='%.1f' width='%.2f' height='18' fill='%s' class='bar'/>", ba, y,
                    std::max(0.6, bb - ba), c);
      std::string lbl = part_label(d);
      if (text_w(lbl, 10) + 4 <= bb - ba)
        body_ += strf("<text x='%.1f' y='%.1f' class='barlbl'>%s</text>", (ba + bb) / 2, y + 13, lbl.c_str());
      body_ += "</g>\n";
    }
  }

  // A step area of how many spans are open over time, scaled to its peak.
  void strip(const std::vector<Span>& spans, double y0, const char* cls, const char* what) {
    const double strip_h = y_.strip_h;
    int cols = std::max(1, int((f_.x1 - f_.x0) / 2));
    auto vals = column_average(spans, f_.t0, f_.t1, cols);
    double peak = 0;
    for (double v : vals) peak = std::max(peak, v);
    body_ += strf("<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' class='base'/>\n", f_.x0, y0 + strip_h,
                  f_.x1, y0 + strip_h);
    if (peak <= 0) return;
    body_ +=
        strf("<path d='%s' class='%s'/>\n",
             area_path(vals, f_.x0, (f_.x1 - f_.x0) / cols, y0 + strip_h, (strip_h - 4) / peak).c_str(), cls);
    body_ +=
        strf("<text x='%.0f' y='%.0f' class='peak'>peak %.1f %s</text>\n", f_.x1 - 2, y0 + 8, peak, what);
  }

  // Work waiting for the device, and synthesis in flight.
  void activity_strips() {
    std::vector<Span> waiting, synth_spans;
    for (const DeviceWork& d : m_.device)
      if (d.ready_known && d.ready < d.busy_start) waiting.push_back({d.ready, d.busy_start});
    for (const Interval* s : synth_.spans) synth_spans.push_back({s->start, s->end});
    strip(waiting, y_.y_wait, "wait", "waiting");
    strip(synth_spans, y_.y_synth, "syn", "in synthesis");
  }

  // A thin bar per synthesis on its packed lane, or a note when the lanes
  // would be too many.
  void synthesis_lanes() {
    if (!draw_synth_lanes_) {
      body_ += strf(
          "<text x='%.0f' y='%.0f' class='note'>%zu synthesis lanes needed: too many to draw, see the "
          "strip above</text>\n",
          f_.x0, y_.y_slanes + 10, synth_.count);
      return;
    }
    for (size_t i = 0; i < synth_.spans.size(); i++) {
      const Interval& s = *synth_.spans[i];
      double xa = f_.xc(s.start), xb = f_.xc(s.end);
      double y = y_.y_slanes + double(synth_.lane[i]) * y_.slane_h + 1;
      std::string tip = strf(
          "synthesis of job %s %s: %.3f → %.3f s (%lld ms)", log_.jobs[s.job].id.c_str(),
          s.partition >= 0 ? ("partition " + std::to_string(s.partition)).c_str() : "(whole job)",
          log_.offset_at(s.start) / 1000.0, log_.offset_at(s.end) / 1000.0, (long long)(s.end - s.start));
      body_ +=
          strf("<g><title>%s</title><rect x='%.2f' y='%.1f' width='%.2f' height='9' fill='%s' class='sbar'/>",
               xml_escape(tip).c_str(), xa, y, std::max(0.6, xb - xa), color(s.job));
      std::string lbl = part_label(s);
      if (text_w(lbl, 8) + 4 <= xb - xa)
        body_ += strf("<text x='%.1f' y='%.1f' class='slbl'>%s</text>", (xa + xb) / 2, y + 7.5, lbl.c_str());
      body_ += "</g>\n";
    }
  }

  // Legend: the jobs (wrapped), then the key. Returns the baseline of its
  // last line.
  double legend() {
    double y = y_.y_content_end + (draw_synth_lanes_ ? 30 : 34);
    double x = L - 100;
    body_ += strf("<text x='%.0f' y='%.0f' class='legendh'>jobs</text>\n", x, y);
    x += 40;
    size_t shown = 0;
    for (const JobRow& r : a_.jobs) {
      if (shown == o_.max_legend_jobs) {
        body_ +=
            strf("<text x='%.0f' y='%.0f' class='legend'>+%zu more</text>\n", x, y, a_.jobs.size() - shown);
        break;
      }
      std::string lbl = strf("P%zu %s", shown + 1, short_id(log_.jobs[r.job].id).c_str());
      double w = 16 + text_w(lbl, 11) + 14;
      if (x + w > W_ - R) {
        x = L - 60;
        y += 18;
      }
      body_ += strf(
          "<rect x='%.0f' y='%.0f' width='11' height='11' rx='2' fill='%s'/><text x='%.0f' y='%.0f' "
          "class='legend'>%s</text>\n",
          x, y - 10, kPalette[shown % kPaletteSize], x + 15, y, xml_escape(lbl).c_str());
      x += w;
      shown++;
    }
    y += 22;
    x = L - 100;
    struct Key {
      std::string swatch, text;
    };
    const Key keys[] = {
        {"<rect width='22' height='11' fill='#4e79a7'/>", "device held (interlock, or GPU_START..GPU_END)"},
        {"<rect width='22' height='11' fill='#4e79a7' fill-opacity='0.3'/>", "GPU_START..GPU_END around it"},
        {"<rect width='22' height='11' fill='url(#starved)' stroke='#d62728' stroke-width='0.5'/>",
         "device idle, nothing waiting"},
        {"<rect width='22' height='11' fill='url(#waited)' stroke='#ef6c00' stroke-width='0.5'/>",
         "device idle while work waited"},
        {"<rect width='22' height='11' fill='url(#utilgrad)'/>", "utilization 0 → 100%"},
    };
    for (const Key& k : keys) {
      double w = 30 + text_w(k.text, 11) + 18;
      if (x + w > W_ - R) {
        x = L - 100;
        y += 18;
      }
      body_ +=
          strf("<g transform='translate(%.0f %.0f)'>%s</g><text x='%.0f' y='%.0f' class='legend'>%s</text>\n",
               x, y - 10, k.swatch.c_str(), x + 28, y, xml_escape(k.text).c_str());
      x += w;
    }
    return y;
  }

  // A line per run drawn: its verdict and the first evidence, cut to the
  // width. Starts below y; returns the last line's baseline.
  double verdicts(double y) {
    y += 10;
    for (const Run& r : a_.runs) {
      if (only_ && only_->index != r.index) continue;
      y += 18;
      const std::string& b = r.verdict.bottleneck;
      std::string head =
          strf("Run %d: %s%s", r.index, b.c_str(), b == "device" || b == "synthesis" ? "-bound" : "");
      std::string ev = r.verdict.evidence.empty() ? "" : r.verdict.evidence.front();
      if (r.verdict.evidence.size() > 1) ev += "; " + r.verdict.evidence[1];
      double room = W_ - R - (L - 100) - text_w(head, 12) - 20;
      size_t max_chars = size_t(std::max(10.0, room / (11 * 0.58)));
      if (glyphs(ev) > max_chars) {
        size_t cut = max_chars - 1;  // bytes; step back off a UTF-8 continuation byte
        while (cut > 0 && (static_cast<unsigned char>(ev[cut]) & 0xC0) == 0x80) cut--;
        ev = ev.substr(0, cut) + "…";
      }
      body_ += strf(
          "<text x='%.0f' y='%.0f' class='verdict'><tspan fill='%s' font-weight='bold'>%s</tspan>  "
          "<tspan class='ev'>%s</tspan></text>\n",
          L - 100, y, verdict_color(r.verdict.bottleneck), xml_escape(head).c_str(), xml_escape(ev).c_str());
    }
    return y;
  }
};

}  // namespace

std::string render_svg(const Timeline& tl, const SvgOptions& o) { return Waterfall(tl, o).render(); }

}  // namespace cuzk::timeline
