// The NTT's element-wise kernels over Fr (one thread per index of the steps
// in cuda/ntt_steps.cuh): the bit-reversal permutation and the power
// tables and scalings. The transform's stages run in passes on shared-memory
// tiles (cuda/h_kernels.cu).
#include "cuda/kernels.hpp"
#include "cuda/launch.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {
namespace {

__global__ void k_bitrev(DevFr* a, unsigned log_n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (uint32_t(1) << log_n)) steps::bitrev_swap(a, log_n, i);
}

// The table travels as a kernel parameter (1 KiB, in constant space).
__global__ void k_powers(DevFr* a, uint32_t n, const steps::PowTable t, const DevFr c, bool scale) {
  const uint32_t chunk = blockIdx.x * blockDim.x + threadIdx.x;
  steps::powers_chunk(a, n, t, c, scale, chunk);
}

}  // namespace

int launch_bitrev(DevFr* a, unsigned log_n, void* stream) {
  if (log_n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_bitrev, blocks_for(uint64_t(1) << log_n), kThreads, 0, as_stream(stream), a, log_n);
  return cudaGetLastError();
}

int launch_powers(DevFr* a, uint32_t n, const steps::PowTable& t, const DevFr& c, bool scale, void* stream) {
  if (n == 0) return cudaSuccess;
  const uint64_t chunks = (uint64_t(n) + steps::kPowChunk - 1) / steps::kPowChunk;
  CUZK_LAUNCH(k_powers, blocks_for(chunks), kThreads, 0, as_stream(stream), a, n, t, c, scale);
  return cudaGetLastError();
}

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
