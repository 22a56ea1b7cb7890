// The CUDA layer built by nvcc and on the SIMT emulator, linked into one
// binary (as a daemon offering both would be): the two builds live in
// cuzk::cuda::gpu and cuzk::cuda::emu and do not collide.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ff/bls12_381.hpp"
#include "ntt/ntt.hpp"

namespace cuzk::cuda::test {
int gpu_device_count();
std::string gpu_runtime_version();
int emu_device_count();
std::string emu_device_name();
void emu_ntt_forward(std::vector<ff::Fr>& v);
}  // namespace cuzk::cuda::test

using namespace cuzk;

TEST(CudaBothBuilds, LinkAndRunSideBySide) {
  EXPECT_GE(cuda::test::gpu_device_count(), 0);  // 0 without a GPU, never throws
  EXPECT_FALSE(cuda::test::gpu_runtime_version().empty());
  EXPECT_GE(cuda::test::emu_device_count(), 1);
  EXPECT_EQ(cuda::test::emu_device_name().rfind("cuda-emulated", 0), 0u);
  std::vector<ff::Fr> v(1 << 8);
  std::mt19937_64 rng(3);
  for (auto& x : v) x = ff::Fr::random(rng);
  auto expect = v;
  ntt::forward(expect, ntt::Domain(8), ntt::Options{1});
  cuda::test::emu_ntt_forward(v);
  EXPECT_EQ(v, expect);
}
