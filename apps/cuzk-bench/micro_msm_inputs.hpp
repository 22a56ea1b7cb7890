#pragma once
// MSM benchmark inputs shared by `cuzk-bench micro msm` and the blst
// comparison (bench/blst/): points on a random arithmetic progression
// a*G + i*b*G (additions and one batch inversion per block, so 2^20 points
// take seconds), and scalars uniform in Fr or Filecoin-like (45% zero, 45%
// one, 10% uniform: witness vectors are dominated by 0/1). Both lie in 2 MiB
// pages, as a daemon's parameters do (platform/large_vector.hpp): the MSM of
// Filecoin-like scalars reads its points and scalars at random, and in 4 KiB
// pages each such read would also miss the TLB.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "ec/bls12_381.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::bench_cli {

template <class C>
std::vector<ec::Affine<C>> make_msm_points(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto g = ec::Jacobian<C>::from_affine(C::generator());
  const ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
  const auto step = ec::mul_vartime(g, b).to_affine();
  auto out = platform::large_vector<ec::Affine<C>>(n);
  const size_t blk = 1 << 14;
  tbb::parallel_for(size_t(0), (n + blk - 1) / blk, [&](size_t c) {
    size_t lo = c * blk, hi = std::min(n, lo + blk);
    std::vector<ec::Jacobian<C>> jac(hi - lo);
    auto p = ec::mul_vartime(g, a + b * ff::Fr::from_u64(lo));
    for (size_t i = lo; i < hi; i++) {
      jac[i - lo] = p;
      p = p.add_mixed(step);
    }
    ec::batch_to_affine<C>(jac, std::span<ec::Affine<C>>(out.data() + lo, hi - lo));
  });
  return out;
}

// kind: "uniform" or "filecoin".
inline std::vector<ff::Fr> make_msm_scalars(size_t n, const std::string& kind, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto k = platform::large_vector<ff::Fr>(n);
  for (auto& x : k) {
    if (kind == "filecoin") {
      unsigned u = unsigned(rng() % 100);
      x = u < 45 ? ff::Fr::zero() : u < 90 ? ff::Fr::one() : ff::Fr::random(rng);
    } else {
      x = ff::Fr::random(rng);
    }
  }
  return k;
}

}  // namespace cuzk::bench_cli
