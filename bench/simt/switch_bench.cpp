// Cost of the SIMT emulator's thread scheduling, per emulated GPU thread:
//   NoSync     a kernel that never waits (threads run straight through)
//   Barrier    __syncthreads: every thread parks and resumes (two fiber switches)
//   Shuffle    __shfl_xor_sync: the same through the warp path
// each with the assembly and the ucontext switch, on one host thread, one
// block of 256 threads, 64 waits per thread.
#include <benchmark/benchmark.h>

#include "simt/cuda_shim.hpp"

namespace {

using namespace cuzk::simt::cuda_api;
namespace simt = cuzk::simt;

constexpr unsigned kThreads = 256, kRounds = 64;

__global__ void no_sync(unsigned* out) { out[threadIdx.x] = threadIdx.x * 3; }

__global__ void barriers(unsigned* out) {
  unsigned v = threadIdx.x;
  for (unsigned r = 0; r < kRounds; r++) {
    v = v * 5 + r;
    __syncthreads();
  }
  out[threadIdx.x] = v;
}

__global__ void shuffles(unsigned* out) {
  unsigned v = threadIdx.x;
  for (unsigned r = 0; r < kRounds; r++) v += __shfl_xor_sync(0xffffffffu, v, int(r % 32));
  out[threadIdx.x] = v;
}

template <void (*Kernel)(unsigned*)>
void run(benchmark::State& state, unsigned waits_per_thread) {
  const auto sw = state.range(0) ? simt::FiberSwitch::ucontext : simt::FiberSwitch::assembly;
  if (!simt::set_fiber_switch(sw)) {
    state.SkipWithError("no assembly switch on this platform");
    return;
  }
  simt::set_host_threads(1);
  unsigned* out = nullptr;
  (void)cudaMalloc(&out, kThreads * sizeof(unsigned));
  for (auto _ : state) {
    if (simt::launch_kernel("k", Kernel, dim3(1), dim3(kThreads), 0, nullptr, out) != cudaSuccess)
      state.SkipWithError("launch failed");
  }
  (void)cudaFree(out);
  state.SetLabel(sw == simt::FiberSwitch::assembly ? "asm" : "ucontext");
  // Per emulated thread and wait: the cost of one park and resume.
  state.counters["ns_per_thread_wait"] =
      benchmark::Counter(double(state.iterations()) * kThreads * std::max(1u, waits_per_thread),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void NoSync(benchmark::State& s) { run<no_sync>(s, 0); }
void Barrier(benchmark::State& s) { run<barriers>(s, kRounds); }
void Shuffle(benchmark::State& s) { run<shuffles>(s, kRounds); }

BENCHMARK(NoSync)->Arg(0)->Arg(1);
BENCHMARK(Barrier)->Arg(0)->Arg(1);
BENCHMARK(Shuffle)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
