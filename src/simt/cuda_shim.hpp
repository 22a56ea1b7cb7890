#pragma once
// The SIMT emulator's stand-in for <cuda_runtime.h> (cuda/compat.cuh
// includes it when CUZK_SIMT is defined): CUDA's keywords as host C++, the
// built-in variables and device functions (simt/builtins.hpp), the runtime
// API (simt/runtime.hpp), launches (simt/launch.hpp) and the emulator's
// settings (simt/control.hpp). What is and is not emulated: src/simt/README.md.
//
// __CUDA_ARCH__ and __CUDACC__ stay undefined: device-only code paths (inline
// PTX) take their portable twins.
#ifndef CUZK_SIMT
#define CUZK_SIMT 1
#endif

// Standard headers first: libstdc++ spells __attribute__((__noinline__)),
// which the __noinline__ macro below would break in a header read after it.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/builtins.hpp"
#include "simt/control.hpp"
#include "simt/launch.hpp"
#include "simt/runtime.hpp"

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
// One instance per host thread, and a host thread runs one block at a time
// with all of its threads: per-block memory, as on a GPU.
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
