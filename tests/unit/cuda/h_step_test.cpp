// The QAP step on a device (cuda::DeviceHStep) against the CPU's
// (device::qap::compute_h), bit for bit, for both conventions the provers
// use (bellperson's coset g = 7 and coefficients; snarkjs's odd coset with
// ffjavascript's root and values), on sizes of one, two and three passes,
// satisfied and unsatisfied inputs.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/h_step.hpp"
#include "device/qap.hpp"
#include "ntt/ntt.hpp"

using namespace cuzk;
using ff::Fr;

namespace {

std::vector<arith::Limbs<4>> run_on_device(const device::HStep& step, std::vector<Fr> a, std::vector<Fr> b,
                                           std::vector<Fr> c) {
  const cuda::DeviceHStep hs(step, 0);
  const size_t n = a.size(), bytes = n * sizeof(Fr);
  cuda::DeviceBuffer da(bytes), db(bytes), dc(bytes), out(std::max<size_t>(hs.output_size(), 1) * 32);
  da.upload(a.data(), bytes);
  db.upload(b.data(), bytes);
  dc.upload(c.data(), bytes);
  hs.run(static_cast<Fr*>(da.get()), static_cast<Fr*>(db.get()), static_cast<Fr*>(dc.get()),
         static_cast<arith::Limbs<4>*>(out.get()), nullptr);
  cuda::synchronize();
  std::vector<arith::Limbs<4>> h(hs.output_size());
  if (!h.empty()) out.download(h.data(), h.size() * 32);
  return h;
}

}  // namespace

TEST(CudaHStep, MatchesTheCpuQapStepOnBothConventions) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(404);
  const Fr ffjs = Fr::from_u64(5).pow_vartime(Fr::T_ODD);
  for (unsigned log_n : {0u, 1u, 5u, 8u, 9u, 13u, 17u}) {
    const size_t n = size_t(1) << log_n;
    for (bool snarkjs : {false, true}) {
      for (bool satisfied : {true, false}) {
        if (log_n > 16 && snarkjs == satisfied) continue;  // three passes: two of the four cases
        SCOPED_TRACE(testing::Message() << "log_n=" << log_n << (snarkjs ? " snarkjs" : " bellperson")
                                        << (satisfied ? " satisfied" : " unsatisfied"));
        const device::HStep step = snarkjs ? device::HStep{log_n, ffjs, device::qap::odd_coset(log_n, ffjs)}
                                           : device::HStep{log_n, Fr::zero(), device::qap::bellperson_coset()};
        std::vector<Fr> a(n), b(n), c(n);
        for (size_t i = 0; i < n; i++) {
          a[i] = Fr::random(rng);
          b[i] = Fr::random(rng);
          c[i] = satisfied ? a[i] * b[i] : Fr::random(rng);
        }
        const auto h = run_on_device(step, a, b, c);
        const ntt::Domain d(log_n, ntt::DomainConfig{.root_2_32 = step.root_2_32});
        device::qap::compute_h(a, b, c, d, step.coset);
        const size_t want = snarkjs ? n : n - 1;
        ASSERT_EQ(h.size(), want);
        for (size_t i = 0; i < want; i++) ASSERT_EQ(h[i], a[i].to_canonical()) << "h[" << i << "]";
      }
    }
  }
}

TEST(CudaHStep, RefusesACosetShiftInsideTheDomain) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const device::HStep bad{3, Fr::zero(), {Fr::one(), device::qap::Coset::Output::coset_values}};
  EXPECT_THROW(cuda::DeviceHStep(bad, 0), std::invalid_argument);
}
