#include "timeline/model.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "timeline/event_names.hpp"

namespace cuzk::timeline {
namespace {

uint64_t key_of(const Event& e) { return (uint64_t(e.job) << 32) | uint32_t(e.partition + 1); }

struct Open {
  int64_t t = 0;
  uint64_t line = 0;
  int32_t worker = -1;
  int64_t offset = 0;
};

class Builder {
 public:
  explicit Builder(const Log& log) : log_(log) { m_.open_per_job.assign(log.jobs.size(), 0); }

  Model run() {
    for (const Event& e : log_.events) step(e);
    report_open(synth_open_, events::kSynthStart, events::kSynthEnd);
    report_open(gpu_open_, events::kGpuStart, events::kGpuEnd);
    report_open(lock_open_, events::kGpuLock, events::kGpuUnlock);
    for (auto& [k, v] : locks_) {
      for (auto& l : v) m_.stray_locks.push_back(l);
    }
    if (!m_.stray_locks.empty()) {
      m_.warnings.add(WarnKind::kUnpaired,
                      std::to_string(m_.stray_locks.size()) +
                          " GPU_LOCK..GPU_UNLOCK interval(s) outside any GPU_START..GPU_END; "
                          "counted as device-busy time");
    }
    auto by_start = [](const auto& a, const auto& b) {
      return a.start != b.start ? a.start < b.start : a.line < b.line;
    };
    std::sort(m_.synth.begin(), m_.synth.end(), by_start);
    std::sort(m_.device.begin(), m_.device.end(), by_start);
    std::sort(m_.stray_locks.begin(), m_.stray_locks.end(), by_start);
    return std::move(m_);
  }

 private:
  std::string what(uint32_t job, int32_t p) const {
    std::string s = "job " + short_id(log_.jobs[job].id);
    s += p >= 0 ? " partition " + std::to_string(p) : " (whole job)";
    return s;
  }
  static std::string at(uint64_t line) { return "line " + std::to_string(line) + ": "; }

  void open(std::unordered_map<uint64_t, Open>& map, const Event& e, const char* start, const char* end) {
    auto [it, fresh] = map.try_emplace(key_of(e), Open{e.t, e.line, e.worker, e.offset_ms});
    if (!fresh) {
      m_.warnings.add(WarnKind::kUnpaired, at(it->second.line) + start + " of " + what(e.job, e.partition) +
                                               " has no " + end + " before the next " + start + " (line " +
                                               std::to_string(e.line) + ")");
      m_.open_per_job[e.job]++;
      it->second = Open{e.t, e.line, e.worker, e.offset_ms};
    }
  }

  // Start of the interval an END closes: the open START, or END minus the
  // duration the END reports. False when neither exists.
  bool close(std::unordered_map<uint64_t, Open>& map, const Event& e, const char* start, const char* end,
             Open& out) {
    auto it = map.find(key_of(e));
    if (it != map.end()) {
      out = it->second;
      map.erase(it);
      return true;
    }
    if (e.ms >= 0 && (e.kind == EventKind::kSynthEnd || e.kind == EventKind::kGpuEnd)) {
      out = Open{e.t - e.ms, e.line, e.worker, e.offset_ms - e.ms};
      m_.warnings.add(WarnKind::kInferred, at(e.line) + end + " of " + what(e.job, e.partition) +
                                               " without " + start + "; start taken as " +
                                               std::to_string(e.ms) + " ms earlier");
      return true;
    }
    m_.warnings.add(WarnKind::kUnpaired,
                    at(e.line) + end + " of " + what(e.job, e.partition) + " without " + start + "; ignored");
    return false;
  }

  static bool take_at_or_before(std::unordered_map<uint64_t, int64_t>& map, uint64_t k, int64_t t,
                                int64_t& out) {
    auto it = map.find(k);
    if (it == map.end()) return false;
    bool ok = it->second <= t;
    if (ok) out = it->second;
    map.erase(it);
    return ok;
  }

  void step(const Event& e) {
    const uint64_t k = key_of(e);
    Open o;
    switch (e.kind) {
      case EventKind::kSynthStart: open(synth_open_, e, events::kSynthStart, events::kSynthEnd); break;
      case EventKind::kSynthEnd:
        if (close(synth_open_, e, events::kSynthStart, events::kSynthEnd, o)) {
          m_.synth.push_back(Interval{o.t, e.t, e.job, e.partition, o.worker, e.line});
          synth_done_[k] = e.t;
        }
        break;
      case EventKind::kGpuQueue: queued_.try_emplace(k, e.t); break;
      case EventKind::kGpuPickup: picked_.try_emplace(k, e.t); break;
      case EventKind::kGpuStart: open(gpu_open_, e, events::kGpuStart, events::kGpuEnd); break;
      case EventKind::kGpuEnd:
        if (close(gpu_open_, e, events::kGpuStart, events::kGpuEnd, o)) device_done(e, o);
        break;
      case EventKind::kGpuLock: open(lock_open_, e, events::kGpuLock, events::kGpuUnlock); break;
      case EventKind::kGpuUnlock:
        if (close(lock_open_, e, events::kGpuLock, events::kGpuUnlock, o))
          locks_[k].push_back(
              Interval{o.t, e.t, e.job, e.partition, o.worker >= 0 ? o.worker : e.worker, e.line});
        break;
      case EventKind::kOther: break;
    }
  }

  void device_done(const Event& e, const Open& o) {
    const uint64_t k = key_of(e);
    DeviceWork d;
    d.start = o.t;
    d.end = e.t;
    d.job = e.job;
    d.partition = e.partition;
    d.line = e.line;
    d.worker = o.worker >= 0 ? o.worker : e.worker;
    if (o.worker >= 0 && e.worker >= 0 && o.worker != e.worker) {
      m_.warnings.add(WarnKind::kBadDetail, at(e.line) + "GPU_END of " + what(e.job, e.partition) +
                                                " names worker " + std::to_string(e.worker) +
                                                ", its GPU_START worker " + std::to_string(o.worker));
    }
    if (d.worker < 0) {
      m_.warnings.add(WarnKind::kBadDetail,
                      at(e.line) + "no worker= for " + what(e.job, e.partition) + "; counted as worker 0");
      d.worker = 0;
    }
    int64_t r = 0;
    if (take_at_or_before(queued_, k, d.start, r) || take_at_or_before(synth_done_, k, d.start, r) ||
        take_at_or_before(picked_, k, d.start, r)) {
      d.ready = r;
      d.ready_known = true;
    } else {
      d.ready = d.start;
    }
    queued_.erase(k);
    synth_done_.erase(k);
    picked_.erase(k);

    d.busy_start = d.start;
    d.busy_end = d.end;
    auto it = locks_.find(k);
    if (it != locks_.end()) {
      auto& v = it->second;
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      auto inside = [&](const Interval& l) { return l.start >= d.start && l.end <= d.end; };
      for (const auto& l : v) {
        if (inside(l)) {
          lo = std::min(lo, l.start);
          hi = std::max(hi, l.end);
        }
      }
      if (lo <= hi) {
        d.busy_start = lo;
        d.busy_end = hi;
        d.locked = true;
        v.erase(std::remove_if(v.begin(), v.end(), inside), v.end());
        if (v.empty()) locks_.erase(it);
      }
    }
    m_.device.push_back(d);
  }

  void report_open(const std::unordered_map<uint64_t, Open>& map, const char* start, const char* end) {
    std::vector<std::pair<uint64_t, uint64_t>> left;  // (line, key)
    for (const auto& [k, o] : map) left.emplace_back(o.line, k);
    std::sort(left.begin(), left.end());
    for (auto [line, k] : left) {
      uint32_t job = uint32_t(k >> 32);
      int32_t p = int32_t(uint32_t(k)) - 1;
      m_.open_per_job[job]++;
      m_.warnings.add(WarnKind::kUnpaired, at(line) + start + " of " + what(job, p) + " has no " + end +
                                               " (still running when the log ends, or lost)");
    }
  }

  const Log& log_;
  Model m_;
  std::unordered_map<uint64_t, Open> synth_open_, gpu_open_, lock_open_;
  std::unordered_map<uint64_t, int64_t> queued_, synth_done_, picked_;
  std::unordered_map<uint64_t, std::vector<Interval>> locks_;
};

}  // namespace

Model build_model(const Log& log) { return Builder(log).run(); }

}  // namespace cuzk::timeline
