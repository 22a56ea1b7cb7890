#pragma once
// Stage 1 of the MSM: Σ P over the points whose scalar is 1 (Filecoin's
// witness vectors are mostly 0s and 1s: about half the points of a proof's
// MSMs come here), in parallel parts of the list.
//
// With the IFMA kernels a thread adds its parts' points straight into S
// running sums of its own (S = the batch rounded up to a power of two, at
// most 2048), its e-th point into sum e mod S, in batches of consecutive
// points, so a batch meets distinct sums and nothing waits; a tree per
// thread adds its sums at the end (the sums outlive the parts, so many
// parts, for balance, cost no more trees). The points are
// read where they lie: the kernels move a raw operand's y into their
// domain as they load it (ifma_kernels.hpp), so no converted copy of the
// points is made. Only a sum's first point is copied and converted (the
// first S points of a part, or the next point of a sum that P + (-P)
// emptied). With the scalar kernels the points are copied in chunks and
// summed by batch-affine trees.
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "msm/batch_affine.hpp"
#include "msm/kernel_domain.hpp"
#include "msm/scalars.hpp"

namespace cuzk::msm::detail {

template <class C>
class OnesSum {
 public:
  using P = Pt<C>;
  using Jac = ec::Jacobian<C>;

  // batch: additions per shared inversion; chunk: the scalar kernels'
  // points per tree; threads: the arena's.
  OnesSum(const PointSeq<C>& pts, Kernels kernels, size_t batch, size_t chunk, unsigned threads)
      : pts_(pts), kernels_(kernels), batch_(batch), chunk_(chunk), threads_(threads) {}

  Jac operator()(const std::vector<uint32_t>& idx) {
    const size_t len = idx.size();
    // Parts of a batch or more, several a thread for balance (the vCPUs
    // differ in speed); a thread's parts share its running sums and its one
    // tree at the end.
    size_t parts = threads_ == 1 ? 1 : std::min<size_t>((len + batch_ - 1) / batch_, 16 * size_t(threads_));
    parts = std::max<size_t>(parts, 1);
    tbb::enumerable_thread_specific<Work> work;
    tbb::parallel_for(size_t(0), parts, [&](size_t p) {
      Work& wk = work.local();
      const size_t lo = len * p / parts, hi = len * (p + 1) / parts;
      if (kernels_ == Kernels::Ifma) in_place(wk, idx.data(), lo, hi);
      else by_trees(wk, idx.data(), lo, hi);
    });
    // The threads' trees (each adds its S sums), in parallel.
    std::vector<Work*> used;
    for (Work& wk : work) used.push_back(&wk);
    std::vector<Jac> res(used.size(), Jac::identity());
    tbb::parallel_for(size_t(0), used.size(), [&](size_t u) { res[u] = finish(*used[u]); });
    Jac r = Jac::identity();
    for (auto& x : res) r = r.add(x);
    return r;
  }

 private:
  struct Work {
    TreeSummer<C> ts;
    RawArray<P> buf;   // the scalar kernels' chunk of copied points (recycled between MSMs)
    RawArray<P> sums;  // the running sums
    std::vector<uint8_t> filled;
    std::vector<uint32_t> fresh;  // sums that received their first point in the open batch
    ifma::JobList jobs, dbl;
    std::vector<uint32_t> special;
    P acc;
    bool have = false;   // acc holds a sum
    uint64_t taken = 0;  // points added into the sums so far (IFMA kernels: the sums
                         // are set up, filled sized, at the thread's first part)
  };

  // Sums: the batch rounded up to a power of two, at most 2048 (the default
  // batches give 2048; tests' tiny batches make few sums, so that small
  // inputs run the additions, doublings and cancellations too).
  uint32_t sums_count() const {
    uint32_t c = 8;
    while (c < batch_ && c < 2048) c *= 2;
    return c;
  }

  void into_acc(Work& wk) {
    wk.ts.run(
        [&](uint32_t, Ref r) {
          wk.have = r != 0;
          if (r) store(&wk.acc, r);
        },
        batch_, [&](uint32_t) { return &wk.acc; });
  }

  static constexpr size_t kAhead = 16;  // points

  // The points ix[lo, hi) into wk's running sums (IFMA kernels).
  void in_place(Work& wk, const uint32_t* ix, size_t lo, size_t hi) {
    const uint32_t S = sums_count();
    // Half the trees' batch, as the buckets' direct scheduling: the kernel's
    // scratch then leaves room in L2 for the sums and the points.
    const size_t B = std::max<size_t>(1, std::min<size_t>(batch_ / 2, S));
    if (wk.filled.empty()) {  // the thread's first part
      if (wk.sums.size() < S) wk.sums.reset(S);
      wk.filled.assign(S, 0);
      wk.jobs.clear();
      wk.jobs.set_raw_b(true);
      wk.fresh.clear();
    }
    P* const sums = wk.sums.data();
    uint8_t* const filled = wk.filled.data();
    const PointSeq<C> pts = pts_;  // in locals: the stores below could alias members
    // Points taken, and at the open batch's start: a batch is B <= S points
    // of consecutive e, so it meets B distinct sums.
    uint64_t e = wk.taken, e0 = e;
    for (size_t i = lo; i < hi; i++) {
      // The points lie scattered over the whole array (Filecoin's 1s come at
      // random): the loads of points a little ahead are issued early (a
      // point's first line and the line after its y: an affine array's
      // identity flag). Without them this loop waited on each
      // flag in turn: the ones of a 2^18 Filecoin-like G1 MSM 13.5-13.9
      // against 12.2-12.7 ms with them.
      if (i + kAhead < hi) {
        const uint64_t* ahead = pts.xy_address(ix[i + kAhead]);
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + sizeof(P) / sizeof(uint64_t));
      }
      const uint32_t k = ix[i];
      if (pts.is_identity(k)) [[unlikely]]
        continue;
      const uint32_t s = uint32_t(e++) & (S - 1);
      const uint64_t* src = pts.xy_address(k);
      uint64_t* dst = reinterpret_cast<uint64_t*>(sums + s);
      if (filled[s]) {
        wk.jobs.push(dst, src, dst, 0);
      } else {
        std::memcpy(static_cast<void*>(dst), src, sizeof(P));
        filled[s] = 1;
        wk.fresh.push_back(s);
      }
      if (e - e0 == B) {  // B <= S consecutive points: distinct sums
        flush(wk);
        e0 = e;
      }
    }
    flush(wk);
    wk.taken = e;
  }

  // A thread's total: its running sums added by a tree (IFMA kernels), or
  // the trees' accumulator (scalar kernels).
  Jac finish(Work& wk) {
    wk.ts.ifma = kernels_ == Kernels::Ifma;
    if (!wk.filled.empty()) {
      wk.ts.clear();
      const P* const sums = wk.sums.data();
      for (uint32_t s = 0; s < sums_count(); s++)
        if (wk.filled[s]) wk.ts.refs.push_back(make_ref<C>(sums + s, false));
      if (!wk.ts.refs.empty()) {
        wk.ts.segs.push_back({0, 0, uint32_t(wk.ts.refs.size())});
        into_acc(wk);
      }
    }
    if (!wk.have) return Jac::identity();
    from_kernel_domain(kernels_, &wk.acc, 1);
    return Jac::from_affine(ec::Affine<C>::from_xy(wk.acc.x, wk.acc.y));
  }

  // The open batch: its fresh sums into the domain (runs of consecutive
  // sums at once), then its additions.
  void flush(Work& wk) {
    P* const sums = wk.sums.data();
    for (size_t a = 0, b; a < wk.fresh.size(); a = b) {
      for (b = a + 1; b < wk.fresh.size() && wk.fresh[b] == wk.fresh[b - 1] + 1;) b++;
      to_kernel_domain(kernels_, sums + wk.fresh[a], b - a);
    }
    wk.fresh.clear();
    const size_t n = wk.jobs.size();
    if (!n) return;
    wk.jobs.pad();
    uint8_t* const filled = wk.filled.data();
    ifma_add_jobs<C>(wk.jobs, 0, n, wk.dbl, wk.special, [&](size_t j) {  // P + (-P): the sum empties
      filled[reinterpret_cast<const P*>(wk.jobs.out(j)) - sums] = 0;
    });
    wk.jobs.clear();
  }

  void by_trees(Work& wk, const uint32_t* ix, size_t lo, size_t hi) {
    const PointSeq<C> pts = pts_;
    for (size_t s = lo; s < hi; s += chunk_) {
      const size_t e = std::min(hi, s + chunk_);
      if (wk.buf.size() < e - s) wk.buf.reset(e - s);
      P* const out = wk.buf.data();
      size_t m = 0;  // identities are dropped here (stage 0 reads no point)
      for (size_t i = s; i < e; i++) {
        const uint32_t k = ix[i];
        if (pts.is_identity(k)) [[unlikely]]
          continue;
        pts.load_xy(k, out[m].x, out[m].y);
        m++;
      }
      if (m == 0) continue;  // (an empty tree segment would never finish)
      wk.ts.clear();
      if (wk.have) wk.ts.refs.push_back(make_ref<C>(&wk.acc, false));
      for (size_t i = 0; i < m; i++) wk.ts.refs.push_back(make_ref<C>(out + i, false));
      wk.ts.segs.push_back({0, 0, uint32_t(wk.ts.refs.size())});
      into_acc(wk);
    }
  }

  const PointSeq<C>& pts_;
  Kernels kernels_;
  size_t batch_, chunk_;
  unsigned threads_;
};

}  // namespace cuzk::msm::detail
