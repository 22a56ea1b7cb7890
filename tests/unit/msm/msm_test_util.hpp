#pragma once
// Test inputs for the MSM with known discrete logs: every point is e_i * G
// for a tracked e_i in Fr, so sum k_i P_i = (sum k_i e_i) G gives an exact
// oracle at any n for the price of one scalar multiplication. Points are
// built by additions along a few interleaved arithmetic progressions
// (e = a_j + t*b_j), then converted to affine with one inversion.
#include <random>
#include <vector>

#include "ec/bls12_381.hpp"
#include "msm/msm.hpp"

namespace msm_test {

using namespace cuzk;

template <class C>
struct Input {
  std::vector<ec::Affine<C>> pts;
  std::vector<ff::Fr> dlog;  // pts[i] = dlog[i] * G (0 for the identity)
  std::vector<ff::Fr> k;

  std::vector<arith::Limbs<4>> canonical() const {
    std::vector<arith::Limbs<4>> r(k.size());
    for (size_t i = 0; i < k.size(); i++) r[i] = k[i].to_canonical();
    return r;
  }
  ec::Jacobian<C> expected() const {
    ff::Fr s = ff::Fr::zero();
    for (size_t i = 0; i < k.size(); i++) s += k[i] * dlog[i];
    return ec::mul_vartime(ec::Jacobian<C>::from_affine(C::generator()), s);
  }
  // The literal definition: sum_i mul_vartime(P_i, k_i).
  ec::Jacobian<C> naive() const {
    auto acc = ec::Jacobian<C>::identity();
    for (size_t i = 0; i < k.size(); i++)
      acc = acc.add(ec::mul_vartime(ec::Jacobian<C>::from_affine(pts[i]), k[i]));
    return acc;
  }
};

template <class C>
std::vector<ec::Affine<C>> points_from(std::vector<ff::Fr>& dlog, std::mt19937_64& rng) {
  const size_t n = dlog.size();
  const size_t T = 3;
  auto g = ec::Jacobian<C>::from_affine(C::generator());
  std::vector<ec::Jacobian<C>> jac(n);
  for (size_t j = 0; j < T && j < n; j++) {
    ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
    auto pa = ec::mul_vartime(g, a), pb = ec::mul_vartime(g, b);
    ff::Fr e = a;
    auto p = pa;
    for (size_t i = j; i < n; i += T) {
      jac[i] = p;
      dlog[i] = e;
      p = p.add(pb);
      e += b;
    }
  }
  std::vector<ec::Affine<C>> out(n);
  ec::batch_to_affine<C>(jac, out);
  return out;
}

template <class C>
Input<C> random_input(size_t n, std::mt19937_64& rng) {
  Input<C> in;
  in.dlog.resize(n);
  in.pts = points_from<C>(in.dlog, rng);
  in.k.resize(n);
  for (auto& x : in.k) x = ff::Fr::random(rng);
  return in;
}

inline ff::Fr fr_u64(uint64_t v) { return ff::Fr::from_u64(v); }

}  // namespace msm_test
