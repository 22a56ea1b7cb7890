// Element-wise field kernels: the device arithmetic of cuda/fp_device.cuh
// exercised directly (tests against ff::Fr / ff::Fp, throughput runs).
#include "cuda/kernels.hpp"
#include "cuda/launch.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {
namespace {

template <class F>
__global__ void k_op(FieldOp op, F* r, const F* a, const F* b, uint64_t n) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (op) {
    case FieldOp::add: r[i] = a[i] + b[i]; break;
    case FieldOp::sub: r[i] = a[i] - b[i]; break;
    case FieldOp::mul: r[i] = a[i] * b[i]; break;
  }
}

__global__ void k_mul_chain(DevFr* x, const DevFr* y, uint64_t n, unsigned rounds) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DevFr v = x[i];
  const DevFr w = y[i];
  for (unsigned r = 0; r < rounds; r++) v = v.sqr() * w;
  x[i] = v;
}

template <class F>
int launch_op(FieldOp op, F* r, const F* a, const F* b, uint64_t n, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_op<F>, blocks_for(n), kThreads, 0, as_stream(stream), op, r, a, b, n);
  return cudaGetLastError();
}

}  // namespace

int launch_fr_op(FieldOp op, DevFr* r, const DevFr* a, const DevFr* b, uint64_t n, void* stream) {
  return launch_op(op, r, a, b, n, stream);
}
int launch_fp_op(FieldOp op, DevFp* r, const DevFp* a, const DevFp* b, uint64_t n, void* stream) {
  return launch_op(op, r, a, b, n, stream);
}

int launch_fr_mul_chain(DevFr* x, const DevFr* y, uint64_t n, unsigned rounds, void* stream) {
  if (n == 0) return cudaSuccess;
  CUZK_LAUNCH(k_mul_chain, blocks_for(n), kThreads, 0, as_stream(stream), x, y, n, rounds);
  return cudaGetLastError();
}

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
