#pragma once
// Inputs of the device MSM tests and their oracle, the CPU MSM
// (msm::msm_canonical): points with arbitrary discrete logs, scalars of
// every shape the kernels treat apart (0, 1, r - 1, values >= r, Booth
// carries, all equal, Filecoin-like), densities, and the comparison of
// results after conversion to affine.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/msm.hpp"
#include "ec/print.hpp"
#include "msm/msm.hpp"
#include "unit/msm/msm_test_util.hpp"

namespace cuzk::cuda::test {

using Scalars = std::vector<arith::Limbs<4>>;

inline arith::Limbs<4> r_plus(uint64_t k) {  // r + k (not reduced)
  arith::Limbs<4> r = ff::Fr::MODULUS;
  arith::Limbs<4> add = {k, 0, 0, 0};
  arith::add_to(r, add);
  return r;
}
inline arith::Limbs<4> r_minus(uint64_t k) {  // r - k
  arith::Limbs<4> r = ff::Fr::MODULUS;
  arith::sub_from(r, arith::Limbs<4>{k, 0, 0, 0});
  return r;
}

enum class ScalarKind { uniform, zero, one, minus_one, edge, filecoin, equal, small };
inline const char* kind_name(ScalarKind k) {
  static const char* names[] = {"uniform", "zero", "one", "minus_one", "edge", "filecoin", "equal", "small"};
  return names[int(k)];
}

// Scalars that meet the kernels' special cases: 0, 1, r - 1, r and above
// (reduced on the device), 2^256 - 1, runs of ones (every Booth digit
// carries), single high bits, small values; then uniform ones.
inline Scalars edge_scalars(size_t n, std::mt19937_64& rng) {
  const arith::Limbs<4> ones = {~0ull, ~0ull, ~0ull, ~0ull};
  const std::vector<arith::Limbs<4>> fixed = {
      {0, 0, 0, 0},
      {1, 0, 0, 0},
      {2, 0, 0, 0},
      {3, 0, 0, 0},
      r_minus(1),
      r_minus(2),
      ff::Fr::MODULUS,
      r_plus(1),
      r_plus(5),
      ones,
      {~0ull, 0, 0, 0},
      {~0ull, ~0ull, 0, 0},
      {0, 0, 0, 1ull << 62},
      {0, 1ull << 63, 0, 0},
      {0x5555555555555555ull, 0x5555555555555555ull, 0x5555555555555555ull, 0x1555555555555555ull},
      {0xffffull, 0, 0, 0},
      {0x8000ull, 0, 0, 0},
      {0, 0, 1, 0}};
  Scalars s(n);
  for (size_t i = 0; i < n; i++) s[i] = i < fixed.size() ? fixed[i] : ff::Fr::random(rng).to_canonical();
  std::shuffle(s.begin(), s.end(), rng);
  return s;
}

inline Scalars make_scalars(ScalarKind kind, size_t n, std::mt19937_64& rng) {
  Scalars s(n);
  const arith::Limbs<4> same = ff::Fr::random(rng).to_canonical();
  for (size_t i = 0; i < n; i++) {
    switch (kind) {
      case ScalarKind::uniform: s[i] = ff::Fr::random(rng).to_canonical(); break;
      case ScalarKind::zero: s[i] = {0, 0, 0, 0}; break;
      case ScalarKind::one: s[i] = {1, 0, 0, 0}; break;
      case ScalarKind::minus_one: s[i] = r_minus(1); break;
      case ScalarKind::edge: break;
      case ScalarKind::filecoin: {
        const uint64_t p = rng() % 100;
        s[i] = p < 45   ? arith::Limbs<4>{0, 0, 0, 0}
               : p < 90 ? arith::Limbs<4>{1, 0, 0, 0}
                        : ff::Fr::random(rng).to_canonical();
        break;
      }
      case ScalarKind::equal: s[i] = same; break;
      case ScalarKind::small: s[i] = {rng() % 40, 0, 0, 0}; break;
    }
  }
  if (kind == ScalarKind::edge) s = edge_scalars(n, rng);
  return s;
}

template <class C>
std::vector<ec::Affine<C>> random_points(size_t n, std::mt19937_64& rng) {
  std::vector<ff::Fr> dlog(n);
  return msm_test::points_from<C>(dlog, rng);
}

template <class C>
ec::Affine<C> cpu_msm(const std::vector<ec::Affine<C>>& p, const Scalars& s) {
  return msm::msm_canonical<C>(p, s).to_affine();
}

// The scalars a density selects (bit j of word j / 64).
inline Scalars selected(const Scalars& s, const std::vector<uint64_t>& density) {
  Scalars out;
  for (size_t j = 0; j < s.size(); j++)
    if ((density[j / 64] >> (j % 64)) & 1) out.push_back(s[j]);
  return out;
}

// A bitmap over n scalars with each bit set with probability `fill`.
inline std::vector<uint64_t> random_density(size_t n, double fill, std::mt19937_64& rng) {
  std::vector<uint64_t> d((n + 63) / 64, 0);
  std::bernoulli_distribution bit(fill);
  for (size_t j = 0; j < n; j++)
    if (bit(rng)) d[j / 64] |= uint64_t(1) << (j % 64);
  return d;
}

#define CUZK_SKIP_WITHOUT_DEVICE() \
  if (::cuzk::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"

}  // namespace cuzk::cuda::test
