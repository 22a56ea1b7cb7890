// Kernels over a proof's scalars (cuda/scalar_kernels.hpp).
#include "cuda/compat.cuh"
#include "cuda/scalar_kernels.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {
namespace {

constexpr unsigned kThreads = 256;

cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }
unsigned blocks_for(uint64_t work) { return unsigned((work + kThreads - 1) / kThreads); }

__global__ void k_to_canonical(DevFr* out, const DevFr* in, uint64_t n) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = from_montgomery(in[i]);
}

// One thread per bitmap word: its set bits, in order, after the ones before.
__global__ void k_select(DevFr* out, const DevFr* in, const uint64_t* words, const uint64_t* before, uint64_t bits) {
  const uint64_t w = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w * 64 >= bits) return;
  uint64_t m = words[w];
  const uint64_t left = bits - w * 64;
  if (left < 64) m &= (uint64_t(1) << left) - 1;
  uint64_t at = before[w];
  while (m) {
    const unsigned b = unsigned(__ffsll((long long)m) - 1);
    out[at++] = in[w * 64 + b];
    m &= m - 1;
  }
}

}  // namespace

int launch_to_canonical(DevFr* out, const DevFr* in, uint64_t n, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_to_canonical, blocks_for(n), kThreads, 0, as_stream(stream), out, in, n);
  return cudaGetLastError();
}

int launch_select(DevFr* out, const DevFr* in, const uint64_t* words, const uint64_t* before, uint64_t bits,
                  void* stream) {
  if (bits == 0) return cudaSuccess;
  CUZK_LAUNCH(k_select, blocks_for((bits + 63) / 64), kThreads, 0, as_stream(stream), out, in, words, before, bits);
  return cudaGetLastError();
}

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
