#pragma once
// Planning of a device MSM (host code, no CUDA calls): the window size from
// a cost model, the points per chunk from a memory budget, the work per
// thread of the reductions, and the device memory all of that takes.
//
// Cost model, in XYZZ mixed additions (the unit the GPU spends most on):
//   cost(c) = W * (n + M * (kBucketCost + kChunkBucketCost * chunks)),
//   W = ceil(256 / c), M = 2^(c-1)
// n: one addition per pair (a point in a window; its sort is folded into the
// unit); per bucket: the running sums (two full additions, ~1.3 mixed each)
// and, per chunk, the one addition that merges the chunk's sum into the
// bucket. Not yet measured on a GPU: the constants are operation counts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/namespace.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace msm_plan {

inline constexpr double kBucketCost = 2.6;
inline constexpr double kChunkBucketCost = 1.3;
inline constexpr size_t kMaxChunkPoints = size_t(1) << 24;
inline constexpr unsigned kMaxPlanWindowBits = 20;  // = cuda::kMaxWindowBits

inline unsigned windows_for(unsigned c) { return (256 + c - 1) / c; }

inline uint32_t ceil_div(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }
inline uint32_t pow2_at_least(uint64_t x) {
  uint32_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

// Work per thread, by size (MsmOptions' overrides aside): level 1 aims at
// ~2^20 threads (at most 256 pairs each, at least 8), later levels take 32
// partials per thread, the running sums ~2^16 threads.
inline uint32_t default_pairs_per_thread(uint64_t max_pairs) {
  uint32_t p = pow2_at_least((max_pairs + (uint64_t(1) << 20) - 1) >> 20);
  return p < 8 ? 8 : p > 256 ? 256 : p;
}
inline constexpr uint32_t kDefaultPartialsPerThread = 32;
inline uint32_t default_buckets_per_thread(unsigned W, uint32_t M) {
  uint32_t p = pow2_at_least((uint64_t(W) * M + 0xffff) >> 16);
  const uint32_t lo = M < 8 ? M : 8;
  return p < lo ? lo : p > M ? M : p;
}

struct Sizes {
  size_t xyzz_bytes, affine_bytes;
  bool stage_points, stage_scalars;  // some term streams points / scalars from the host
  double scalar_spread = 1;          // scalar range / points of a chunk (densities)
};

// Slots of the partial sums at level 1 and level 2 of a reduction of
// `pairs` inputs.
inline uint64_t level1_slots(uint64_t pairs, uint32_t per) { return 2 * uint64_t(ceil_div(pairs, per)); }
inline uint64_t level2_slots(uint64_t pairs, uint32_t per, uint32_t per_partials) {
  return 2 * uint64_t(ceil_div(level1_slots(pairs, per), per_partials));
}

// Device bytes of one chunk's scratch with `points` points and W windows.
inline double chunk_bytes(size_t points, unsigned W, const Sizes& s, uint32_t per, uint32_t per_partials) {
  const double pairs = double(points) * W;
  const double slots =
      double(level1_slots(uint64_t(pairs), per) + level2_slots(uint64_t(pairs), per, per_partials));
  double b = 32.0 * points + 8.0 * pairs + slots * (4.0 + double(s.xyzz_bytes));
  if (s.stage_points) b += 2.0 * double(points) * double(s.affine_bytes);
  if (s.stage_scalars) b += 2.0 * 32.0 * double(points) * s.scalar_spread;
  return b;
}

// Device bytes that do not depend on the chunk: buckets, counters, the
// window reduction.
inline double fixed_bytes(unsigned c, const Sizes& s) {
  const unsigned W = windows_for(c);
  const double keys = double(W) * double(uint64_t(1) << (c - 1)) + 2;
  return keys * (double(s.xyzz_bytes) + 12.0) + 4096.0 * 64;
}

// What the planner is given: the terms' sizes, the memory budget and the
// caller's overrides (0 = choose; cuda::MsmOptions).
struct Request {
  std::vector<size_t> term_points;
  Sizes sizes;
  double budget_bytes;
  int window_bits = 0;
  size_t chunk_points = 0;
  uint32_t pairs_per_thread = 0, partials_per_thread = 0, buckets_per_thread = 0;
};

struct Plan {
  unsigned c = 0, W = 0;     // window bits, windows
  size_t chunk_points = 0;   // points per chunk
  size_t chunks = 0;         // over all terms
  uint64_t max_pairs = 0;    // pairs of a full chunk: chunk_points * W
  uint32_t per_pair = 0;     // level-1 pairs per thread
  uint32_t per_partial = 0;  // later levels' partial sums per thread
  uint32_t per_bucket = 0;   // buckets per running-sum thread
  double cost = 0;           // the model's cost, in mixed additions
  double bytes = 0;          // device scratch the model expects
};

inline uint32_t pairs_per_thread(const Request& r, uint64_t max_pairs) {
  return r.pairs_per_thread ? r.pairs_per_thread : default_pairs_per_thread(max_pairs);
}
inline uint32_t partials_per_thread(const Request& r) {
  return r.partials_per_thread ? r.partials_per_thread : kDefaultPartialsPerThread;
}

// The largest chunk (<= the cap and the pair-index limit) whose scratch
// fits what the budget leaves beside the fixed buffers (at least 1 point).
inline size_t chunk_points_for(const Request& r, unsigned c) {
  const unsigned W = windows_for(c);
  size_t max_term = 0;
  for (size_t n : r.term_points) max_term = std::max(max_term, n);
  size_t n = std::min(max_term, r.chunk_points ? r.chunk_points : kMaxChunkPoints);
  n = std::min<size_t>(n, uint64_t(0xfffffffe) / (W + 1));
  const double left = r.budget_bytes - fixed_bytes(c, r.sizes);
  while (n > 1 &&
         chunk_bytes(n, W, r.sizes, pairs_per_thread(r, uint64_t(n) * W), partials_per_thread(r)) > left)
    n = (n + 1) / 2;
  return std::max<size_t>(n, 1);
}

inline Plan plan_for(const Request& r, unsigned c) {
  Plan p;
  p.c = c;
  p.W = windows_for(c);
  p.chunk_points = chunk_points_for(r, c);
  double total = 0;
  for (size_t n : r.term_points) {
    p.chunks += (n + p.chunk_points - 1) / p.chunk_points;
    total += double(n);
  }
  const double M = double(uint64_t(1) << (c - 1));
  p.cost = p.W * (total + M * (kBucketCost + kChunkBucketCost * double(p.chunks)));
  p.max_pairs = uint64_t(p.chunk_points) * p.W;
  p.per_pair = pairs_per_thread(r, p.max_pairs);
  p.per_partial = partials_per_thread(r);
  const uint32_t Mi = uint32_t(1) << (c - 1);
  p.per_bucket =
      r.buckets_per_thread ? std::min(r.buckets_per_thread, Mi) : default_buckets_per_thread(p.W, Mi);
  p.bytes = fixed_bytes(c, r.sizes) + chunk_bytes(p.chunk_points, p.W, r.sizes, p.per_pair, p.per_partial);
  return p;
}

// The window of least modelled cost among those whose buckets take at most
// half the budget (or the caller's window), and everything that follows
// from it.
inline Plan make_plan(const Request& r) {
  if (r.window_bits) return plan_for(r, unsigned(r.window_bits));
  Plan best = plan_for(r, 1);
  for (unsigned c = 2; c <= kMaxPlanWindowBits; c++) {
    if (fixed_bytes(c, r.sizes) > r.budget_bytes / 2) break;
    const Plan p = plan_for(r, c);
    if (p.cost < best.cost) best = p;
  }
  return best;
}

}  // namespace msm_plan
CUZK_CUDA_NAMESPACE_END
