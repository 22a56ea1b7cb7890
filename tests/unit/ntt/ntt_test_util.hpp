#pragma once
// Helpers of the NTT tests: random vectors and naive O(n^2) evaluation.
#include <random>
#include <vector>

#include "ntt/ntt.hpp"

namespace cuzk::ntt::test {

inline std::vector<Fr> random_vector(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// p(x) = sum_j c[j] x^j by Horner.
inline Fr eval(const std::vector<Fr>& c, const Fr& x) {
  Fr acc = Fr::zero();
  for (size_t j = c.size(); j-- > 0;) acc = acc * x + c[j];
  return acc;
}

// [p(s * w^i) for i < n].
inline std::vector<Fr> naive_eval(const std::vector<Fr>& c, const Fr& w, const Fr& s, size_t n) {
  std::vector<Fr> out(n);
  Fr x = s;
  for (size_t i = 0; i < n; i++, x *= w) out[i] = eval(c, x);
  return out;
}

inline size_t brev(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}

inline std::vector<Fr> permuted_bitrev(const std::vector<Fr>& v) {
  unsigned L = 0;
  while ((size_t(1) << L) < v.size()) L++;
  std::vector<Fr> out(v.size());
  for (size_t i = 0; i < v.size(); i++) out[brev(i, L)] = v[i];
  return out;
}

}  // namespace cuzk::ntt::test
