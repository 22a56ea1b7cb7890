// The device field arithmetic (cuda/fp_device.cuh) against ff::Fr / ff::Fp:
// first the same code run on the host (no GPU needed), then the kernels.
#include <gtest/gtest.h>

#include <vector>

#include "cuda/field.hpp"
#include "cuda_test_util.hpp"

using namespace cuzk;
using cuda::DevFp;
using cuda::DevFr;
using cuda::test::edge_and_random;
using cuda::test::from_dev;
using cuda::test::to_dev;

namespace {

template <class F, class Dev>
void host_all_pairs(size_t n_random) {
  const auto v = edge_and_random<F>(n_random, 11);
  for (const F& a : v) {
    for (const F& b : v) {
      const Dev da = to_dev<Dev>(a), db = to_dev<Dev>(b);
      ASSERT_EQ((from_dev<F>(da + db)), a + b) << a.to_hex() << " + " << b.to_hex();
      ASSERT_EQ((from_dev<F>(da - db)), a - b) << a.to_hex() << " - " << b.to_hex();
      ASSERT_EQ((from_dev<F>(da * db)), a * b) << a.to_hex() << " * " << b.to_hex();
    }
    ASSERT_EQ((from_dev<F>(-to_dev<Dev>(a))), -a);
  }
}

}  // namespace

// The limb code itself, compiled by the host compiler: runs everywhere.
TEST(CudaFieldHost, FrMatchesFf) { host_all_pairs<ff::Fr, DevFr>(120); }
TEST(CudaFieldHost, FpMatchesFf) { host_all_pairs<ff::Fp, DevFp>(120); }

TEST(CudaFieldHost, MontgomeryOneIsFfOne) {
  EXPECT_EQ((from_dev<ff::Fr>(DevFr::one())), ff::Fr::one());
  EXPECT_EQ((from_dev<ff::Fp>(DevFp::one())), ff::Fp::one());
  EXPECT_TRUE(DevFr::zero().is_zero());
}

TEST(CudaFieldHost, SquareChainMatchesFf) {
  const auto v = edge_and_random<ff::Fr>(50, 3);
  for (const ff::Fr& y : v) {
    ff::Fr x = y + ff::Fr::one();
    DevFr dx = to_dev<DevFr>(x);
    const DevFr dy = to_dev<DevFr>(y);
    for (int r = 0; r < 20; r++) {
      x = x.square() * y;
      dx = dx.sqr() * dy;
    }
    ASSERT_EQ((from_dev<ff::Fr>(dx)), x);
  }
}

namespace {

// Every ordered pair of the inputs as two flat vectors.
template <class F>
void pairs(const std::vector<F>& v, std::vector<F>& a, std::vector<F>& b) {
  for (const F& x : v)
    for (const F& y : v) {
      a.push_back(x);
      b.push_back(y);
    }
}

template <class F, class Add, class Sub, class Mul>
void device_all_pairs(Add add, Sub sub, Mul mul) {
  std::vector<F> a, b;
  pairs(edge_and_random<F>(200, 5), a, b);  // ~43k pairs
  std::vector<F> r(a.size());
  add(a, b, r);
  for (size_t i = 0; i < a.size(); i++) ASSERT_EQ(r[i], a[i] + b[i]) << i;
  sub(a, b, r);
  for (size_t i = 0; i < a.size(); i++) ASSERT_EQ(r[i], a[i] - b[i]) << i;
  mul(a, b, r);
  for (size_t i = 0; i < a.size(); i++) ASSERT_EQ(r[i], a[i] * b[i]) << i;
}

}  // namespace

TEST(CudaField, FrKernelsMatchFf) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  device_all_pairs<ff::Fr>([](auto& a, auto& b, auto& r) { cuda::fr_add_batch(a, b, r); },
                           [](auto& a, auto& b, auto& r) { cuda::fr_sub_batch(a, b, r); },
                           [](auto& a, auto& b, auto& r) { cuda::fr_mul_batch(a, b, r); });
}

TEST(CudaField, FpKernelsMatchFf) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  device_all_pairs<ff::Fp>([](auto& a, auto& b, auto& r) { cuda::fp_add_batch(a, b, r); },
                           [](auto& a, auto& b, auto& r) { cuda::fp_sub_batch(a, b, r); },
                           [](auto& a, auto& b, auto& r) { cuda::fp_mul_batch(a, b, r); });
}

TEST(CudaField, FrMulChainMatchesFf) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  auto y = edge_and_random<ff::Fr>(5000, 9);
  std::vector<ff::Fr> x(y.size());
  for (size_t i = 0; i < y.size(); i++) x[i] = y[i] + ff::Fr::from_u64(i);
  std::vector<ff::Fr> expect = x;
  for (size_t i = 0; i < x.size(); i++)
    for (int r = 0; r < 16; r++) expect[i] = expect[i].square() * y[i];
  cuda::fr_mul_chain(x, y, 16);
  for (size_t i = 0; i < x.size(); i++) ASSERT_EQ(x[i], expect[i]) << i;
}

TEST(CudaField, SizeMismatchThrows) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::vector<ff::Fr> a(3), b(2), r(3);
  EXPECT_THROW(cuda::fr_mul_batch(a, b, r), std::invalid_argument);
}
