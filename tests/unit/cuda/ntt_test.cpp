// The CUDA NTT against ntt:: (same conventions, bit-identical results): the
// bit reversal's index arithmetic on the host, then the device itself (a GPU,
// or the SIMT emulator) at 2^1..2^16 — one to two passes of the DIT kernel —
// forward, inverse, cosets and round trips.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/ntt.hpp"
#include "cuda/ntt_steps.cuh"
#include "cuda_test_util.hpp"
#include "ntt/ntt.hpp"

using namespace cuzk;
using cuda::DevFr;
using cuda::test::to_dev;
using ff::Fr;
namespace steps = cuda::steps;

namespace {

enum class Kind { forward, inverse, coset_forward, coset_inverse };

void cpu_reference(std::vector<Fr>& data, Kind k) {
  const ntt::Domain dom(unsigned(std::countr_zero(data.size())));
  const ntt::Options one_thread{1};
  switch (k) {
    case Kind::forward: ntt::forward(data, dom, one_thread); break;
    case Kind::inverse: ntt::inverse(data, dom, one_thread); break;
    case Kind::coset_forward: ntt::coset_forward(data, dom, one_thread); break;
    case Kind::coset_inverse: ntt::coset_inverse(data, dom, one_thread); break;
  }
}

// Random data with edge values (0, 1, p-1) at the front.
std::vector<Fr> input(unsigned log_n, uint64_t seed) {
  std::vector<Fr> v(size_t(1) << log_n);
  std::mt19937_64 rng(seed);
  for (auto& x : v) x = Fr::random(rng);
  const Fr edges[] = {Fr::zero(), Fr::one(), -Fr::one()};
  for (size_t i = 0; i < 3 && i < v.size(); i++) v[i] = edges[i];
  return v;
}

constexpr Kind kKinds[] = {Kind::forward, Kind::inverse, Kind::coset_forward, Kind::coset_inverse};

}  // namespace

TEST(CudaNttHost, BitReverseMatchesLoop) {
  for (unsigned log_n = 1; log_n <= 12; log_n++)
    for (uint32_t i = 0; i < (1u << log_n); i++)
      ASSERT_EQ(steps::bit_reverse(steps::bit_reverse(i, log_n), log_n), i);
  EXPECT_EQ(steps::bit_reverse(1, 4), 8u);
  EXPECT_EQ(steps::bit_reverse(6, 3), 3u);
}

TEST(CudaNtt, MatchesCpuNtt) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (unsigned log_n = 1; log_n <= 16; log_n++) {
    for (Kind k : kKinds) {
      auto expect = input(log_n, 200 + log_n);
      auto got = expect;
      cpu_reference(expect, k);
      switch (k) {
        case Kind::forward: cuda::ntt_forward(got); break;
        case Kind::inverse: cuda::ntt_inverse(got); break;
        case Kind::coset_forward: cuda::ntt_coset_forward(got); break;
        case Kind::coset_inverse: cuda::ntt_coset_inverse(got); break;
      }
      ASSERT_EQ(got, expect) << "log_n " << log_n << " kind " << int(k);
    }
  }
}

TEST(CudaNtt, RoundTrips) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (unsigned log_n : {1u, 2u, 7u, 13u, 16u, 20u}) {
    const auto orig = input(log_n, 300 + log_n);
    const cuda::DeviceNttDomain dom(log_n);
    cuda::DeviceBuffer buf(orig.size() * sizeof(Fr));
    buf.upload(orig.data(), buf.bytes());
    auto* d = static_cast<Fr*>(buf.get());
    dom.forward(d);
    dom.inverse(d);
    dom.coset_forward(d);
    dom.coset_inverse(d);
    cuda::synchronize();
    std::vector<Fr> back(orig.size());
    buf.download(back.data(), buf.bytes());
    ASSERT_EQ(back, orig) << "log_n " << log_n;
  }
}

TEST(CudaNtt, SpecialInputs) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  // All zeros stay zero; a delta at 0 transforms to all ones; all ones to n*delta.
  const unsigned log_n = 10;
  const size_t n = size_t(1) << log_n;
  std::vector<Fr> z(n, Fr::zero());
  cuda::ntt_forward(z);
  EXPECT_EQ(z, std::vector<Fr>(n, Fr::zero()));
  std::vector<Fr> delta(n, Fr::zero());
  delta[0] = Fr::one();
  cuda::ntt_forward(delta);
  EXPECT_EQ(delta, std::vector<Fr>(n, Fr::one()));
  cuda::ntt_forward(delta);
  std::vector<Fr> expect(n, Fr::zero());
  expect[0] = Fr::from_u64(n);
  EXPECT_EQ(delta, expect);
}

TEST(CudaNtt, BadSizesThrow) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::vector<Fr> v(3);
  EXPECT_THROW(cuda::ntt_forward(v), std::invalid_argument);
  EXPECT_THROW(cuda::DeviceNttDomain(0), std::invalid_argument);
  EXPECT_THROW(cuda::DeviceNttDomain(31), std::invalid_argument);
}
