#pragma once
// What every CUDA source of src/cuda/ includes instead of <cuda_runtime.h>.
// The same kernel code builds twice:
//   - by nvcc, for a GPU:                namespace cuzk::cuda::gpu (inline)
//   - by the host compiler with CUZK_SIMT defined, under the SIMT emulator
//     (src/simt/: threads of a block as fibers, blocks over host threads),
//     which CI runs on machines without a GPU: namespace cuzk::cuda::emu.
// Both can live in one binary (the daemon offers "cuda" and "cuda-emulated"),
// so everything in src/cuda/ sits inside CUZK_CUDA_NAMESPACE_BEGIN/END.
//
// Kernels are written in plain CUDA C++ with three spellings that differ
// between the builds, given here as macros:
//   CUZK_LAUNCH(kernel, grid, block, shared_bytes, stream, args...)
//       instead of kernel<<<grid, block, shared_bytes, stream>>>(args...).
//       A template kernel with several arguments goes through an alias or
//       parentheses (a macro argument cannot hold a bare comma). Under the
//       emulator the kernel must not be overloaded and every argument is
//       given (no default arguments); the arguments are evaluated once and
//       converted to the parameter types, as CUDA does. The kernel's address
//       identifies it to cudaFuncSetAttribute in both builds.
//   CUZK_LAUNCH_BOUNDS(threads, min_blocks)  __launch_bounds__ (nothing
//       under the emulator).
//   CUZK_DYNAMIC_SHARED(T, name);
//       declares `T* name`, the block's dynamic shared memory (16-byte
//       aligned), instead of `extern __shared__ T name[]`.
//   #if defined(__CUDA_ARCH__)  device-only fast paths (inline PTX); each has
//       a portable twin in plain C++ that the emulator runs and that a GPU
//       test compares against. The emulator defines neither __CUDA_ARCH__
//       nor __CUDACC__.
// Everything else (__global__, __device__, __shared__, threadIdx, blockIdx,
// blockDim, gridDim, __syncthreads, the warp intrinsics, atomics, the
// runtime API's streams, events and memory calls) is spelled as in CUDA.
#if defined(CUZK_SIMT)
#include "simt/cuda_shim.hpp"
#else
#include <cuda_runtime.h>
#endif
// CUZK_CUDA_NAMESPACE_BEGIN/END (also for the plain C++ headers of src/cuda).
#include "cuda/namespace.hpp"

#if defined(CUZK_SIMT)
#define CUZK_LAUNCH(kernel, grid, block, shared_bytes, stream, ...)                                       \
  ::cuzk::simt::launch_kernel(#kernel, kernel, ::cuzk::simt::dim3_of(grid), ::cuzk::simt::dim3_of(block), \
                              (shared_bytes), (stream)__VA_OPT__(, ) __VA_ARGS__)
#define CUZK_DYNAMIC_SHARED(T, name) T* name = ::cuzk::simt::dynamic_shared<T>()
#define CUZK_LAUNCH_BOUNDS(threads, min_blocks)
#else
#define CUZK_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)
#define CUZK_DYNAMIC_SHARED(T, name)                                  \
  extern __shared__ __align__(16) unsigned char cuzk_dynamic_smem_[]; \
  T* name = reinterpret_cast<T*>(cuzk_dynamic_smem_)
#define CUZK_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads, min_blocks)
#endif
