#pragma once
// The namespace of everything in src/cuda/: cuzk::cuda::gpu (inline) when
// built for a GPU, cuzk::cuda::emu (inline) when built for the SIMT emulator
// (CUZK_SIMT defined), so that both builds can be linked into one binary and
// callers write cuzk::cuda::... either way. Plain C++ headers of the layer
// include this alone; kernel sources get it through cuda/compat.cuh.
//
// In the emulator build the namespace also sees CUDA's names (threadIdx,
// __syncthreads, cudaMalloc, ...), which the emulator keeps out of the
// global namespace (src/simt/builtins.hpp, src/simt/runtime.hpp).
#if defined(CUZK_SIMT)
#define CUZK_CUDA_NAMESPACE_BEGIN   \
  namespace cuzk::simt::cuda_api {} \
  namespace cuzk::cuda {            \
  inline namespace emu {            \
  using namespace ::cuzk::simt::cuda_api;
#else
#define CUZK_CUDA_NAMESPACE_BEGIN \
  namespace cuzk::cuda {          \
  inline namespace gpu {
#endif
#define CUZK_CUDA_NAMESPACE_END \
  }                             \
  }
