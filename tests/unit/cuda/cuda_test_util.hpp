#pragma once
// Shared inputs of the CUDA tests: edge values (0, 1, p-1, 2, (p±1)/2, R-p
// wrap-arounds come from these) followed by uniform random elements.
#include <cstring>
#include <random>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/fp_device.cuh"
#include "ff/bls12_381.hpp"

namespace cuzk::cuda::test {

template <class F>
std::vector<F> edge_and_random(size_t n_random, uint64_t seed) {
  const F half = F::from_u64(2).inverse();
  std::vector<F> v = {F::zero(),       F::one(), -F::one(), F::from_u64(2),
                      -F::from_u64(2), half,     -half,     half - F::one()};
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < n_random; i++) v.push_back(F::random(rng));
  return v;
}

template <class Dev, class F>
Dev to_dev(const F& x) {
  static_assert(sizeof(Dev) == sizeof(F));
  Dev d;
  std::memcpy(d.l, x.v.data(), sizeof d.l);
  return d;
}
template <class F, class Dev>
F from_dev(const Dev& d) {
  F x;
  std::memcpy(x.v.data(), d.l, sizeof d.l);
  return x;
}

}  // namespace cuzk::cuda::test
