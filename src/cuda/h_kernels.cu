// Kernels of the H step (cuda/h_kernels.hpp): transform passes on shared-
// memory tiles, the pointwise a·b − c, and the conversions out of
// Montgomery form.
#include "cuda/compat.cuh"
#include "cuda/h_kernels.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {
namespace {

constexpr unsigned kThreads = 256;

cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }
unsigned blocks_for(uint64_t work) { return unsigned((work + kThreads - 1) / kThreads); }

// The global index of element t of group gi in a pass over stages [lo, hi):
// the group's bits below lo and above hi, t in bits [lo, hi).
__device__ __forceinline__ uint64_t pass_index(uint64_t gi, uint32_t t, unsigned lo, unsigned hi) {
  const uint64_t low = gi & ((uint64_t(1) << lo) - 1), high = gi >> lo;
  return (high << hi) | (uint64_t(t) << lo) | low;
}

// One radix-2 butterfly of a stage on the tile. `sp`: the stage within the
// pass (distance 2^sp in t); j: the butterfly's place in its 2h-block, so
// the twiddle is w_{2h}^j = tw[j << (log_n - 1 - stage)].
__device__ __forceinline__ void butterfly(DevFr* tile, const NttPass& p, const DevFr* tw, bool dit, unsigned sp,
                                          uint32_t q, uint32_t g, uint64_t glow) {
  const uint32_t below = (uint32_t(1) << sp) - 1;
  const uint32_t t0 = ((q >> sp) << (sp + 1)) | (q & below);
  const uint32_t t1 = t0 + (uint32_t(1) << sp);
  const unsigned stage = p.lo + sp;
  const uint64_t j = (uint64_t(t0 & below) << p.lo) | glow;
  const DevFr w = tw[j << (p.log_n - 1 - stage)];
  DevFr& u = tile[(t0 << p.gb) | g];
  DevFr& v = tile[(t1 << p.gb) | g];
  const DevFr x = u;
  if (dit) {
    const DevFr y = v * w;
    u = x + y;
    v = x - y;
  } else {
    const DevFr y = v;
    u = x + y;
    v = (x - y) * w;
  }
}

__global__ void k_ntt_pass(DevFr* a, const NttPass p) {
  CUZK_DYNAMIC_SHARED(DevFr, tile);
  __shared__ DevFr group_power;  // shift^brev(group) of the scaling pass (one group per block)
  const uint32_t G = uint32_t(1) << p.gb, K = uint32_t(1) << p.k;
  const unsigned hi = p.lo + p.k;
  const uint64_t gi0 = uint64_t(blockIdx.x) << p.gb;
  for (uint32_t e = threadIdx.x; e < G * K; e += blockDim.x)
    tile[e] = a[pass_index(gi0 + (e & (G - 1)), e >> p.gb, p.lo, hi)];
  if (p.scale && threadIdx.x == 0) {
    // lo == 0, so the block's one group gi holds positions gi·2^k + t and
    // brev(position) = brev_k(t)·2^(log_n-k) + brev_(log_n-k)(gi).
    group_power = steps::pow_from_table(p.shift_pw, steps::bit_reverse(uint32_t(gi0), p.log_n - p.k));
  }
  __syncthreads();
  const uint32_t g = threadIdx.x & (G - 1), q = threadIdx.x >> p.gb;
  const uint64_t glow = (gi0 + g) & ((uint64_t(1) << p.lo) - 1);
  if (p.dif) {
    for (unsigned s = 0; s < p.k; s++) {
      butterfly(tile, p, p.tw_dif, false, p.k - 1 - s, q, g, glow);
      __syncthreads();
    }
  }
  if (p.scale) {
    const DevFr f = p.c * group_power;
    for (uint32_t t = threadIdx.x; t < K; t += blockDim.x) tile[t] = tile[t] * (f * p.shift_tab[steps::bit_reverse(t, p.k)]);
    __syncthreads();
  }
  if (p.dit) {
    for (unsigned s = 0; s < p.k; s++) {
      butterfly(tile, p, p.tw_dit, true, s, q, g, glow);
      __syncthreads();
    }
  }
  for (uint32_t e = threadIdx.x; e < G * K; e += blockDim.x)
    a[pass_index(gi0 + (e & (G - 1)), e >> p.gb, p.lo, hi)] = tile[e];
}

__global__ void k_combine(DevFr* a, const DevFr* b, const DevFr* c, uint64_t n) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * b[i] - c[i];
}

__global__ void k_gather_bitrev_canonical(DevFr* out, const DevFr* a, unsigned log_n, uint64_t count) {
  const uint64_t j = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j < count) out[j] = from_montgomery(a[steps::bit_reverse(uint32_t(j), log_n)]);
}

}  // namespace

int launch_ntt_pass(DevFr* a, const NttPass& p, void* stream) {
  if (p.k == 0 || p.k > kMaxPassStages || p.gb + p.k > kMaxTileLog || p.lo + p.k > p.log_n || p.gb > p.lo ||
      (p.scale && p.lo != 0))
    return cudaErrorInvalidValue;
  const uint64_t groups = uint64_t(1) << (p.log_n - p.k);
  const unsigned blocks = unsigned(groups >> p.gb);
  const unsigned threads = (1u << (p.gb + p.k)) / 2;
  const size_t shared = (size_t(1) << (p.gb + p.k)) * sizeof(DevFr);
  CUZK_LAUNCH(k_ntt_pass, blocks, threads, shared, as_stream(stream), a, p);
  return cudaGetLastError();
}

int launch_combine(DevFr* a, const DevFr* b, const DevFr* c, uint64_t n, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_combine, blocks_for(n), kThreads, 0, as_stream(stream), a, b, c, n);
  return cudaGetLastError();
}

int launch_gather_bitrev_canonical(DevFr* out, const DevFr* a, unsigned log_n, uint64_t count, void* stream) {
  if (count == 0) return cudaSuccess;
  CUZK_LAUNCH(k_gather_bitrev_canonical, blocks_for(count), kThreads, 0, as_stream(stream), out, a, log_n, count);
  return cudaGetLastError();
}

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
