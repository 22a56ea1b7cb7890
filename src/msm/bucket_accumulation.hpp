#pragma once
// Stage B: the entries of a super-chunk added into their windows' buckets,
// one task (window group x bucket range) at a time. Batch-affine buckets are
// filled by sorted trees (batch_affine.hpp) or, window by window, by direct
// scheduling (bucket_scheduler.hpp); XYZZ buckets by mixed additions.
//
// Entries: the super-chunk's E points (P, and phi(P) under GLV); digits:
// int32, window w's at digits[w * E], bucket |d| - 1, negated where d < 0.
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "msm/batch_affine.hpp"
#include "msm/bucket_scheduler.hpp"
#include "msm/kernel_domain.hpp"
#include "msm/window_plan.hpp"
#include "msm/xyzz_madd.hpp"

namespace cuzk::msm::detail {

// Every window's buckets, for the accumulator the plan chose. Batch-affine
// buckets (in the kernels' domain) lie in one array, window after window, so
// that consecutive windows scheduled together index theirs as one.
template <class C>
struct Buckets {
  RawArray<Pt<C>> affine_all;
  std::vector<uint8_t> filled_all;  // affine_all[i] holds a point
  std::vector<size_t> start;        // window w's first bucket
  std::vector<std::vector<ec::Xyzz<C>>> xyzz;

  Pt<C>* affine(int w) { return affine_all.data() + start[size_t(w)]; }
  uint8_t* filled(int w) { return filled_all.data() + start[size_t(w)]; }

  explicit Buckets(const WindowPlan& wp) {
    const int W = wp.windows;
    if (wp.batch_affine()) {
      start.assign(size_t(W) + 1, 0);
      for (int w = 0; w < W; w++) start[size_t(w) + 1] = start[size_t(w)] + wp.buckets[w];
      affine_all.reset(start.back());
      filled_all.assign(start.back(), 0);
    } else {
      xyzz.resize(W);
      for (int w = 0; w < W; w++) xyzz[w].assign(wp.buckets[w], ec::Xyzz<C>::identity());
    }
  }
};

template <class C>
class BucketAccumulator {
 public:
  using P = Pt<C>;
  using Xz = ec::Xyzz<C>;

  // batch: affine additions per shared inversion; mini_chunk: entries per
  // round set of the sorted trees.
  BucketAccumulator(const WindowPlan& wp, Scheduling scheduling, Kernels kernels, size_t batch,
                    size_t mini_chunk, Buckets<C>& buckets)
      : wp_(wp), scheduling_(scheduling), kernels_(kernels), batch_(batch), mini_(mini_chunk), bk_(buckets) {}

  // Thread-safe for tasks of disjoint buckets (each thread has its own work).
  void accumulate(const AccumulationTask& tk, const P* entries, const int32_t* digits, size_t E) {
    if (wp_.batch_affine()) accumulate_affine(work_.local(), tk.w0, tk.w1, tk.b0, tk.b1, entries, digits, E);
    else accumulate_xyzz(tk.w0, tk.w1, tk.b0, tk.b1, entries, digits, E);
  }

  uint32_t bucket_copies(int w, uint32_t lo, uint32_t hi) const {
    return detail::bucket_copies(scheduling_, wp_.buckets[w], lo, hi);
  }

 private:
  struct Work {
    TreeSummer<C> ts;
    std::vector<uint32_t> cnt;
    BucketScheduler<C> sched;
    std::vector<uint32_t> left;
    RawArray<P> copies;  // bucket copies of a narrow window
    std::vector<uint8_t> copy_fl;
  };

  const WindowPlan& wp_;
  const Scheduling scheduling_;
  const Kernels kernels_;
  const size_t batch_;
  const size_t mini_;
  Buckets<C>& bk_;
  tbb::enumerable_thread_specific<Work> work_;

  void accumulate_affine(Work& wk, int w0, int w1, uint32_t b0, uint32_t b1, const P* entries,
                         const int32_t* digits, size_t E) {
    auto& ts = wk.ts;
    ts.ifma = kernels_ == Kernels::Ifma;
    // Scheduled windows: each entry straight into its bucket (or a copy of
    // it); the few that met a busy bucket twice go through the trees after.
    bool any_sorted = false;
    for (int w = w0; w < w1; w++) {
      const uint32_t lo = b0, hi = std::min(b1, wp_.buckets[w]);
      if (lo >= hi) continue;
      const uint32_t span = hi - lo;
      const uint32_t copies = bucket_copies(w, lo, hi);
      if (!copies) {
        any_sorted = true;
        continue;
      }
      if (const int n = narrow_group(w, w1, b0, b1); n > 1) {
        schedule_together(wk, w, n, entries, digits, E);
        w += n - 1;
        continue;
      }
      const int32_t* dg = digits + size_t(w) * E;
      // Half the trees' batch: the kernel's scratch for a batch (1.5 MB at
      // 4096 G1 additions) then leaves room in L2 for the buckets and
      // entries it reads (chain16: CPU -1 to -4.6% in three 16-30-run A/Bs).
      const size_t batch = std::max<size_t>(1, std::min<size_t>(batch_ / 2, span * copies / 4));
      wk.left.clear();
      if (copies > 1) {
        if (wk.copies.size() < size_t(span) * copies) wk.copies.reset(size_t(span) * copies);
        wk.copy_fl.assign(size_t(span) * copies, 0);
        wk.sched.run(entries, dg, E, 0, span, wk.copies.data(), wk.copy_fl.data(), batch, wk.left, copies);
        // Bucket b = its current value + its filled copies.
        ts.clear();
        for (uint32_t b = 0; b < span; b++) {
          const uint32_t begin = uint32_t(ts.refs.size());
          if (bk_.filled(w)[b]) ts.refs.push_back(make_ref<C>(bk_.affine(w) + b, false));
          for (uint32_t k = 0; k < copies; k++)
            if (wk.copy_fl[size_t(k) * span + b])
              ts.refs.push_back(make_ref<C>(wk.copies.data() + size_t(k) * span + b, false));
          if (ts.refs.size() > begin)
            ts.segs.push_back({uint32_t(w) << 16 | b, begin, uint32_t(ts.refs.size())});
        }
        if (!ts.segs.empty()) sum_segments(ts);
      } else {
        const bool part = lo != 0 || hi != wp_.buckets[w];
        wk.sched.run(entries, dg, E, lo, span, bk_.affine(w), bk_.filled(w), batch, wk.left, 1, part);
      }
      if (wk.left.empty()) continue;
      ts.clear();
      add_segments(ts, wk.cnt, w, lo, hi, entries, dg, [&](auto&& f) {
        for (uint32_t e : wk.left) f(e);
      });
      sum_segments(ts);
    }
    if (!any_sorted) return;
    // The others: entries sorted by bucket, mini-chunk by mini-chunk.
    for (size_t e0 = 0; e0 < E; e0 += mini_) {
      const size_t e1 = std::min(E, e0 + mini_);
      ts.clear();
      for (int w = w0; w < w1; w++) {
        const uint32_t lo = b0, hi = std::min(b1, wp_.buckets[w]);
        if (lo >= hi || bucket_copies(w, lo, hi)) continue;
        add_segments(ts, wk.cnt, w, lo, hi, entries, digits + size_t(w) * E, [&](auto&& f) {
          for (size_t j = e0; j < e1; j++) f(j);
        });
      }
      if (!ts.segs.empty()) sum_segments(ts);
    }
  }

  // Narrow windows scheduled together: n of them from w on (n = 1: w alone),
  // as many as it takes for 4096 buckets in all (so that a batch of 1024 jobs
  // rarely meets a busy one), up to 8, each whole and narrow.
  static constexpr uint32_t kGroupBuckets = 4096;
  int narrow_group(int w, int w1, uint32_t b0, uint32_t b1) const {
    const auto narrow = [&](int v) {
      const uint32_t hi = std::min(b1, wp_.buckets[v]);
      return b0 < hi && bucket_copies(v, b0, hi) > 1;
    };
    int n = 0;
    uint32_t buckets = 0;
    while (n < int(BucketScheduler<C>::kMaxWindows) && w + n < w1 && buckets < kGroupBuckets && narrow(w + n))
      buckets += wp_.buckets[w + n++];
    return n;
  }

  // Windows w .. w + n - 1, whole and narrow, by one run of the scheduler.
  void schedule_together(Work& wk, int w, int n, const P* entries, const int32_t* digits, size_t E) {
    typename BucketScheduler<C>::Windows ws;
    ws.n = unsigned(n);
    uint32_t widest = 0, buckets = 0;
    for (int i = 0; i < n; i++) {
      ws.offset[i] = uint32_t(bk_.start[size_t(w + i)] - bk_.start[size_t(w)]);
      widest = std::max(widest, wp_.buckets[w + i]);
      buckets += wp_.buckets[w + i];
    }
    const size_t batch = std::max<size_t>(1, std::min<size_t>(batch_ / 2, buckets / 4));
    wk.left.clear();
    wk.sched.run_windows(entries, digits + size_t(w) * E, E, widest, bk_.affine(w), bk_.filled(w), batch,
                         wk.left, ws);
    if (wk.left.empty()) return;
    auto& ts = wk.ts;
    ts.clear();
    constexpr unsigned lw = BucketScheduler<C>::kWindowBits;
    constexpr uint32_t mask = BucketScheduler<C>::kMaxWindows - 1;
    for (int i = 0; i < n; i++)
      add_segments(ts, wk.cnt, w + i, 0, wp_.buckets[w + i], entries, digits + size_t(w + i) * E,
                   [&](auto&& f) {
                     for (uint32_t j : wk.left)
                       if ((j & mask) == uint32_t(i)) f(j >> lw);
                   });
    sum_segments(ts);
  }

  // Appends to ts one segment per bucket of window w in [lo, hi) that the
  // entries each(f) names (f(j) for each) fall into: the bucket's current
  // value (if any), then those entries, grouped by a counting sort.
  template <class Each>
  void add_segments(TreeSummer<C>& ts, std::vector<uint32_t>& counts, int w, uint32_t lo, uint32_t hi,
                    const P* entries, const int32_t* dg, Each&& each) {
    const uint32_t span = hi - lo;
    counts.assign(span, 0);
    uint32_t* cnt = counts.data();
    each([&](size_t j) {
      int32_t d = dg[j];
      uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;  // wraps for d == 0 or b < lo
      if (b < span) cnt[b]++;
    });
    const P* bk = bk_.affine(w);
    const uint8_t* fl = bk_.filled(w);
    const size_t seg0 = ts.segs.size();
    size_t pos = ts.refs.size();
    for (uint32_t b = 0; b < span; b++) {
      uint32_t k = cnt[b];
      if (!k) continue;
      size_t begin = pos;
      pos += fl[lo + b];       // slot for the bucket's current value
      cnt[b] = uint32_t(pos);  // fill cursor
      pos += k;
      ts.segs.push_back({uint32_t(w) << 16 | (lo + b), uint32_t(begin), uint32_t(pos)});
    }
    ts.refs.resize(pos);
    for (size_t t = seg0; t < ts.segs.size(); t++) {
      uint32_t b = ts.segs[t].id & 0xffff;
      if (fl[b]) ts.refs[ts.segs[t].begin] = make_ref<C>(bk + b, false);
    }
    Ref* refs = ts.refs.data();
    each([&](size_t j) {
      int32_t d = dg[j];
      uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;
      if (b < span) refs[cnt[b]++] = make_ref<C>(entries + j, d < 0);
    });
  }

  // Sums ts's segments into their buckets (segment id = window << 16 | bucket).
  void sum_segments(TreeSummer<C>& ts) {
    ts.run(
        [&](uint32_t id, Ref r) {
          const uint32_t w = id >> 16, b = id & 0xffff;
          P* dst = bk_.affine(int(w)) + b;
          bk_.filled(int(w))[b] = r != 0;
          if (r) store(dst, r);
        },
        batch_, [&](uint32_t id) { return bk_.affine(int(id >> 16)) + (id & 0xffff); });
  }

  void accumulate_xyzz(int w0, int w1, uint32_t b0, uint32_t b1, const P* entries, const int32_t* digits,
                       size_t E) {
    for (int w = w0; w < w1; w++) {
      const uint32_t lo = b0, hi = std::min(b1, wp_.buckets[w]);
      if (lo >= hi) continue;
      const uint32_t span = hi - lo;
      const int32_t* dg = digits + size_t(w) * E;
      Xz* bk = bk_.xyzz[w].data();
      for (size_t j = 0; j < E; j++) {
        int32_t d = dg[j];
        uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;
        if (b >= span) continue;
        if (j + 8 < E) {
          int32_t dn = dg[j + 8];
          uint32_t bn = uint32_t(dn < 0 ? -dn : dn) - 1 - lo;
          if (bn < span) __builtin_prefetch(bk + lo + bn);
        }
        xyzz_madd(bk[lo + b], entries[j], d < 0);
      }
    }
  }
};

}  // namespace cuzk::msm::detail
