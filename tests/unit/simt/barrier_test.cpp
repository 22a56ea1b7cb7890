// Block barriers and shared memory: results that only come out right when
// every thread of the block waits at __syncthreads for all the others.
#include <numeric>
#include <vector>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

constexpr unsigned kBlock = 256;

// Tree reduction in shared memory, one sum per block.
__global__ void block_sum(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[kBlock];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

TEST(SimtBarrier, BlockReduction) {
  const unsigned blocks = 37;
  std::vector<unsigned> in(blocks * kBlock);
  for (size_t i = 0; i < in.size(); i++) in[i] = unsigned(i * 2654435761u >> 7);
  DeviceArray<unsigned> din(in), dout(blocks);
  ASSERT_EQ(LAUNCH(block_sum, blocks, kBlock, 0, nullptr, din.get(), dout.get()), cudaSuccess);
  const auto out = dout.host();
  for (unsigned b = 0; b < blocks; b++)
    EXPECT_EQ(out[b], std::accumulate(in.begin() + b * kBlock, in.begin() + (b + 1) * kBlock, 0u)) << b;
}

// The classic tiled transpose: a 32x32 block loads a tile row-wise into
// shared memory and writes it out column-wise (threads read what others wrote).
constexpr unsigned kTile = 32;
__global__ void transpose(const float* in, float* out, unsigned rows, unsigned cols) {
  __shared__ float tile[kTile][kTile + 1];
  unsigned x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[size_t(y) * cols + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  if (x < rows && y < cols) out[size_t(y) * rows + x] = tile[threadIdx.x][threadIdx.y];
}

TEST(SimtBarrier, SharedMemoryTranspose) {
  const unsigned rows = 70, cols = 100;  // not multiples of the tile
  std::vector<float> in(rows * cols);
  for (size_t i = 0; i < in.size(); i++) in[i] = float(i);
  DeviceArray<float> din(in), dout(in.size());
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  ASSERT_EQ(LAUNCH(transpose, grid, dim3(kTile, kTile), 0, nullptr, din.get(), dout.get(), rows, cols),
            cudaSuccess);
  const auto out = dout.host();
  for (unsigned r = 0; r < rows; r++)
    for (unsigned c = 0; c < cols; c++) ASSERT_EQ(out[size_t(c) * rows + r], in[size_t(r) * cols + c]);
}

// __syncthreads_count/_and/_or over a predicate, and a plain barrier between
// phases that reuse one shared slot.
__global__ void barrier_votes(const int* pred, int* out) {
  const int p = pred[threadIdx.x];
  const int count = __syncthreads_count(p);
  const int all = __syncthreads_and(p);
  const int any = __syncthreads_or(p);
  if (threadIdx.x == 0) {
    out[0] = count;
    out[1] = all;
    out[2] = any;
  }
}

TEST(SimtBarrier, CountAndOr) {
  const unsigned n = 200;
  for (int pattern = 0; pattern < 3; pattern++) {
    std::vector<int> p(n);
    for (unsigned i = 0; i < n; i++) p[i] = pattern == 0 ? 0 : pattern == 1 ? int(i % 3 == 0) * int(i) : 7;
    DeviceArray<int> dp(p), dout(3);
    ASSERT_EQ(LAUNCH(barrier_votes, 1, n, 0, nullptr, dp.get(), dout.get()), cudaSuccess);
    const auto out = dout.host();
    int count = 0;
    for (int v : p) count += v != 0;
    EXPECT_EQ(out[0], count);
    EXPECT_EQ(out[1], int(count == int(n)));
    EXPECT_EQ(out[2], int(count > 0));
  }
}

// Dynamic shared memory: each block reverses its slice through it.
__global__ void reverse_block(const unsigned* in, unsigned* out, unsigned per_thread) {
  unsigned* s = dynamic_shared<unsigned>();
  const unsigned n = blockDim.x * per_thread;
  const size_t base = size_t(blockIdx.x) * n;
  for (unsigned k = 0; k < per_thread; k++)
    s[threadIdx.x * per_thread + k] = in[base + threadIdx.x * per_thread + k];
  __syncthreads();
  for (unsigned k = 0; k < per_thread; k++) {
    const unsigned i = threadIdx.x * per_thread + k;
    out[base + i] = s[n - 1 - i];
  }
}

void check_reverse(unsigned blocks, unsigned threads, unsigned per_thread, size_t shared_bytes) {
  const unsigned n = threads * per_thread;
  std::vector<unsigned> in(size_t(blocks) * n);
  for (size_t i = 0; i < in.size(); i++) in[i] = unsigned(i * 7 + 1);
  DeviceArray<unsigned> din(in), dout(in.size());
  ASSERT_EQ(LAUNCH(reverse_block, blocks, threads, shared_bytes, nullptr, din.get(), dout.get(), per_thread),
            cudaSuccess);
  const auto out = dout.host();
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned i = 0; i < n; i++) ASSERT_EQ(out[size_t(b) * n + i], in[size_t(b) * n + n - 1 - i]);
}

TEST(SimtBarrier, DynamicSharedMemory) {
  check_reverse(5, 128, 4, 128 * 4 * sizeof(unsigned));  // 2 KiB
  // 48 KiB is the default limit; beyond it the kernel must opt in.
  const size_t big = 256 * 100 * sizeof(unsigned);  // 100 KiB
  EXPECT_EQ(LAUNCH(reverse_block, 1, 256, big, nullptr, nullptr, nullptr, 100u), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaFuncSetAttribute(reverse_block, cudaFuncAttributeMaxDynamicSharedMemorySize, int(big)),
            cudaSuccess);
  check_reverse(3, 256, 100, big);
  // The opt-in maximum is 227 KiB.
  EXPECT_EQ(cudaFuncSetAttribute(reverse_block, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024),
            cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

// A kernel that never waits runs each block's threads straight through on
// one fiber: two switches per block (into the fiber and back), whatever the
// block size. One that waits switches at every barrier.
__global__ void no_sync(unsigned* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

TEST(SimtBarrier, KernelsWithoutBarriersDoNotSwitch) {
  const unsigned blocks = 12, threads = 512;
  DeviceArray<unsigned> d(blocks * threads);
  const uint64_t before = fiber_switch_count();
  ASSERT_EQ(LAUNCH(no_sync, blocks, threads, 0, nullptr, d.get()), cudaSuccess);
  EXPECT_EQ(fiber_switch_count() - before, 2u * blocks);
  const auto out = d.host();
  for (unsigned i = 0; i < out.size(); i++) ASSERT_EQ(out[i], i % threads);

  std::vector<unsigned> in(blocks * kBlock, 1);
  DeviceArray<unsigned> din(in), dsum(blocks);
  const uint64_t before_sync = fiber_switch_count();
  ASSERT_EQ(LAUNCH(block_sum, blocks, kBlock, 0, nullptr, din.get(), dsum.get()), cudaSuccess);
  EXPECT_GT(fiber_switch_count() - before_sync, uint64_t(blocks) * kBlock * 9);  // 9 barriers per thread
  for (unsigned v : dsum.host()) EXPECT_EQ(v, kBlock);
}

}  // namespace
}  // namespace cuzk::simt::test
