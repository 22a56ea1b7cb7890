#pragma once
// Multi-scalar multiplication  sum_i k_i * P_i  over BLS12-381 G1 and G2 on
// a CUDA device (or under the SIMT emulator: compat.cuh).
//
//   cuda::DevicePoints<ec::G1Curve> pts(host_points);          // upload once, keep
//   ec::G1Jacobian r = cuda::msm(pts, cuda::ScalarSpan::host(scalars));
//
// Scalars are canonical little-endian 256-bit integers (arith::Limbs<4>, as
// msm::msm_canonical takes them), reduced mod r on the device; the result is
// msm::msm_canonical's point. Any n >= 0 (0 gives the identity); identity
// points, repeated and opposite points, any scalars are fine.
//
// Algorithm (src/cuda/MSM.md has the details, the limits and the plan):
//   - scalars 0 are skipped; scalars 1 are summed apart, by the same
//     segmented reduction as a bucket (a tree of additions, no windows);
//   - the others are cut into signed (Booth) digits of c bits on the device:
//     W = ceil(256 / c) windows of 2^(c-1) buckets, digit d -> bucket |d|,
//     sign on the point;
//   - (bucket, point) pairs are grouped by bucket by a counting sort
//     (histogram, exclusive prefix sum, scatter);
//   - buckets are summed in XYZZ coordinates: every thread adds a fixed
//     number of consecutive pairs, so a long bucket is split over many
//     threads; the pieces of split buckets are combined by further levels
//     of the same reduction (a segmented tree);
//   - each window's sum_i i * B_i by parallel running sums over bucket
//     segments, combined by the same segmented reduction;
//   - the W window sums are combined on the host (Horner: c doublings per
//     window, microseconds), with the sum of the scalar-1 points.
// Points are processed in chunks (passes) whose digits and sort scratch fit
// the device memory; every chunk adds into the same buckets. Points that
// live in host memory are uploaded chunk by chunk, the next chunk on a copy
// stream while the current one is processed (events order the two); the
// copies overlap only when the host memory is pinned (cudaHostAlloc /
// cudaHostRegister).
//
// Kernel limits (msm() plans every launch within them and throws
// std::invalid_argument for options beyond them):
//   - window c in [1, kMaxWindowBits] bits: W = ceil(256 / c) windows;
//   - points per chunk <= 2^24, and chunk_points * (W + 1) < 2^32 (pairs
//     are indexed by u32, a pair holds a 31-bit point index and the sign);
//   - blocks of 256 threads, 128 for the kernels that add points (they take
//     ~250 registers per thread on sm_90); static shared memory only
//     (<= 1 KiB per block); grids in x only, < 2^31 blocks.
// Device memory per call: the buckets ((W * 2^(c-1) + 1) XYZZ points:
// 192 bytes for G1, 384 for G2), and per chunk about 32 + 8 * W bytes per
// point plus the split-bucket partial sums and, for host points, two
// staging slots; MsmOptions::scratch_bytes bounds the total (the chunk
// shrinks to fit). Callers that run MSMs side by side should give each its
// share: the default takes 3/4 of the free memory (at most 8 GiB).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "arith/limbs.hpp"
#include "cuda/namespace.hpp"
#include "cuda/device.hpp"
#include "ec/bls12_381.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

inline constexpr int kMaxWindowBits = 20;

// A curve's points resident in device memory, for as long as the object
// lives (e.g. a Groth16 parameter set's queries while it is loaded).
template <class C>
class DevicePoints {
 public:
  DevicePoints() = default;
  // Uploads `points` (synchronously) to `device`. Throws cuda::Error (naming
  // the call and the CUDA error) when the allocation or the copy fails.
  explicit DevicePoints(std::span<const ec::Affine<C>> points, int device = 0);
  // n points that repeat `pattern` (benchmarks: a large set without its host
  // copy).
  static DevicePoints repeated(std::span<const ec::Affine<C>> pattern, size_t n, int device = 0);

  size_t size() const { return n_; }
  int device() const { return device_; }
  size_t device_bytes() const { return buf_.bytes(); }  // device memory held
  // Device pointer to size() points in ec::Affine<C>'s layout.
  const ec::Affine<C>* data() const { return static_cast<const ec::Affine<C>*>(buf_.get()); }

 private:
  DeviceBuffer buf_;
  size_t n_ = 0;
  int device_ = 0;
};

// Where an MSM term's points are: device memory (resident) or host memory
// (streamed to the device chunk by chunk).
template <class C>
struct PointSpan {
  const ec::Affine<C>* data = nullptr;
  size_t size = 0;
  bool on_device = false;
  int device = 0;  // when on_device

  static PointSpan host(std::span<const ec::Affine<C>> p) { return {p.data(), p.size(), false, 0}; }
  // Points [first, first + count) of a resident set.
  static PointSpan resident(const DevicePoints<C>& p, size_t first = 0, size_t count = SIZE_MAX);
};

// Canonical scalars (arith::Limbs<4>, any 256-bit value) in host or device
// memory.
struct ScalarSpan {
  const arith::Limbs<4>* data = nullptr;
  size_t size = 0;
  bool on_device = false;

  static ScalarSpan host(std::span<const arith::Limbs<4>> s) { return {s.data(), s.size(), false}; }
  static ScalarSpan device(const arith::Limbs<4>* d, size_t n) { return {d, n, true}; }
};

// One term sum_k scalars'[k] * points[k]. Without a density, scalars' =
// scalars (same length as the points). With one (a bitmap over the scalars
// in host memory, bit j of word j / 64, as r1cs::Density::words()),
// scalars' is the subsequence of the scalars whose bit is set: the k-th
// selected scalar pairs with point k, and the number of set bits among the
// first scalars.size bits must be points.size (Groth16's A/B queries).
template <class C>
struct MsmTerm {
  PointSpan<C> points;
  ScalarSpan scalars;
  std::span<const uint64_t> density = {};
};

struct MsmOptions {
  int window_bits = 0;       // 0 = cost model; otherwise 1..kMaxWindowBits
  size_t chunk_points = 0;   // points per pass; 0 = as many as scratch_bytes allows (cap 2^24)
  size_t scratch_bytes = 0;  // per-pass scratch bound; 0 = 3/4 of the free device memory, <= 8 GiB
  int device = 0;            // the device when no term has resident points
  void* stream = nullptr;    // cudaStream_t the MSM runs on (null: a stream of its own); the
                             // call is synchronous either way
  // Work per thread of the segmented reductions (0 = by size; tests force
  // small values so that buckets split over many threads and levels).
  unsigned pairs_per_thread = 0;     // level 1 (pairs of point + bucket), >= 1
  unsigned partials_per_thread = 0;  // later levels, >= 4
  unsigned buckets_per_thread = 0;   // window running sums, >= 1
  // Blocks of the bucket-sum kernel per SM: 4 caps its registers at 128 per
  // thread (twice the warps, a few spills), 1 leaves them to the compiler;
  // 0 = CUZK_CUDA_MSM_BLOCKS_PER_SM if set, else kDefaultBlocksPerSm.
  unsigned blocks_per_sm = 0;
};
inline constexpr unsigned kDefaultBlocksPerSm = 4;

// What one call did (tests and benchmarks).
struct MsmStats {
  int window_bits = 0, windows = 0;
  size_t chunks = 0;         // passes over chunks of points
  size_t pairs = 0;          // (bucket, point) pairs sorted, scalar-1 points included
  unsigned max_levels = 0;   // deepest segmented reduction of a chunk (1 = no bucket split)
  size_t scratch_bytes = 0;  // device scratch allocated (buckets included)
};

// sum over the terms (at least one term, or none: the identity). Terms with
// resident points must all be on one device. Throws std::invalid_argument
// for inconsistent sizes or options, cuda::Error (naming the call and the
// CUDA error) when a CUDA call fails.
template <class C>
ec::Jacobian<C> msm(std::span<const MsmTerm<C>> terms, const MsmOptions& opt = {}, MsmStats* stats = nullptr);

template <class C>
ec::Jacobian<C> msm(const DevicePoints<C>& points, ScalarSpan scalars, const MsmOptions& opt = {}) {
  const MsmTerm<C> t{PointSpan<C>::resident(points), scalars};
  return msm<C>(std::span<const MsmTerm<C>>(&t, 1), opt);
}
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> host_points, ScalarSpan scalars,
                    const MsmOptions& opt = {}) {
  const MsmTerm<C> t{PointSpan<C>::host(host_points), scalars};
  return msm<C>(std::span<const MsmTerm<C>>(&t, 1), opt);
}

// Milliseconds (CUDA events) of one MSM over 2^log_n resident points with
// scalars in device memory, best of `reps` after a warm-up. `kind`:
// "uniform" (uniform in [0, r)) or "filecoin" (45% 0, 45% 1, 10% uniform).
// Points are multiples of the generator (a cheap chain), which costs the
// MSM what random points cost.
// `opt` fixes the window or the work per thread (tuning sweeps); `stats`,
// when given, receives what the timed call did.
template <class C>
double time_msm(unsigned log_n, const std::string& kind, int reps, int device = 0, const MsmOptions& opt = {},
                MsmStats* stats = nullptr);

CUZK_CUDA_NAMESPACE_END
