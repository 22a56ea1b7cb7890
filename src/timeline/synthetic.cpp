#include "timeline/synthetic.hpp"

#include <algorithm>
#include <queue>
#include <vector>

#include "timeline/format.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::timeline {
namespace {

struct Rng {  // xorshift64*: deterministic across platforms
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  int64_t jitter(int64_t v, double frac) {
    return std::max<int64_t>(1, int64_t(double(v) * (1 + frac * (2 * unit() - 1))));
  }
};

struct Line {
  int64_t t;
  uint64_t seq;
  std::string text;
};

class Sim {
 public:
  explicit Sim(const SyntheticOptions& o) : o_(o), rng_(o.seed) {}

  std::string run() {
    std::string out;
    int64_t base = 1500;
    uint64_t lines = 0;
    int runs = 0;
    while (o_.target_lines ? lines < o_.target_lines : runs < o_.runs) {
      std::vector<Line> ev;
      int64_t end = one_run(base, ev);
      std::sort(ev.begin(), ev.end(),
                [](const Line& a, const Line& b) { return a.t != b.t ? a.t < b.t : a.seq < b.seq; });
      for (const Line& l : ev) {
        if (o_.target_lines && lines >= o_.target_lines) break;
        if (rng_.unit() < o_.noise) {
          out += strf(
              "2025-01-07T10:%02lld:%02lld.%03lldZ  INFO cuzk_core::engine: pipeline status "
              "queue_depth=%llu\n",
              (long long)(l.t / 60000 % 60), (long long)(l.t / 1000 % 60), (long long)(l.t % 1000),
              (unsigned long long)(rng_.next() % 8));
          if (o_.target_lines && ++lines >= o_.target_lines) break;
        }
        out += l.text;
        lines++;
      }
      base = end + o_.run_pause_ms;
      runs++;
    }
    return out;
  }

 private:
  std::string uuid() {
    uint64_t a = rng_.next(), b = rng_.next();
    return strf("%08llx-%04llx-4%03llx-8%03llx-%012llx", (unsigned long long)(a >> 32),
                (unsigned long long)((a >> 16) & 0xffff), (unsigned long long)(a & 0xfff),
                (unsigned long long)(b >> 52), (unsigned long long)(b & 0xffffffffffffull));
  }

  void emit(std::vector<Line>& ev, int64_t t, const char* name, const std::string& job,
            const std::string& detail) {
    ev.push_back(
        Line{t, seq_++, strf("TIMELINE,%lld,%s,%s,%s\n", (long long)t, name, job.c_str(), detail.c_str())});
  }

  int64_t one_run(int64_t base, std::vector<Line>& ev) {
    struct Part {
      int job, p;
      int64_t ready;
    };
    std::vector<std::string> ids;
    for (int j = 0; j < o_.jobs; j++) ids.push_back(uuid());

    // Synthesis: the earliest free slot takes the next partition.
    std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> slots;
    for (int i = 0; i < std::max(1, o_.synth_slots); i++) slots.push(base);
    std::vector<Part> parts;
    std::vector<int64_t> s_starts, s_ends;
    for (int j = 0; j < o_.jobs; j++) {
      const int64_t arrive = base + j * o_.job_interval_ms;
      for (int p = 0; p < o_.partitions; p++) {
        int64_t s = std::max(slots.top(), arrive);
        slots.pop();
        int64_t d = rng_.jitter(o_.synth_ms, 0.10);
        slots.push(s + d);
        emit(ev, s, events::kSynthStart, ids[size_t(j)], strf("partition=%d", p));
        emit(ev, s + d, events::kSynthEnd, ids[size_t(j)],
             strf("partition=%d,synth_ms=%lld", p, (long long)d));
        emit(ev, s + d, events::kGpuQueue, ids[size_t(j)], strf("partition=%d", p));
        parts.push_back(Part{j, p, s + d});
        s_starts.push_back(s);
        s_ends.push_back(s + d);
      }
    }
    std::sort(s_starts.begin(), s_starts.end());
    std::sort(s_ends.begin(), s_ends.end());
    auto synthesizing = [&](int64_t t) {
      return double((std::upper_bound(s_starts.begin(), s_starts.end(), t) - s_starts.begin()) -
                    (std::upper_bound(s_ends.begin(), s_ends.end(), t) - s_ends.begin()));
    };

    // Device: partitions in ready order; the first free worker takes the next
    // one and waits for the interlock.
    std::stable_sort(parts.begin(), parts.end(),
                     [](const Part& a, const Part& b) { return a.ready < b.ready; });
    std::vector<int64_t> worker_free(size_t(std::max(1, o_.workers)), base);
    int64_t lock_free = base, end = base;
    for (const Part& pt : parts) {
      size_t w = size_t(std::min_element(worker_free.begin(), worker_free.end()) - worker_free.begin());
      const std::string& id = ids[size_t(pt.job)];
      int64_t pick = std::max(pt.ready, worker_free[w]) + 1;
      int64_t lock = std::max(pick + 2, lock_free);
      int64_t held = rng_.jitter(o_.device_ms, 0.03);
      if (o_.contention > 0) held = int64_t(double(held) * (1 + o_.contention * synthesizing(lock)));
      int64_t unlock = lock + held;
      int64_t done = unlock + rng_.jitter(o_.tail_ms, 0.20);
      emit(ev, pick, events::kGpuPickup, id, strf("worker=%zu,partition=%d", w, pt.p));
      emit(ev, pick, events::kGpuStart, id, strf("worker=%zu,partition=%d", w, pt.p));
      if (o_.locks) {
        emit(ev, lock, events::kGpuLock, id, strf("worker=%zu,partition=%d", w, pt.p));
        emit(ev, unlock, events::kGpuUnlock, id, strf("worker=%zu,partition=%d", w, pt.p));
      }
      emit(ev, done, events::kGpuEnd, id,
           strf("worker=%zu,partition=%d,gpu_ms=%lld", w, pt.p, (long long)(done - pick)));
      worker_free[w] = done;
      lock_free = unlock;
      end = std::max(end, done);
    }
    return end;
  }

  const SyntheticOptions& o_;
  Rng rng_;
  uint64_t seq_ = 0;
};

}  // namespace

std::string generate_synthetic(const SyntheticOptions& opts) { return Sim(opts).run(); }

}  // namespace cuzk::timeline
