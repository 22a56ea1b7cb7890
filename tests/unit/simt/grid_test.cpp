// Grids and blocks of one, two and three dimensions, blocks over several host
// threads, both fiber switches, and the per-thread stack.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

// Every thread counts itself at its global linear index and records the
// dimensions it sees.
__global__ void visit(unsigned* hits, unsigned* dims) {
  const unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  atomicAdd(&hits[bx * per_block + tx], 1u);
  if (threadIdx.x >= blockDim.x || threadIdx.y >= blockDim.y || threadIdx.z >= blockDim.z)
    atomicAdd(&dims[0], 1u);
  if (blockIdx.x >= gridDim.x || blockIdx.y >= gridDim.y || blockIdx.z >= gridDim.z) atomicAdd(&dims[1], 1u);
}

TEST(SimtGrid, EveryThreadOnceIn1d2d3d) {
  const struct {
    dim3 grid, block;
  } shapes[] = {
      {dim3(7), dim3(33)},
      {dim3(3, 5), dim3(8, 4)},
      {dim3(2, 3, 4), dim3(4, 4, 4)},
      {dim3(1, 1, 9), dim3(1, 1, 64)},
      {dim3(5, 1, 2), dim3(1024)},
      {dim3(1), dim3(2, 2, 2)},
  };
  for (const auto& s : shapes) {
    const size_t n = size_t(s.grid.x) * s.grid.y * s.grid.z * s.block.x * s.block.y * s.block.z;
    DeviceArray<unsigned> hits(std::vector<unsigned>(n, 0)), dims(std::vector<unsigned>(2, 0));
    ASSERT_EQ(LAUNCH(visit, s.grid, s.block, 0, nullptr, hits.get(), dims.get()), cudaSuccess);
    for (unsigned h : hits.host()) ASSERT_EQ(h, 1u);
    EXPECT_EQ(dims.host(), std::vector<unsigned>(2, 0));
  }
}

// Blocks wait (bounded) until two of them run at the same time: proof that
// blocks are spread over host threads.
__global__ void overlap(std::atomic<int>* running, std::atomic<int>* most) {
  if (threadIdx.x != 0) return;
  const int now = running->fetch_add(1) + 1;
  int m = most->load();
  while (now > m && !most->compare_exchange_weak(m, now)) {
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (most->load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  running->fetch_sub(1);
}

TEST(SimtGrid, BlocksRunOnSeveralHostThreads) {
  const unsigned before = host_threads();
  set_host_threads(2);
  std::atomic<int> running{0}, most{0};
  ASSERT_EQ(LAUNCH(overlap, 4, 32, 0, nullptr, &running, &most), cudaSuccess);
  EXPECT_GE(most.load(), 2);
  set_host_threads(before);
}

// A block-wide computation with barriers and shuffles under each switch.
__global__ void mixed(const unsigned* in, unsigned* out) {
  __shared__ unsigned warp_sums[32];
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, unsigned(o));
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    unsigned w = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
    for (int o = 16; o > 0; o /= 2) w += __shfl_xor_sync(0xffffffffu, w, o);
    if (threadIdx.x == 0) out[blockIdx.x] = w;
  }
}

TEST(SimtGrid, BothFiberSwitches) {
  const unsigned blocks = 20, threads = 512;
  std::vector<unsigned> in(blocks * threads);
  for (size_t i = 0; i < in.size(); i++) in[i] = unsigned(i % 1000);
  const FiberSwitch before = fiber_switch();
  for (FiberSwitch s : {FiberSwitch::ucontext, FiberSwitch::assembly}) {
    if (!set_fiber_switch(s)) continue;  // no assembly switch on this platform
    DeviceArray<unsigned> din(in), dout(blocks);
    ASSERT_EQ(LAUNCH(mixed, blocks, threads, 0, nullptr, din.get(), dout.get()), cudaSuccess);
    const auto out = dout.host();
    for (unsigned b = 0; b < blocks; b++) {
      unsigned sum = 0;
      for (unsigned i = 0; i < threads; i++) sum += in[b * threads + i];
      ASSERT_EQ(out[b], sum) << "switch " << int(s);
    }
  }
  set_fiber_switch(before);
}

// Each thread keeps `kWords` words on its stack across a barrier.
constexpr unsigned kWords = 40 * 1024;  // 160 KiB
__global__ void deep_stack(unsigned* out) {
  volatile unsigned local[kWords];
  for (unsigned i = 0; i < kWords; i++) local[i] = i ^ threadIdx.x;
  __syncthreads();
  unsigned s = 0;
  for (unsigned i = 0; i < kWords; i++) s += local[i];
  out[threadIdx.x] = s;
}

TEST(SimtGrid, ThreadStackSize) {
  const size_t before = thread_stack_bytes();
  set_thread_stack_bytes(256 * 1024);
  size_t limit = 0;
  EXPECT_EQ(cudaDeviceGetLimit(&limit, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(limit, 256u * 1024);
  DeviceArray<unsigned> d(64);
  ASSERT_EQ(LAUNCH(deep_stack, 2, 64, 0, nullptr, d.get()), cudaSuccess);
  const auto out = d.host();
  for (unsigned t = 0; t < 64; t++) {
    unsigned s = 0;
    for (unsigned i = 0; i < kWords; i++) s += i ^ t;
    EXPECT_EQ(out[t], s);
  }
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, before), cudaSuccess);
  EXPECT_EQ(thread_stack_bytes(), before);
}

// A frame larger than the stack: reported by name, not a bare SIGSEGV.
__global__ void overflow_stack(unsigned* out) {
  volatile unsigned big[512 * 1024];  // 2 MiB
  big[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = big[threadIdx.x];
}

TEST(SimtGridDeathTest, StackOverflowIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        set_thread_stack_bytes(64 * 1024);
        unsigned* out = nullptr;
        (void)cudaMalloc(&out, 64 * sizeof(unsigned));
        (void)LAUNCH(overflow_stack, 1, 64, 0, nullptr, out);
      },
      "kernel 'overflow_stack' block \\(0,0,0\\) thread \\(0,0,0\\) overflowed its 64 KiB stack");
}

}  // namespace
}  // namespace cuzk::simt::test
