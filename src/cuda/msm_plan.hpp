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
#include <cstddef>
#include <cstdint>

#include "cuda/namespace.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace msm_plan {

inline constexpr double kBucketCost = 2.6;
inline constexpr double kChunkBucketCost = 1.3;
inline constexpr size_t kMaxChunkPoints = size_t(1) << 24;

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
  const double slots = double(level1_slots(uint64_t(pairs), per) + level2_slots(uint64_t(pairs), per, per_partials));
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

}  // namespace msm_plan
CUZK_CUDA_NAMESPACE_END
