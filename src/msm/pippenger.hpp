#pragma once
// Pippenger's bucket method behind msm.hpp (included by msm.cpp only).
//
// Stages, all inside one oneTBB task_arena:
//  0. classify (parallel; scalars.hpp): identity points and zero scalars
//     are dropped, scalar-1 points go to the "ones" list, the rest to the
//     "big" list; the largest scalar decides the number of bits to window.
//  1. ones (ones_sum.hpp): summed in parallel parts, into running sums read
//     in place (IFMA kernels) or by batch-affine addition trees.
//  2. big scalars, planned by window_plan.hpp, in super-chunks bounded by
//     memory, whose stages run as one stream of jobs (chunk_pipeline.hpp):
//     A. (blocks of scalars; digits.hpp) GLV split k = k1 + k2*lambda,
//        entries P and phi(P) copied into a contiguous array, signed Booth
//        digits of every window precomputed (int32 per entry and window);
//     B. (parallel over tasks = window group x bucket range;
//        bucket_accumulation.hpp) per mini-chunk: counting sort of the
//        entries by bucket, then batch-affine rounds sum every bucket's
//        segment together with the bucket's previous value (or XYZZ mixed
//        additions for the XYZZ accumulator).
//  3. (per window, as soon as the window's last accumulation task ends;
//     bucket_reduction.hpp) bucket reduction sum_i i*B_i: two-level
//     (columns/rows sums by batch-affine trees, then short XYZZ running sums).
//  4. Horner over the windows, plus the ones sum.
#include <tbb/concurrent_queue.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "msm/batch_affine.hpp"
#include "msm/bucket_accumulation.hpp"
#include "msm/bucket_reduction.hpp"
#include "msm/chunk_pipeline.hpp"
#include "msm/digits.hpp"
#include "msm/glv.hpp"
#include "msm/kernel_domain.hpp"
#include "msm/msm.hpp"
#include "msm/ones_sum.hpp"
#include "msm/scalars.hpp"
#include "msm/window_plan.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::msm::detail {

class StageTimer {
 public:
  StageTimer() : t_(std::chrono::steady_clock::now()) {}
  // Milliseconds since construction or the previous lap.
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - t_).count();
    t_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point t_;
};

// One MSM over curve C, run once: construct, then run().
template <class C>
class PippengerMsm {
 public:
  using Aff = ec::Affine<C>;
  using Jac = ec::Jacobian<C>;
  using P = Pt<C>;

  PippengerMsm(const PointSeq<C>& pts, const Options& opt, const Tuning& tu)
      : pts_(pts), opt_(opt), tu_(tu) {}

  template <class ScalarAt>
  Jac run(const ScalarAt& scalar_at, Plan* plan) {
    const size_t n = pts_.size();
    T_ = unsigned(std::max(1, tbb::this_task_arena::max_concurrency()));
    kernels_ = tu_.ifma && platform::use_ifma() ? Kernels::Ifma : Kernels::Scalar;
    // The IFMA kernel's additions are cheaper, so the shared inversion needs
    // a larger batch to stay a small share.
    batch_ = tu_.batch ? tu_.batch
                       : (sizeof(typename C::Base) > 48 ? 1024 : 2048) * (kernels_ == Kernels::Ifma ? 2 : 1);
    Plan pl;
    pl.n = n;
    pl.threads = T_;
    if (n == 0) {
      if (plan) *plan = pl;
      return Jac::identity();
    }
    StageTimer tm;
    classes_ = classify_scalars(pts_, scalar_at, tu_.split_ones);
    pl.zeros = classes_.zeros;
    pl.ones = classes_.ones.size();
    pl.big = classes_.nbig;
    pl.ms_classify = tm.lap();

    Jac ones_sum = Jac::identity();
    if (!classes_.ones.empty())
      ones_sum = OnesSum<C>(pts_, kernels_, batch_, mini_chunk(), T_)(classes_.ones);
    pl.ms_ones = tm.lap();

    Jac big_sum = Jac::identity();
    if (classes_.nbig) big_sum = sum_big(scalar_at, pl);
    if (plan) *plan = pl;
    return big_sum.add(ones_sum);
  }

 private:
  PointSeq<C> pts_;
  Options opt_;
  Tuning tu_;
  unsigned T_ = 1;  // threads of the arena
  size_t batch_ = 2048;
  Kernels kernels_ = Kernels::Scalar;  // where the affine stages' points live, and who adds them
  ScalarClasses classes_;
  WindowPlan wp_;
  std::vector<uint8_t> widths_;   // of wp_'s windows, bottom to top
  std::vector<unsigned> shifts_;  // the bit each window starts at

  size_t mini_chunk() const { return tu_.mini_chunk ? tu_.mini_chunk : (size_t(1) << 16); }

  // ------------------------------------------- stages 2-4: the big scalars
  template <class ScalarAt>
  Jac sum_big(const ScalarAt& scalar_at, Plan& pl) {
    const size_t nbig = classes_.nbig;
    wp_ = plan_windows<C>(nbig, classes_.max_bits, tu_, opt_, batch_, T_);
    widths_ = wp_.layout.widths();
    shifts_.assign(widths_.size(), 0);
    for (size_t w = 1; w < widths_.size(); w++) shifts_[w] = shifts_[w - 1] + widths_[w - 1];
    if (!wp_.batch_affine()) kernels_ = Kernels::Scalar;  // XYZZ buckets use the scalar kernels
    const int W = wp_.windows;
    pl.ifma = kernels_ == Kernels::Ifma;
    pl.scalar_bits = wp_.bits;
    pl.glv = wp_.split == ScalarSplit::Glv;
    pl.window_bits = wp_.c;
    pl.window_widths.assign(wp_.layout.lg.begin(), wp_.layout.lg.end());
    for (int& wd : pl.window_widths) wd += 1;
    pl.windows = W;
    pl.accumulator = wp_.accumulator;
    pl.model_cost = wp_.cost;

    Buckets<C> buckets(wp_);
    const size_t eps = wp_.entries_per_scalar();
    const Scheduling scheduling = choose_scheduling(kernels_, wp_.accumulator, tu_.bucketing);
    const TaskPlan tp =
        plan_tasks(wp_, sizeof(P), nbig, tu_, T_, opt_.scratch_bytes, scheduling == Scheduling::WideWindows);
    const size_t SC = tp.super_chunk;

    // Direct scheduling (with IFMA kernels), window by window: see bucket_copies().
    BucketAccumulator<C> acc(wp_, scheduling, kernels_, batch_, mini_chunk(), buckets);
    pl.scheduled = false;
    for (const AccumulationTask& tk : tp.tasks)
      for (int w = tk.w0; w < tk.w1; w++)
        if (tk.b0 < wp_.buckets[w])
          pl.scheduled |= acc.bucket_copies(w, tk.b0, std::min(tk.b1, wp_.buckets[w])) > 0;

    // Stage 3 for one window: sum_i i * B_i.
    std::vector<Jac> wsum(W);
    tbb::enumerable_thread_specific<TreeSummer<C>> red_work;
    const auto reduce_window = [&](int w) {
      wsum[w] = wp_.batch_affine() ? reduce_affine(red_work.local(), buckets.affine(w), buckets.filled(w),
                                                   wp_.buckets[w], kernels_, batch_)
                                   : reduce_xyzz(buckets.xyzz[w]);
    };

    // Super-chunks as one stream of jobs (chunk_pipeline.hpp): with several
    // threads and chunks, two buffers, so that the next chunk's recoding and
    // its tasks for the windows already done fill the end of the last task.
    const size_t K = (nbig + SC - 1) / SC;
    PipelineShape sh;
    sh.buffers = K > 1 && T_ > 1 ? 2 : 1;
    sh.tasks = tp.tasks.size();
    for (size_t k = 0; k < K; k++)
      sh.blocks.push_back((std::min(SC, nbig - k * SC) + kRecodeBlock - 1) / kRecodeBlock);
    for (const AccumulationTask& tk : tp.tasks) sh.task_group.push_back(tk.w0 / tp.group_windows);
    for (int gi = 0; gi < tp.groups; gi++)
      sh.group_windows.push_back({gi * tp.group_windows, std::min(W, (gi + 1) * tp.group_windows)});
    RawArray<P> entries(sh.buffers * SC * eps);
    RawArray<int32_t> digits(sh.buffers * SC * eps * W);
    const auto chunk_scalars = [&](size_t k) { return std::min(SC, nbig - k * SC); };
    const auto buffer_entries = [&](size_t k) { return entries.data() + (k % sh.buffers) * SC * eps; };
    const auto buffer_digits = [&](size_t k) {
      return digits.data() + (k % sh.buffers) * SC * eps * size_t(W);
    };
    StageTimer tm;
    const double recode_ms = run_pipeline(
        T_, sh,
        [&](size_t k, size_t b) {
          const size_t ns = chunk_scalars(k);
          recode(scalar_at, k * SC, ns, b * kRecodeBlock, std::min(ns, (b + 1) * kRecodeBlock),
                 buffer_entries(k), buffer_digits(k));
        },
        [&](size_t k, size_t t) {
          acc.accumulate(tp.tasks[t], buffer_entries(k), buffer_digits(k), chunk_scalars(k) * eps);
        },
        reduce_window);
    // The stages overlap (with several threads): stage A's share is its
    // threads' time over the threads, the rest is B's and 3's.
    const double total_ms = tm.lap();
    pl.ms_split = recode_ms / T_;
    pl.ms_accumulate = std::max(0.0, total_ms - pl.ms_split);
    return combine_windows(wsum, wp_.layout);
  }

  // Stage A for the scalars [s0 + lo, s0 + hi) of the super-chunk of big
  // scalars [s0, s0 + ns): their entries (P, and phi(P) under GLV) into the
  // kernels' domain, window w's digits at digits[w * E] (E = ns * entries
  // per scalar). One job of the pipeline: it calls nothing of TBB's.
  static constexpr size_t kRecodeBlock = 1024;
  template <class ScalarAt>
  void recode(const ScalarAt& scalar_at, size_t s0, size_t ns, size_t lo, size_t hi, P* entries,
              int32_t* digits) {
    const bool split_glv = wp_.split == ScalarSplit::Glv;
    const size_t eps = wp_.entries_per_scalar();
    const size_t E = ns * eps;
    const int W = wp_.windows;
    const std::vector<uint8_t>& width = widths_;
    const std::vector<unsigned>& shift = shifts_;
    // Where scalars 0 and 1 were set apart (Filecoin's vectors: a tenth are
    // big), the big ones' points and scalars lie scattered, each a cache
    // miss. A loop of loads alone fetches a block of them first, with many
    // misses in flight at once; in the loop with the arithmetic (and with
    // software prefetches, measured) they came one or two at a time:
    // 2^18 Filecoin-like G1, stage A 9.3 -> 5.8 ms.
    const bool scattered = !classes_.big.empty();
    uint64_t touched = 0;
    for (size_t s = lo; scattered && s < hi; s++) {
      const uint32_t idx = classes_.big_at(s0 + s);
      touched ^= *static_cast<const uint64_t*>(scalar_at.address(idx));
      P& e0 = entries[eps * s];
      if (pts_.is_identity(idx)) e0 = P{};
      else pts_.load_xy(idx, e0.x, e0.y);
    }
    asm volatile("" : : "r"(touched));  // the scalars' loads stay
    for (size_t s = lo; s < hi; s++) {
      const uint32_t idx = classes_.big_at(s0 + s);
      if (pts_.is_identity(idx)) [[unlikely]] {  // dropped here: stage 0 reads no point
        for (size_t h = eps * s; h < eps * (s + 1); h++) {
          entries[h] = P{};  // never read (all digits 0); keeps the conversion defined
          for (int w = 0; w < W; w++) digits[size_t(w) * E + h] = 0;
        }
        continue;
      }
      Limbs<4> k = scalar_at(idx);
      if (split_glv) {
        glv::Split sp = glv::split(k);
        P& e0 = entries[2 * s];
        if (!scattered) pts_.load_xy(idx, e0.x, e0.y);
        signed_digits(sp.k1, width.data(), W, sp.neg1, digits + 2 * s, E);
        if (sp.k2) {
          // phi(P) = (beta x, y); the IFMA conversion multiplies by beta
          // itself. P is read again from the points (in cache now), not
          // copied from e0: a 64-byte load of what was just stored in
          // smaller pieces waits for the stores to retire (store
          // forwarding fails), 15% of this loop's time on two threads.
          P& e1 = entries[2 * s + 1];
          if (kernels_ == Kernels::Ifma) pts_.load_xy(idx, e1.x, e1.y);
          else e1 = P{e0.x * glv::beta<C>(), e0.y};
          signed_digits(sp.k2, width.data(), W, sp.neg2, digits + 2 * s + 1, E);
        } else {
          entries[2 * s + 1] = P{};  // never read (all digits 0); keeps the conversion defined
          for (int w = 0; w < W; w++) digits[size_t(w) * E + 2 * s + 1] = 0;
        }
      } else {
        if (!scattered) pts_.load_xy(idx, entries[s].x, entries[s].y);
        for (int w = 0; w < W; w++)
          digits[size_t(w) * E + s] = booth_digit_at(k, shift[size_t(w)], width[size_t(w)]);
      }
    }
    if (kernels_ == Kernels::Ifma && split_glv)
      ifma::glv_pairs_to_domain(reinterpret_cast<uint64_t*>(entries + 2 * lo), hi - lo, kFpPerPoint<C>,
                                glv::beta<C>());
    else to_kernel_domain(kernels_, entries + eps * lo, eps * (hi - lo));
  }
};

template <class C, class ScalarAt>
ec::Jacobian<C> run_pippenger(const PointSeq<C>& points, size_t nscalars, const ScalarAt& at,
                              const Options& opt, const Tuning& tu, Plan* plan) {
  if (points.size() != nscalars) throw std::invalid_argument("msm: points and scalars differ in length");
  if (nscalars > UINT32_MAX) throw std::length_error("msm: more than 2^32 - 1 points");
  if (opt.window_bits < 0 || opt.window_bits > 16)
    throw std::invalid_argument("msm: window_bits must be 0..16");
  auto body = [&] {
    PippengerMsm<C> pippenger(points, opt, tu);
    return pippenger.run(at, plan);
  };
  if (opt.threads == 0) return body();
  // More threads than the machine has only makes oneTBB warn: clamp.
  const int threads = std::min<int>(int(std::min<unsigned>(opt.threads, 1u << 16)),
                                    std::max(1, tbb::info::default_concurrency()));
  tbb::task_arena arena(threads);
  return arena.execute(body);
}

}  // namespace cuzk::msm::detail
