// cuda::time_msm (cuda/msm.hpp): one device MSM timed with CUDA events, for
// scripts/gpu-check.sh.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/compat.cuh"
#include "cuda/msm.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

namespace {

// 256-bit values from a xorshift, the top bit clear (the device reduces
// them mod r); `filecoin`: 45% 0, 45% 1, 10% such values.
std::vector<arith::Limbs<4>> bench_scalars(size_t n, bool filecoin, uint64_t seed) {
  std::vector<arith::Limbs<4>> s(n);
  uint64_t x = seed | 1;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (auto& k : s) {
    const uint64_t pick = next() % 100;
    if (filecoin && pick < 90) {
      k = {pick < 45 ? 0u : 1u, 0, 0, 0};
      continue;
    }
    for (auto& l : k) l = next();
    k[3] >>= 1;
  }
  return s;
}

}  // namespace

template <class C>
double time_msm(unsigned log_n, const std::string& kind, int reps, int device, const MsmOptions& opt,
                MsmStats* stats) {
  if (kind != "uniform" && kind != "filecoin")
    throw std::invalid_argument("cuda::time_msm: scalars '" + kind + "' (uniform | filecoin)");
  if (log_n > 28) throw std::invalid_argument("cuda::time_msm: log_n > 28");
  const size_t n = size_t(1) << log_n;
  // 2^12 distinct points (multiples of the generator), repeated on the
  // device: with random scalars the buckets see what random points give.
  const size_t distinct = std::min<size_t>(n, 4096);
  std::vector<ec::Jacobian<C>> jac(distinct);
  const ec::Affine<C> g = C::generator();
  jac[0] = ec::Jacobian<C>::from_affine(g);
  for (size_t i = 1; i < distinct; i++) jac[i] = jac[i - 1].add_mixed(g);
  std::vector<ec::Affine<C>> aff(distinct);
  ec::batch_to_affine<C>(jac, aff);
  const DevicePoints<C> points = DevicePoints<C>::repeated(aff, n, device);

  const std::vector<arith::Limbs<4>> host =
      bench_scalars(n, kind == "filecoin", 0x9e3779b97f4a7c15ULL ^ log_n);
  DeviceBuffer scalars(n * sizeof(arith::Limbs<4>));
  scalars.upload(host.data(), scalars.bytes());
  const ScalarSpan s = ScalarSpan::device(static_cast<const arith::Limbs<4>*>(scalars.get()), n);

  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  const MsmTerm<C> term{PointSpan<C>::resident(points), s};
  const std::span<const MsmTerm<C>> terms(&term, 1);
  (void)msm<C>(terms, opt, stats);  // warm-up
  double best = 1e300;
  for (int r = 0; r < std::max(reps, 1); r++) {
    check(cudaEventRecord(e0, nullptr), "cudaEventRecord");
    (void)msm<C>(terms, opt);
    check(cudaEventRecord(e1, nullptr), "cudaEventRecord");
    check(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
    best = std::min(best, double(ms));
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  return best;
}

template double time_msm<ec::G1Curve>(unsigned, const std::string&, int, int, const MsmOptions&, MsmStats*);
template double time_msm<ec::G2Curve>(unsigned, const std::string&, int, int, const MsmOptions&, MsmStats*);

CUZK_CUDA_NAMESPACE_END
