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

}  // namespace
}  // namespace cuzk::simt::test
