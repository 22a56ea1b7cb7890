#pragma once
// Cubic extension K = B[v]/(v^3 - xi) over a quadratic extension B, where xi
// is B's "sextic non-residue" (B::mul_by_nonresidue() multiplies by xi). For
// BLS12-381: Fp6 = Fp2[v]/(v^3 - (1+u)).
//
// Frobenius coefficients are derived at first use from the prime modulus
// (xi^((p^k - 1)/3)), never typed in.
#include <array>
#include <cstddef>

#include "arith/limbs.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::ff {

namespace detail {
// floor(a / d) for a small divisor d; compile-time usable.
template <size_t N>
constexpr arith::Limbs<N> div_small(const arith::Limbs<N>& a, uint64_t d) {
  arith::Limbs<N> q{};
  arith::u128 rem = 0;
  for (size_t i = N; i-- > 0;) {
    arith::u128 cur = (rem << 64) | a[i];
    q[i] = uint64_t(cur / d);
    rem = cur % d;
  }
  return q;
}
template <size_t N>
constexpr uint64_t mod_small(const arith::Limbs<N>& a, uint64_t d) {
  arith::u128 rem = 0;
  for (size_t i = N; i-- > 0;) rem = ((rem << 64) | a[i]) % d;
  return uint64_t(rem);
}

// B^(p^k) for a quadratic extension B of the prime field: conjugate k times.
template <class B>
B frobenius_pow(const B& x, unsigned k) {
  return (k & 1) ? x.frobenius() : x;
}

// xi^((p^k - 1)/d) for k = 0..K-1, with xi the non-residue of B and p the
// characteristic. Uses (p^k - 1)/d = p * (p^(k-1) - 1)/d + (p - 1)/d, so that
// c_k = frob(c_(k-1)) * c_1 (frob is x -> x^p on B).
template <class B, size_t K, uint64_t D>
std::array<B, K> nonresidue_powers() {
  using Fp = typename B::Base;
  constexpr auto pm1 = Fp::minus(Fp::MODULUS, 1);
  static_assert(mod_small(pm1, D) == 0, "p - 1 must be divisible by the tower degree");
  std::array<B, K> c{};
  c[0] = B::one();
  if constexpr (K > 1) {
    const B xi = B::one().mul_by_nonresidue();
    c[1] = xi.pow_vartime(div_small(pm1, D));
    for (size_t k = 2; k < K; k++) c[k] = c[k - 1].frobenius() * c[1];
  }
  return c;
}
}  // namespace detail

template <class B>
struct CubicExt {
  using Base = B;
  B c0, c1, c2;  // c0 + c1*v + c2*v^2

  static CubicExt zero() { return {B::zero(), B::zero(), B::zero()}; }
  static CubicExt one() { return {B::one(), B::zero(), B::zero()}; }
  template <class Rng>
  static CubicExt random(Rng& rng) {
    B a = B::random(rng), b = B::random(rng);
    return {a, b, B::random(rng)};
  }

  bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  bool is_one() const { return c0 == B::one() && c1.is_zero() && c2.is_zero(); }
  friend bool operator==(const CubicExt& a, const CubicExt& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  friend bool operator!=(const CubicExt& a, const CubicExt& b) { return !(a == b); }

  friend CubicExt operator+(const CubicExt& a, const CubicExt& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  friend CubicExt operator-(const CubicExt& a, const CubicExt& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  CubicExt operator-() const { return {-c0, -c1, -c2}; }
  CubicExt dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba over three coefficients: 6 B-multiplications.
  friend CubicExt operator*(const CubicExt& a, const CubicExt& b) {
    B t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
    B r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0;
    B r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue();
    B r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1;
    return {r0, r1, r2};
  }
  friend CubicExt operator*(const CubicExt& a, const B& s) { return {a.c0 * s, a.c1 * s, a.c2 * s}; }
  CubicExt& operator+=(const CubicExt& b) { return *this = *this + b; }
  CubicExt& operator-=(const CubicExt& b) { return *this = *this - b; }
  CubicExt& operator*=(const CubicExt& b) { return *this = *this * b; }

  // Chung-Hasan SQR2: 2 multiplications + 3 squarings in B.
  CubicExt square() const {
    B s0 = c0.square();
    B s1 = (c0 * c1).dbl();
    B s2 = (c0 - c1 + c2).square();
    B s3 = (c1 * c2).dbl();
    B s4 = c2.square();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  // Multiplication by v: (c0, c1, c2) -> (xi*c2, c0, c1).
  CubicExt mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // Sparse products used by the Miller loop's line functions.
  // this * (b0 + b1*v): 5 B-multiplications.
  CubicExt mul_by_01(const B& b0, const B& b1) const {
    B t0 = c0 * b0, t1 = c1 * b1;
    B r0 = ((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0;
    B r1 = (c0 + c1) * (b0 + b1) - t0 - t1;
    B r2 = (c0 + c2) * b0 - t0 + t1;
    return {r0, r1, r2};
  }
  // this * (b1*v): 3 B-multiplications.
  CubicExt mul_by_1(const B& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

  // Inverse via the adjugate; inverse of zero is zero.
  CubicExt inverse() const {
    B A = c0.square() - (c1 * c2).mul_by_nonresidue();
    B Bc = c2.square().mul_by_nonresidue() - c0 * c1;
    B C = c1.square() - c0 * c2;
    B F = c0 * A + (c2 * Bc + c1 * C).mul_by_nonresidue();
    B Fi = F.inverse();
    return {A * Fi, Bc * Fi, C * Fi};
  }

  // x -> x^(p^k), k = 0..5 (the map has order 6 on Fp6).
  CubicExt frobenius_map(unsigned k) const {
    k %= 6;
    if (k == 0) return *this;
    const auto& g = frobenius_coeffs();
    return {detail::frobenius_pow(c0, k), detail::frobenius_pow(c1, k) * g[k][0],
            detail::frobenius_pow(c2, k) * g[k][1]};
  }
  // g[k] = {xi^((p^k-1)/3), xi^(2(p^k-1)/3)}: v^(p^k) = g[k][0] * v.
  static const std::array<std::array<B, 2>, 6>& frobenius_coeffs() {
    static const std::array<std::array<B, 2>, 6> g = [] {
      auto c = detail::nonresidue_powers<B, 6, 3>();
      std::array<std::array<B, 2>, 6> r{};
      for (size_t k = 0; k < 6; k++) r[k] = {c[k], c[k].square()};
      return r;
    }();
    return g;
  }

  template <size_t M>
  CubicExt pow_vartime(const Limbs<M>& e) const {
    CubicExt r = one();
    for (size_t i = arith::bit_length(e); i-- > 0;) {
      r = r.square();
      if (arith::bit(e, i)) r *= *this;
    }
    return r;
  }
};

using Fp6 = CubicExt<Fp2>;

}  // namespace cuzk::ff
