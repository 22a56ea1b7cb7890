#pragma once
// Stage 1 of the MSM: Σ P over the points whose scalar is 1 (Filecoin's
// witness vectors are mostly 0s and 1s: about half the points of a proof's
// MSMs come here), in parallel parts of the list.
//
// With the IFMA kernels a part adds its points straight into S running sums
// (S = the batch rounded up to a power of two, at most 2048), point e into
// sum e mod S, in batches of consecutive points, so a batch meets distinct
// sums and nothing waits; a tree adds the sums at the end. The points are
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
    // Several parts a thread, for balance; one with one thread, since every
    // part ends in a tree over its sums (2,047 more additions with 2,048).
    size_t parts = std::min<size_t>((len + 8191) / 8192, 4 * size_t(threads_));
    if (threads_ == 1) parts = 1;
    parts = std::max<size_t>(parts, 1);
    std::vector<Jac> res(parts);
    tbb::enumerable_thread_specific<Work> work;
    tbb::parallel_for(size_t(0), parts, [&](size_t p) {
      Work& wk = work.local();
      const size_t lo = len * p / parts, hi = len * (p + 1) / parts;
      wk.have = false;
      wk.ts.ifma = kernels_ == Kernels::Ifma;
      if (kernels_ == Kernels::Ifma) in_place(wk, idx.data(), lo, hi);
      else by_trees(wk, idx.data(), lo, hi);
      if (wk.have) from_kernel_domain(kernels_, &wk.acc, 1);
      res[p] = wk.have ? Jac::from_affine(ec::Affine<C>::from_xy(wk.acc.x, wk.acc.y)) : Jac::identity();
    });
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
    bool have = false;
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

  void in_place(Work& wk, const uint32_t* ix, size_t lo, size_t hi) {
    const uint32_t S = sums_count();
    // Half the trees' batch, as the buckets' direct scheduling: the kernel's
    // scratch then leaves room in L2 for the sums and the points.
    const size_t B = std::max<size_t>(1, std::min<size_t>(batch_ / 2, S));
    if (wk.sums.size() < S) wk.sums.reset(S);
    wk.filled.assign(S, 0);
    P* const sums = wk.sums.data();
    uint8_t* const filled = wk.filled.data();
    wk.jobs.clear();
    wk.jobs.set_raw_b(true);
    wk.fresh.clear();
    const PointSeq<C> pts = pts_;  // in locals: the stores below could alias members
    size_t e = 0, e0 = 0;          // points taken, and at the open batch's start
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
    wk.ts.clear();
    for (uint32_t s = 0; s < S; s++)
      if (filled[s]) wk.ts.refs.push_back(make_ref<C>(sums + s, false));
    if (wk.ts.refs.empty()) return;
    wk.ts.segs.push_back({0, 0, uint32_t(wk.ts.refs.size())});
    into_acc(wk);
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
