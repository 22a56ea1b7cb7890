#pragma once
// Launch shapes shared by the kernel files of src/cuda/ (after compat.cuh).
#include <cstdint>

#include "cuda/compat.cuh"

CUZK_CUDA_NAMESPACE_BEGIN
namespace detail {

// Threads per block of the element-wise kernels (one thread per element).
inline constexpr unsigned kThreads = 256;

// Blocks for `work` threads at `per_block` a block.
inline unsigned blocks_for(uint64_t work, unsigned per_block = kThreads) {
  return unsigned((work + per_block - 1) / per_block);
}

// The launchers' `void* stream` (plain C++ callers know no CUDA types).
inline cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

}  // namespace detail
CUZK_CUDA_NAMESPACE_END
