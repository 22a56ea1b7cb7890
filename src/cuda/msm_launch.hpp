#pragma once
// Launchers of the MSM kernels (cuda/msm_kernels.cuh, instantiated in
// msm.cu for DevFp and DevFp2), callable from plain C++: pointers are device
// pointers, `stream` a cudaStream_t (null = the default stream). Each
// returns the cudaError_t of its launch as an int (0 = success) and runs
// asynchronously. The host-facing API is cuda/msm.hpp.
#include <cstdint>

#include "cuda/namespace.hpp"
#include "cuda/ec_device.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace msm_dev {

inline constexpr uint32_t kNoKey = 0xffffffffu;     // an unused partial slot
inline constexpr uint32_t kNegative = 0x80000000u;  // a pair's ref: the digit is negative
inline constexpr unsigned kThreads = 256;           // blocks of the sort and scan kernels
inline constexpr unsigned kPointThreads = 128;      // blocks of the kernels that add points
inline constexpr unsigned kScanItems = 4;           // elements per thread of a scan tile
inline constexpr unsigned kScanTile = kThreads * kScanItems;

// A canonical 256-bit scalar as eight little-endian u32 words: the bytes
// of an arith::Limbs<4>.
struct DevScalar {
  uint32_t w[8];
};

// The shape of the digits: c bits, W windows, M = 2^(c-1) buckets each.
struct Windows {
  unsigned c, W;
  CUZK_HD uint32_t buckets() const { return uint32_t(1) << (c - 1); }
  CUZK_HD uint32_t ones_key() const { return W * buckets(); }
};

int launch_prepare_scalars(const DevScalar* src, uint32_t n_src, uint64_t s0, const uint64_t* density,
                           const uint64_t* prefix, uint64_t p0, DevScalar* dst, void* stream);
int launch_count_pairs(const DevScalar* sc, uint32_t n, Windows win, uint32_t* count, void* stream);
int launch_scatter_pairs(const DevScalar* sc, uint32_t n, Windows win, uint32_t* cursor, uint32_t* keys,
                         uint32_t* refs, void* stream);
// Exclusive prefix sums of data[0, n) in place; tile_sums gets one total per
// kScanTile elements (null when n <= kScanTile); then scan_add adds the
// scanned tile totals back.
int launch_scan_tiles(uint32_t* data, uint32_t n, uint32_t* tile_sums, void* stream);
int launch_scan_add(uint32_t* data, uint32_t n, const uint32_t* tile_offsets, void* stream);

// The segmented reduction (k_segmented_sum) over m pairs (level 1, exact)
// or m partial sums; `per` inputs per thread; pkeys/pvals hold
// 2 * ceil(m / per) slots (null when per >= m). blocks_per_sm: 1 (registers
// as the compiler likes) or 4 (capped at 128 per thread).
template <class F>
int launch_sum_pairs(const uint32_t* keys, const uint32_t* refs, const DevAffine<F>* points, uint32_t m,
                     uint32_t per, unsigned blocks_per_sm, DevXyzz<F>* out, uint32_t* pkeys,
                     DevXyzz<F>* pvals, void* stream);
template <class F>
int launch_sum_partials(const uint32_t* keys, const DevXyzz<F>* vals, uint32_t m, uint32_t per, bool exact,
                        DevXyzz<F>* out, uint32_t* pkeys, DevXyzz<F>* pvals, void* stream);
// Window running sums over segments of `per` buckets (segs per window).
template <class F>
int launch_window_segments(const DevXyzz<F>* buckets, Windows win, uint32_t per, uint32_t segs,
                           uint32_t* out_keys, DevXyzz<F>* out_vals, void* stream);

// Element-wise point operations, for the tests of cuda/ec_device.cuh:
// r[i] = a[i] + b[i] | a[i] + q[i] | 2 a[i] | k[i] * a[i].
enum class EcOp : int { add, add_affine, dbl, mul_small };
template <class F>
int launch_ec_op(EcOp op, const DevXyzz<F>* a, const DevXyzz<F>* b, const DevAffine<F>* q, const uint32_t* k,
                 DevXyzz<F>* r, uint32_t n, void* stream);

}  // namespace msm_dev
CUZK_CUDA_NAMESPACE_END
