#pragma once
// Builds TIMELINE logs for the tests: lines are collected with their time and
// written out in time order, so a test states intervals, not line order.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "timeline/analyze.hpp"
#include "timeline/parse.hpp"

namespace cuzk::timeline::testing {

class LogBuilder {
 public:
  // One TIMELINE line.
  LogBuilder& ev(int64_t t, const std::string& name, const std::string& job, const std::string& detail = "") {
    lines_.push_back(
        {t, seq_++, "TIMELINE," + std::to_string(t) + "," + name + "," + job + "," + detail, segment_});
    return *this;
  }
  // Any other line (daemon log noise), placed at time t.
  LogBuilder& raw(int64_t t, const std::string& text) {
    lines_.push_back({t, seq_++, text, segment_});
    return *this;
  }
  // SYNTH_START / SYNTH_END / GPU_QUEUE of one partition (p < 0: whole job).
  LogBuilder& synth(const std::string& job, int p, int64_t start, int64_t end, bool queue = true) {
    ev(start, "SYNTH_START", job, p >= 0 ? "partition=" + std::to_string(p) : "kind=porep-c2");
    ev(end, "SYNTH_END", job, part(p) + "synth_ms=" + std::to_string(end - start));
    if (queue) ev(end, "GPU_QUEUE", job, p >= 0 ? "partition=" + std::to_string(p) : "monolithic");
    return *this;
  }
  LogBuilder& queue(const std::string& job, int p, int64_t t) {
    return ev(t, "GPU_QUEUE", job, p >= 0 ? "partition=" + std::to_string(p) : "monolithic");
  }
  // GPU_START..GPU_END of one partition on worker w (p < 0: whole job).
  LogBuilder& device(const std::string& job, int p, int w, int64_t start, int64_t end) {
    ev(start, "GPU_START", job, "worker=" + std::to_string(w) + pdet(p));
    ev(end, "GPU_END", job,
       "worker=" + std::to_string(w) + pdet(p) + ",gpu_ms=" + std::to_string(end - start));
    return *this;
  }
  // The same with the interlock held over [lock, unlock].
  LogBuilder& device_locked(const std::string& job, int p, int w, int64_t start, int64_t lock, int64_t unlock,
                            int64_t end) {
    device(job, p, w, start, end);
    ev(lock, "GPU_LOCK", job, "worker=" + std::to_string(w) + pdet(p));
    ev(unlock, "GPU_UNLOCK", job, "worker=" + std::to_string(w) + pdet(p));
    return *this;
  }
  // Lines added after this are written after all earlier ones, whatever
  // their time (a daemon restart).
  LogBuilder& restart() {
    segment_++;
    return *this;
  }

  std::string str() const {
    auto v = lines_;
    std::stable_sort(v.begin(), v.end(),
                     [](const L& a, const L& b) { return a.seg != b.seg ? a.seg < b.seg : a.t < b.t; });
    std::string out;
    for (const auto& l : v) out += l.text + "\n";
    return out;
  }

  Timeline build(const AnalyzeOptions& o = {}) const { return build_timeline(parse_text(str()), o); }

 private:
  struct L {
    int64_t t;
    uint64_t seq;
    std::string text;
    int seg = 0;
  };
  static std::string part(int p) { return p >= 0 ? "partition=" + std::to_string(p) + "," : ""; }
  static std::string pdet(int p) { return p >= 0 ? ",partition=" + std::to_string(p) : ""; }

  std::vector<L> lines_;
  uint64_t seq_ = 0;
  int segment_ = 0;
};

}  // namespace cuzk::timeline::testing
