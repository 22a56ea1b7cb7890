#pragma once
// The MSM's device code (cuda/msm.hpp has the algorithm and the limits):
// scalar preparation, the counting sort of (bucket, point) pairs, the
// segmented XYZZ reduction that sums buckets (and windows), the windows'
// running sums. Plain CUDA C++ for nvcc and the SIMT emulator alike.
//
// Keys: bucket |d| - 1 of window w is key w * M + |d| - 1 (M = 2^(c-1)
// buckets per window); the scalar-1 points share key W * M, after every
// window. A pair's ref is the point's index in its chunk, bit 31 set when
// the digit is negative.
#include <bit>
#include <cstdint>

#include "cuda/compat.cuh"
#include "cuda/ec_device.cuh"
#include "cuda/msm_launch.hpp"
#include "cuda/msm_segments.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace msm_dev {

CUZK_HD int popcount64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return std::popcount(x);
#endif
}

// k >= r (the Fr modulus, FrParams::p)?
CUZK_HD bool geq_r(const DevScalar& k) {
  for (int i = 7; i >= 0; i--) {
    if (k.w[i] != FrParams::p(i)) return k.w[i] > FrParams::p(i);
  }
  return true;
}
CUZK_HD void reduce_r(DevScalar& k) {
  // 2^256 < 3r: at most two subtractions.
  while (geq_r(k)) {
    uint64_t borrow = 0;
    for (int i = 0; i < 8; i++) {
      const uint64_t s = uint64_t(k.w[i]) - FrParams::p(i) - borrow;
      k.w[i] = uint32_t(s);
      borrow = (s >> 32) & 1;
    }
  }
}

enum : int { kZero = 0, kOne = 1, kBig = 2 };
CUZK_HD int classify(const DevScalar& k) {
  uint32_t high = 0;
  for (int i = 1; i < 8; i++) high |= k.w[i];
  if (high) return kBig;
  return k.w[0] <= 1 ? int(k.w[0]) : kBig;
}

// Booth digit of window w (c bits): d = v + b_{cw-1} - 2^c * b_{cw+c-1}, in
// [-2^(c-1), 2^(c-1)]; sum_w d_w 2^(cw) = k for k < 2^(cW-1) (msm/digits.hpp).
CUZK_HD int32_t booth_digit(const DevScalar& k, unsigned w, unsigned c) {
  const unsigned pos = w * c, i = pos / 32, sh = pos % 32;
  uint64_t x = 0;
  if (i < 8) x = k.w[i];
  if (i + 1 < 8) x |= uint64_t(k.w[i + 1]) << 32;
  const uint32_t v = uint32_t(x >> sh) & ((uint32_t(1) << c) - 1);
  const uint32_t low = pos ? (k.w[(pos - 1) / 32] >> ((pos - 1) % 32)) & 1 : 0;
  return int32_t(v + low) - int32_t((v >> (c - 1)) << c);
}

// ---- scalars ----

// dst[rank - p0] = src[t] mod r for the source scalars t < n_src (absolute
// index s0 + t) that are selected: all of them without a density (rank =
// s0 + t), else those whose bit is set (rank = prefix[word] + the set bits
// below it in the word).
__global__ void k_prepare_scalars(const DevScalar* src, uint32_t n_src, uint64_t s0, const uint64_t* density,
                                  const uint64_t* prefix, uint64_t p0, DevScalar* dst) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n_src) return;
  const uint64_t j = s0 + t;
  uint64_t rank = j;
  if (density) {
    const uint64_t word = density[j / 64], below = word & ((uint64_t(1) << (j % 64)) - 1);
    if (!((word >> (j % 64)) & 1)) return;
    rank = prefix[j / 64] + uint64_t(popcount64(below));
  }
  DevScalar k = src[t];
  reduce_r(k);
  dst[rank - p0] = k;
}

// ---- counting sort of the pairs ----

// count[key] += pairs of that key, for the n scalars of a chunk (the
// scalar-1 points counted once per block).
__global__ void k_count_pairs(const DevScalar* sc, uint32_t n, Windows win, uint32_t* count) {
  __shared__ uint32_t s_ones;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s_ones = 0;
  __syncthreads();
  if (i < n) {
    const DevScalar k = sc[i];
    const int cls = classify(k);
    if (cls == kOne) {
      atomicAdd(&s_ones, 1u);
    } else if (cls == kBig) {
      for (unsigned w = 0; w < win.W; w++) {
        const int32_t d = booth_digit(k, w, win.c);
        if (d != 0) atomicAdd(&count[w * win.buckets() + uint32_t(d < 0 ? -d : d) - 1], 1u);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && s_ones) atomicAdd(&count[win.ones_key()], s_ones);
}

// Writes every pair at cursor[key]++ (cursor = the exclusive prefix sums
// of the counts): pairs end up grouped by key, in no particular order
// within a key (sums do not depend on it).
__global__ void k_scatter_pairs(const DevScalar* sc, uint32_t n, Windows win, uint32_t* cursor,
                                uint32_t* keys, uint32_t* refs) {
  __shared__ uint32_t s_ones, s_base;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) s_ones = 0;
  __syncthreads();
  DevScalar k = {};
  int cls = kZero;
  uint32_t my = 0;
  if (i < n) {
    k = sc[i];
    cls = classify(k);
    if (cls == kOne) my = atomicAdd(&s_ones, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0 && s_ones) s_base = atomicAdd(&cursor[win.ones_key()], s_ones);
  __syncthreads();
  if (cls == kOne) {
    keys[s_base + my] = win.ones_key();
    refs[s_base + my] = i;
  } else if (cls == kBig) {
    for (unsigned w = 0; w < win.W; w++) {
      const int32_t d = booth_digit(k, w, win.c);
      if (d == 0) continue;
      const uint32_t key = w * win.buckets() + uint32_t(d < 0 ? -d : d) - 1;
      const uint32_t pos = atomicAdd(&cursor[key], 1u);
      keys[pos] = key;
      refs[pos] = i | (d < 0 ? kNegative : 0u);
    }
  }
}

// ---- exclusive prefix sums (in place) ----

// Each block scans its tile of kScanTile elements and writes the tile's
// total to tile_sums[block] (when not null).
__global__ void k_scan_tiles(uint32_t* data, uint32_t n, uint32_t* tile_sums) {
  __shared__ uint32_t s[kThreads];
  const uint32_t base = blockIdx.x * kScanTile + threadIdx.x * kScanItems;
  uint32_t v[kScanItems], sum = 0;
  for (unsigned j = 0; j < kScanItems; j++) {
    v[j] = base + j < n ? data[base + j] : 0;
    sum += v[j];
  }
  s[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned off = 1; off < kThreads; off <<= 1) {  // Hillis-Steele, inclusive
    const uint32_t x = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
    __syncthreads();
    s[threadIdx.x] += x;
    __syncthreads();
  }
  uint32_t run = s[threadIdx.x] - sum;
  for (unsigned j = 0; j < kScanItems; j++) {
    if (base + j < n) data[base + j] = run;
    run += v[j];
  }
  if (tile_sums && threadIdx.x == kThreads - 1) tile_sums[blockIdx.x] = s[kThreads - 1];
}

__global__ void k_scan_add(uint32_t* data, uint32_t n, const uint32_t* tile_offsets) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += tile_offsets[i / kScanTile];
}

// ---- segmented reduction ----

// Inputs of the reduction: pairs (a point of the chunk, negated when the
// ref says so; identities skipped) or XYZZ partial sums.
template <class F>
struct PairInput {
  const uint32_t* refs;
  const DevAffine<F>* points;
  CUZK_HD DevXyzz<F> add_to(const DevXyzz<F>& acc, uint32_t j) const {
    const uint32_t r = refs[j];
    const DevAffine<F>& p = points[r & ~kNegative];
    if (p.infinity) return acc;
    return acc.add_affine(p.x, (r & kNegative) ? -p.y : p.y);
  }
};
template <class F>
struct XyzzInput {
  const DevXyzz<F>* vals;
  CUZK_HD DevXyzz<F> add_to(const DevXyzz<F>& acc, uint32_t j) const { return acc.add(vals[j]); }
};

// The reduction's operations on XYZZ points: inputs added to the running
// sum, finished runs added to out[key], partial sums to the slots (none at
// a level run by one thread: pkeys null).
template <class F, class In>
struct PointSumOps {
  using Value = DevXyzz<F>;
  In in;
  DevXyzz<F>* out;
  uint32_t* pkeys;
  DevXyzz<F>* pvals;
  CUZK_HD Value zero() const { return Value::identity(); }
  CUZK_HD Value add(const Value& acc, uint32_t j) const { return in.add_to(acc, j); }
  CUZK_HD void finish(uint32_t key, const Value& acc) const { out[key] = out[key].add(acc); }
  CUZK_HD void partial(uint32_t slot, uint32_t key, const Value& acc) const {
    pkeys[slot] = key;
    pvals[slot] = acc;
  }
  CUZK_HD void clear(uint32_t slot) const {
    if (pkeys) pkeys[slot] = kNoKey;
  }
};

// One level of the segmented reduction (cuda/msm_segments.cuh): thread t
// sums inputs [t * per, (t + 1) * per). MinBlocks > 1 caps the registers so
// that as many blocks fit an SM (more warps to hide latency, some spills).
template <class F, class In, int MinBlocks = 1>
__global__ void CUZK_LAUNCH_BOUNDS(kPointThreads, MinBlocks)
    k_segmented_sum(const uint32_t* keys, In in, uint32_t m, uint32_t per, bool exact, DevXyzz<F>* out,
                    uint32_t* pkeys, DevXyzz<F>* pvals) {
  const PointSumOps<F, In> ops{in, out, pkeys, pvals};
  segmented_sum_range(keys, ops, m, per, exact, blockIdx.x * blockDim.x + threadIdx.x);
}

// ---- bucket reduction ----

// Thread t = w * segs + s sums bucket segment [s * per, (s + 1) * per) of
// window w as sum_i (i + 1) * B_i: running sums from the top (S += B_i,
// R += S gives sum (i - lo + 1) * B_i), plus lo * S. Writes key w and the
// sum at index t.
template <class F>
__global__ void k_window_segments(const DevXyzz<F>* buckets, Windows win, uint32_t per, uint32_t segs,
                                  uint32_t* out_keys, DevXyzz<F>* out_vals) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= win.W * segs) return;
  const uint32_t w = t / segs, s = t % segs, M = win.buckets();
  const uint32_t lo = s * per, hi = lo + per < M ? lo + per : M;
  const DevXyzz<F>* b = buckets + uint64_t(w) * M;
  DevXyzz<F> S = DevXyzz<F>::identity(), R = DevXyzz<F>::identity();
  for (uint32_t i = hi; i-- > lo;) {
    S = S.add(b[i]);
    R = R.add(S);
  }
  out_keys[t] = w;
  out_vals[t] = R.add(S.mul_small(lo));
}

// ---- element-wise point operations (tests of cuda/ec_device.cuh) ----

template <class F>
__global__ void k_ec_op(EcOp op, const DevXyzz<F>* a, const DevXyzz<F>* b, const DevAffine<F>* q,
                        const uint32_t* k, DevXyzz<F>* r, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (op) {
    case EcOp::add: r[i] = a[i].add(b[i]); break;
    case EcOp::add_affine: r[i] = a[i].add(q[i]); break;
    case EcOp::dbl: r[i] = a[i].dbl(); break;
    case EcOp::mul_small: r[i] = a[i].mul_small(k[i]); break;
  }
}

}  // namespace msm_dev
CUZK_CUDA_NAMESPACE_END
