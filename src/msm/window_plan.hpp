#pragma once
// Window planning for the bucket stages (after stage 0): GLV or whole
// scalars, the window width and the accumulator (cost_model.hpp), the
// buckets of each window, the super-chunk size, the accumulation tasks, and
// which windows direct scheduling fills.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"
#include "msm/cost_model.hpp"
#include "msm/kernel_domain.hpp"
#include "msm/msm.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::msm::detail {

// Whole scalars, or GLV halves k = k1 + k2 * lambda: two entries of at most
// 127 bits per scalar (glv.hpp).
enum class ScalarSplit { Whole, Glv };

template <class C>
inline const CurveCosts& curve_costs() {
  if constexpr (std::is_same_v<typename C::Base, ff::Fp>) return G1_COSTS;
  else return G2_COSTS;
}

// choose_window's accumulator code.
inline int cost_model_accumulator(Accumulator a) {
  return a == Accumulator::Auto ? 0 : a == Accumulator::BatchAffine ? 1 : 2;
}

struct WindowPlan {
  ScalarSplit split = ScalarSplit::Whole;
  unsigned bits = 0;  // of the (half) scalars windowed
  int c = 0;          // the widest window's width
  int windows = 0;
  WindowLayout layout;                                 // each window's width and buckets (cost_model.hpp)
  Accumulator accumulator = Accumulator::BatchAffine;  // BatchAffine or Xyzz, never Auto
  double cost = 0;                                     // the cost model's estimate
  std::vector<uint32_t> buckets;                       // per window

  size_t entries_per_scalar() const { return split == ScalarSplit::Glv ? 2 : 1; }
  bool batch_affine() const { return accumulator == Accumulator::BatchAffine; }
  uint32_t max_buckets() const { return uint32_t(1) << (c - 1); }
};

// For nbig scalars of up to max_bits bits; batch and threads as the
// accumulation will run (the cost model charges each task its inversions).
template <class C>
WindowPlan plan_windows(size_t nbig, unsigned max_bits, const Tuning& tu, const Options& opt, size_t batch,
                        unsigned threads) {
  WindowPlan wp;
  wp.split = tu.glv && max_bits > 127 ? ScalarSplit::Glv : ScalarSplit::Whole;
  wp.bits = wp.split == ScalarSplit::Glv ? 127 : max_bits;
  const int forced = opt.window_bits;
  if (forced < 0 || forced > 16) throw std::invalid_argument("msm: window_bits must be 0..16");
  const WindowChoice wc =
      choose_window(curve_costs<C>(), double(nbig * wp.entries_per_scalar()), wp.bits, forced,
                    cost_model_accumulator(tu.accumulator), double(batch), double(threads),
                    BucketMemory{double(sizeof(Pt<C>)), double(platform::l2_cache_bytes())}, tu.windows);
  if (wc.layout.lg.empty()) throw std::invalid_argument("msm: no balanced layout of that many windows");
  wp.c = wc.c;
  wp.windows = wc.windows;
  wp.accumulator = wc.batch_affine ? Accumulator::BatchAffine : Accumulator::Xyzz;
  wp.cost = wc.cost;
  wp.layout = wc.layout;
  wp.buckets.resize(wp.windows);
  for (int w = 0; w < wp.windows; w++) wp.buckets[w] = uint32_t(1) << wp.layout.lg[size_t(w)];
  return wp;
}

// One accumulation task: windows [w0, w1) x buckets [b0, b1). A task owns
// its buckets, so tasks run in parallel without locks.
struct AccumulationTask {
  int w0, w1;
  uint32_t b0, b1;
};

struct TaskPlan {
  size_t super_chunk = 0;  // scalars per super-chunk
  int group_windows = 1;   // windows per window group
  int groups = 1;
  std::vector<AccumulationTask> tasks;  // in the order they are taken
};

// Direct scheduling's narrowest bucket range (bucket_copies below).
inline constexpr uint32_t kMinScheduledSpan = 2048;

// Super-chunks bounded by scratch_bytes (0: 64 MiB) of entries (point_bytes
// each) + digits; tasks = window groups x bucket ranges. `scheduled`: direct
// scheduling runs (Scheduling::WideWindows below).
inline TaskPlan plan_tasks(const WindowPlan& wp, size_t point_bytes, size_t nbig, const Tuning& tu,
                           unsigned threads, size_t scratch_bytes = 0, bool scheduled = false) {
  TaskPlan tp;
  const size_t eps = wp.entries_per_scalar();
  const int W = wp.windows;
  const size_t per_scalar = eps * (point_bytes + 4 * size_t(W));
  const size_t budget = scratch_bytes ? scratch_bytes : size_t(64) << 20;
  size_t SC = tu.super_chunk ? tu.super_chunk : std::max<size_t>(1024, budget / per_scalar);
  tp.super_chunk = SC = std::min(SC, nbig);

  const size_t Esc_max = SC * eps;
  const int g = int(std::clamp<size_t>((32768 + Esc_max - 1) / Esc_max, 1, size_t(W)));
  const int ngroups = (W + g - 1) / g;
  const uint32_t Mmax = wp.max_buckets();
  // Bucket ranges per window group: the smallest R giving a task count that is
  // a multiple of the thread count and at least four tasks per thread (equal
  // tasks, nothing left for one thread at the end), within limits: a range
  // of >= 256 buckets, and >= ~4096 entries per task and mini-chunk.
  const uint32_t cap = std::max<uint32_t>(
      1, std::min<uint32_t>(Mmax / 256, uint32_t(std::max<size_t>(1, Esc_max * g / 4096))));
  // Windows all narrower than direct scheduling's span are scheduled only
  // whole (several together, or into copies): a range of one falls back to
  // the sorted trees. Whole groups then, where there are enough to go round
  // (a 2^16 Filecoin-like MSM on two threads: G1 14.0-14.6 -> 11.7-12.0 ms,
  // G2 27.9-28.7 -> 23.3-24.7 ms, four alternations).
  const bool whole = scheduled && wp.max_buckets() < kMinScheduledSpan && uint64_t(ngroups) >= threads;
  uint32_t R = 1;
  if (threads > 1 && !whole) {
    R = std::min<uint32_t>(cap, uint32_t((4 * threads + ngroups - 1) / ngroups));
    for (uint32_t r = 1; r <= cap; r++) {
      if ((uint64_t(ngroups) * r) % threads == 0 && uint64_t(ngroups) * r >= 4 * threads) {
        R = r;
        break;
      }
    }
  }
  tp.group_windows = g;
  tp.groups = ngroups;
  // Where the groups do not share out evenly among the threads (nine windows,
  // two threads) but there are enough of them, whole groups first and only
  // the ones left over split, each into T bucket ranges of its own buckets:
  // a bucket-range task still reads all its window's digits, and two threads
  // in half-window tasks did ~4% more work than one in whole windows (2^18
  // G1 points). The tasks run in list order (pippenger.hpp), so the split
  // ones come last and even out the end.
  const uint32_t rest = threads > 1 && !whole ? uint32_t(ngroups) % threads : 0;
  const auto group_end = [&](int gi) { return std::min(W, (gi + 1) * g); };
  const auto group_buckets = [&](int gi) {  // {fewest, most} buckets of a window of group gi
    std::pair<uint32_t, uint32_t> mm{UINT32_MAX, 0};
    for (int w = gi * g; w < group_end(gi); w++)
      mm = {std::min(mm.first, wp.buckets[size_t(w)]), std::max(mm.second, wp.buckets[size_t(w)])};
    return mm;
  };
  // The groups split are the last `rest` with >= 256 buckets per range in
  // every window. A uniform layout's top window may hold a few bits (128
  // buckets for 12-bit windows over 127-bit halves): it stays whole, and a
  // full window is split instead, rather than every window in halves too
  // narrow for direct scheduling (2^16 points on two threads, 12-bit windows:
  // 103.9 -> 77.8 ms, medians of four alternations).
  // The top group is split last of all: the top window's digits crowd its
  // lower buckets (GLV halves stay below about 2^126.4, so bits 114-126 give
  // digits up to about 5,500 of 8,192), and an even split of its bucket range
  // gave one task about three times the other's additions (2^18 G1 points on
  // two threads: 35.5 against 16.0 ms, the other thread idle meanwhile).
  std::vector<bool> split(size_t(ngroups), false);
  uint32_t chosen = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int gi = ngroups - 1; gi >= 0 && chosen < rest; gi--) {
      if ((gi == ngroups - 1) != (pass == 1) || group_buckets(gi).first / threads < 256) continue;
      split[size_t(gi)] = true;
      chosen++;
    }
  const bool split_rest = R > 1 && rest && chosen == rest && threads <= cap &&
                          uint32_t(ngroups) - rest + rest * threads >= 4 * threads;
  const auto add_ranges = [&](int gi, uint32_t n, uint32_t M) {
    for (uint32_t r = 0; r < n; r++)
      tp.tasks.push_back(
          {gi * g, group_end(gi), uint32_t(uint64_t(M) * r / n), uint32_t(uint64_t(M) * (r + 1) / n)});
  };
  if (!split_rest) {  // R ranges of the widest window's buckets per group
    for (int gi = 0; gi < ngroups; gi++) add_ranges(gi, R, Mmax);
    return tp;
  }
  // Whole groups first, then the split ones, each in T ranges of its own buckets.
  for (int gi = 0; gi < ngroups; gi++)
    if (!split[size_t(gi)]) add_ranges(gi, 1, Mmax);
  for (int gi = 0; gi < ngroups; gi++)
    if (split[size_t(gi)]) add_ranges(gi, threads, group_buckets(gi).second);
  return tp;
}

// Which windows' batch-affine buckets direct scheduling fills (with the
// IFMA kernels only; bucket_scheduler.hpp) instead of the sorted trees.
enum class Scheduling { None, WideWindows, AllWindows };

inline Scheduling choose_scheduling(Kernels kernels, Accumulator accumulator, Bucketing bucketing) {
  const bool can = kernels == Kernels::Ifma && accumulator == Accumulator::BatchAffine;
  return !can || bucketing == Bucketing::Sorted ? Scheduling::None
         : bucketing == Bucketing::Scheduled    ? Scheduling::AllWindows
                                                : Scheduling::WideWindows;
}

// How the task range [lo, hi) of a window of `buckets` buckets is filled:
// 0 = sorted trees; 1 = scheduled straight into its buckets (>= 2048 of
// them, or forced); k > 1 = scheduled into k copies of its buckets, 4096 in
// all, then added up: a narrower window that a task covers whole (the top
// window: few buckets, many entries each), whose sorted trees would gather
// entries at random from the whole chunk. Windows of fewer than 64 buckets
// stay sorted.
inline uint32_t bucket_copies(Scheduling s, uint32_t buckets, uint32_t lo, uint32_t hi) {
  const uint32_t span = hi - lo;
  if (s == Scheduling::AllWindows || (s == Scheduling::WideWindows && span >= kMinScheduledSpan)) return 1;
  return s == Scheduling::WideWindows && lo == 0 && hi == buckets && span >= 64 ? 4096 / span : 0;
}

}  // namespace cuzk::msm::detail
