#pragma once
// Kernel launches under the emulator (what CUZK_LAUNCH of cuda/compat.cuh
// expands to). A launch checks its configuration as a GPU does (block size,
// grid size, dynamic shared memory against the kernel's limit, the stream),
// then runs every block before it returns: blocks are spread over the host
// threads of a oneTBB arena, and the threads of a block run as fibers of the
// host thread that took it (simt/block.cpp).
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "simt/builtins.hpp"
#include "simt/runtime.hpp"

namespace cuzk::simt {

using cuda_api::cudaError_t;
using cuda_api::cudaStream_t;
using cuda_api::dim3;

// The grid and block arguments of a launch: a dim3 or an integer count.
constexpr dim3 dim3_of(dim3 d) { return d; }
template <class I>
requires std::is_integral_v<I>
constexpr dim3 dim3_of(I n) { return dim3(unsigned(n)); }

// The identity of a kernel, for per-kernel attributes (cudaFuncSetAttribute).
template <class K>
const void* kernel_key(K* kernel) {
  return reinterpret_cast<const void*>(kernel);
}

// One thread's work: body.invoke(body.object) runs the kernel for the thread
// whose threadIdx/blockIdx are set.
struct KernelBody {
  void (*invoke)(const void* object);
  const void* object;
};

cudaError_t launch_body(const char* name, const void* key, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                        cudaStream_t stream, KernelBody body);

// Runs `thread_fn()` once for every thread of the grid. The result is also
// what cudaGetLastError() returns next (as after kernel<<<...>>>).
template <class F>
cudaError_t launch(const char* name, const void* key, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                   cudaStream_t stream, const F& thread_fn) {
  const KernelBody body{[](const void* o) { (*static_cast<const F*>(o))(); }, &thread_fn};
  return launch_body(name, key, grid, block, dynamic_shared_bytes, stream, body);
}

// kernel<<<grid, block, shared, stream>>>(args...): the arguments are
// converted to the kernel's parameter types once, at the launch (as CUDA
// does), and every thread gets its own copy of them.
template <class... P, class... A>
cudaError_t launch_kernel(const char* name, void (*kernel)(P...), dim3 grid, dim3 block,
                          size_t dynamic_shared_bytes, cudaStream_t stream, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with the wrong number of arguments");
  const std::tuple<std::decay_t<P>...> params(std::forward<A>(args)...);
  const auto thread_fn = [kernel, &params] { std::apply(kernel, params); };
  return launch(name, kernel_key(kernel), grid, block, dynamic_shared_bytes, stream, thread_fn);
}

namespace detail {
// The running block's dynamic shared memory (16-byte aligned).
inline thread_local unsigned char* tl_dynamic_shared = nullptr;
}  // namespace detail

template <class T>
T* dynamic_shared() {
  return reinterpret_cast<T*>(detail::tl_dynamic_shared);
}

}  // namespace cuzk::simt
