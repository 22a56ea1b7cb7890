#pragma once
// GLV scalar splitting for BLS12-381 MSM.
//
// Both G1 (over Fp) and G2 (over Fp2) have the endomorphism
//   phi(x, y) = (beta * x, y),   beta in Fp a primitive cube root of unity,
// which acts on the prime-order subgroup as multiplication by an eigenvalue
// that is a root of t^2 + t + 1 mod r. With z = -0xd201000000010000 the BLS
// parameter and x = z^2 (a 128-bit integer), r = x^2 - x + 1, so
//   lambda = x - 1
// is such a root. For each curve we pick the cube root beta (beta or beta^2)
// whose phi multiplies by exactly this lambda (checked against the
// generator once, at first use).
//
// A scalar k < r is written k = k1 + k2 * lambda (mod r) with |k1|, |k2| <
// 2^127, using the short lattice basis {(lambda, -1), (1, x)} of
// {(a, b) : a + b*lambda = 0 mod r}:
//   1. q = floor(k / lambda), rem = k - q*lambda  (Barrett with
//      mu = floor(2^256 / lambda)); then k = rem + q*lambda, rem < lambda, q <= x.
//   2. centre rem into (-lambda/2, lambda/2] by subtracting (lambda, -1);
//   3. centre q into [-x/2, x/2] by subtracting (1, x).
// The MSM then runs over 2n points with 127-bit scalars: half as many windows
// share each bucket set, which halves the bucket-reduction work.
//
// Everything here is exact integer arithmetic (no field operations), cheap
// next to one field multiplication per scalar.
#include <cstdint>

#include "arith/limbs.hpp"
#include "ec/bls12_381.hpp"

namespace cuzk::msm::glv {

using arith::Limbs;
using u128 = unsigned __int128;

inline constexpr uint64_t Z_ABS = 0xd201000000010000ULL;
inline constexpr u128 X = u128(Z_ABS) * Z_ABS;  // z^2
inline constexpr u128 LAMBDA = X - 1;

namespace detail {

constexpr Limbs<4> mul_128x128(u128 a, u128 b) {
  uint64_t a0 = uint64_t(a), a1 = uint64_t(a >> 64), b0 = uint64_t(b), b1 = uint64_t(b >> 64);
  Limbs<4> r{};
  uint64_t c = 0;
  r[0] = arith::mac(0, a0, b0, c);
  r[1] = arith::mac(0, a0, b1, c);
  r[2] = c;
  c = 0;
  r[1] = arith::mac(r[1], a1, b0, c);
  r[2] = arith::mac(r[2], a1, b1, c);
  r[3] = c;
  return r;
}

// r = x^2 - x + 1, checked against the Fr modulus at compile time.
constexpr Limbs<4> r_from_x() {
  Limbs<4> r = mul_128x128(X, X);
  Limbs<4> xl{uint64_t(X), uint64_t(X >> 64), 0, 0};
  arith::sub_from(r, xl);
  Limbs<4> one{1, 0, 0, 0};
  arith::add_to(r, one);
  return r;
}
static_assert(r_from_x() == ff::Fr::MODULUS, "BLS12-381: r = z^4 - z^2 + 1");

// floor(2^256 / lambda) by binary long division (3 limbs: ~129 bits).
constexpr Limbs<3> barrett_mu() {
  Limbs<3> q{}, rem{};
  const Limbs<3> lam{uint64_t(LAMBDA), uint64_t(LAMBDA >> 64), 0};
  for (int bit = 256; bit >= 0; bit--) {
    // rem = 2*rem + (bit == 256)
    arith::add_to(rem, Limbs<3>(rem));
    if (bit == 256) rem[0] |= 1;
    if (arith::compare(rem, lam) >= 0) {
      arith::sub_from(rem, lam);
      q[bit / 64] |= uint64_t(1) << (bit % 64);
    }
  }
  return q;
}
inline constexpr Limbs<3> MU = barrett_mu();
static_assert(MU[2] == 1, "mu is a 129-bit number for this lambda");

}  // namespace detail

struct Split {
  u128 k1 = 0, k2 = 0;  // magnitudes, both < 2^127
  bool neg1 = false, neg2 = false;
};

// k must be < r (callers reduce first). Inlined into stage A's loop: out of
// line the halves went back through the stack as one 16-byte load of two
// 8-byte stores, a store-forwarding stall (a quarter of the split's time on
// one thread, two thirds with both threads of a two-core VM busy).
[[gnu::always_inline]] inline Split split(const Limbs<4>& k) {
  Split s;
  if (k[3] == 0 && k[2] == 0 && (k[1] >> 63) == 0) {  // already < 2^127
    s.k1 = (u128(k[1]) << 64) | k[0];
    return s;
  }
  // q_est = floor(k * mu / 2^256), at most 2 below floor(k / lambda).
  uint64_t t[7] = {};
  for (size_t i = 0; i < 4; i++) {
    uint64_t c = 0;
    for (size_t j = 0; j < 3; j++) t[i + j] = arith::mac(t[i + j], k[i], detail::MU[j], c);
    t[i + 3] = c;
  }
  u128 q = (u128(t[5]) << 64) | t[4];
  Limbs<4> ql = detail::mul_128x128(q, LAMBDA);
  Limbs<4> rem = k;
  arith::sub_from(rem, ql);
  const Limbs<4> lam{uint64_t(LAMBDA), uint64_t(LAMBDA >> 64), 0, 0};
  while (arith::compare(rem, lam) >= 0) {
    arith::sub_from(rem, lam);
    q++;
  }
  u128 a = (u128(rem[1]) << 64) | rem[0];  // k = a + q*lambda, a < lambda, q <= x
  bool an = false;
  if (a > LAMBDA / 2) {  // (a, q) - (lambda, -1)
    a = LAMBDA - a;
    an = true;
    q += 1;
  }
  bool bn = false;
  if (q > X / 2) {  // (a, q) - (1, x)
    if (q >= X) {
      q -= X;
    } else {
      q = X - q;
      bn = true;
    }
    if (an) {
      a += 1;
    } else if (a == 0) {
      a = 1;
      an = true;
    } else {
      a -= 1;
    }
  }
  s.k1 = a;
  s.neg1 = an;
  s.k2 = q;
  s.neg2 = bn;
  return s;
}

// beta (an Fp cube root of unity) with phi(P) = [lambda]P on the curve's
// prime-order subgroup. Derived once from the definition and the generator.
template <class C>
const ff::Fp& beta();

namespace detail {

inline ff::Fp primitive_cube_root() {
  // (p - 1) / 3 by short division.
  Limbs<6> e = ff::Fp::minus(ff::Fp::MODULUS, 1);
  u128 rem = 0;
  for (size_t i = 6; i-- > 0;) {
    u128 cur = (rem << 64) | e[i];
    e[i] = uint64_t(cur / 3);
    rem = cur % 3;
  }
  for (uint64_t g = 2;; g++) {
    ff::Fp w = ff::Fp::from_u64(g).pow_vartime(e);
    if (!w.is_one()) return w;
  }
}

template <class C>
ff::Fp find_beta() {
  const ff::Fp w = primitive_cube_root();
  const auto g = C::generator();
  const Limbs<2> lam{uint64_t(LAMBDA), uint64_t(LAMBDA >> 64)};
  const auto target = ec::mul_vartime(ec::Jacobian<C>::from_affine(g), lam).to_affine();
  for (const ff::Fp& b : {w, w.square()}) {
    if (target == ec::Affine<C>::from_xy(g.x * b, g.y)) return b;
  }
  return ff::Fp::zero();  // unreachable for BLS12-381 G1/G2
}

}  // namespace detail

template <class C>
const ff::Fp& beta() {
  static const ff::Fp b = detail::find_beta<C>();
  return b;
}

}  // namespace cuzk::msm::glv
