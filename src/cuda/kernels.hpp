#pragma once
// Launchers of the kernels in ntt.cu / field.cu, callable from plain C++
// (no CUDA types: pointers are device pointers, `stream` a cudaStream_t or
// null for the default stream). Each returns the cudaError_t of the launch
// as an int (0 = cudaSuccess); the kernels run asynchronously on `stream`.
// The host-facing API is cuda/ntt.hpp and cuda/field.hpp.
#include <cstdint>

#include "cuda/ntt_steps.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {

int launch_bitrev(DevFr* a, unsigned log_n, void* stream);
// a[i] = c * g^i (scale = false) or a[i] *= c * g^i (scale = true), i < n,
// with t.pw[b] = g^(2^b).
int launch_powers(DevFr* a, uint32_t n, const steps::PowTable& t, const DevFr& c, bool scale, void* stream);

enum class FieldOp { add, sub, mul };
// r[i] = a[i] op b[i], i < n (element-wise, for tests and throughput runs).
int launch_fr_op(FieldOp op, DevFr* r, const DevFr* a, const DevFr* b, uint64_t n, void* stream);
int launch_fp_op(FieldOp op, DevFp* r, const DevFp* a, const DevFp* b, uint64_t n, void* stream);
// x[i] <- x[i]^2 repeated `rounds` times with a multiply by y[i] each round:
// a dependent chain of 2*rounds products per element (field throughput).
int launch_fr_mul_chain(DevFr* x, const DevFr* y, uint64_t n, unsigned rounds, void* stream);

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
