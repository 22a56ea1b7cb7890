#pragma once
// Quadratic extension F = B[u]/(u^2 + 1), valid when -1 is a non-residue in
// B (p = 3 mod 4), as for BLS12-381's Fp2.
#include <optional>

#include "ff/field.hpp"

namespace cuzk::ff {

template <class B>
struct QuadExt {
  using Base = B;
  B c0, c1;  // c0 + c1*u

  static QuadExt zero() { return {B::zero(), B::zero()}; }
  static QuadExt one() { return {B::one(), B::zero()}; }
  template <class Rng>
  static QuadExt random(Rng& rng) {
    return {B::random(rng), B::random(rng)};
  }

  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  friend bool operator==(const QuadExt& a, const QuadExt& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  friend bool operator!=(const QuadExt& a, const QuadExt& b) { return !(a == b); }

  friend QuadExt operator+(const QuadExt& a, const QuadExt& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend QuadExt operator-(const QuadExt& a, const QuadExt& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  QuadExt operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3M.
  friend QuadExt operator*(const QuadExt& a, const QuadExt& b) {
    B v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  friend QuadExt operator*(const QuadExt& a, const B& s) { return {a.c0 * s, a.c1 * s}; }
  QuadExt& operator+=(const QuadExt& b) { return *this = *this + b; }
  QuadExt& operator-=(const QuadExt& b) { return *this = *this - b; }
  QuadExt& operator*=(const QuadExt& b) { return *this = *this * b; }

  // Complex squaring: 2M.
  QuadExt square() const {
    B t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t + t};
  }
  QuadExt dbl() const { return {c0.dbl(), c1.dbl()}; }
  QuadExt conjugate() const { return {c0, -c1}; }
  // x^p = conjugate(x), since u^p = -u.
  QuadExt frobenius() const { return conjugate(); }
  B norm() const { return c0.square() + c1.square(); }
  QuadExt inverse() const {
    B t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }
  // Multiply by (1 + u), the sextic non-residue of BLS12-381's tower.
  QuadExt mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }

  template <size_t M>
  QuadExt pow_vartime(const Limbs<M>& e) const {
    QuadExt r = one();
    for (size_t i = arith::bit_length(e); i-- > 0;) {
      r = r.square();
      if (arith::bit(e, i)) r *= *this;
    }
    return r;
  }

  // ZCash order: c1 decides, c0 breaks the tie when c1 = 0.
  bool is_lexicographically_largest() const {
    return c1.is_lexicographically_largest() || (c1.is_zero() && c0.is_lexicographically_largest());
  }

  // Square root for p = 3 mod 4 (Adj & Rodriguez-Henriquez, Algorithm 9).
  std::optional<QuadExt> sqrt() const {
    if (is_zero()) return zero();
    static constexpr auto P_MINUS_3_QUARTER = B::shr(B::minus(B::MODULUS, 3), 2);
    QuadExt a1 = pow_vartime(P_MINUS_3_QUARTER);
    QuadExt alpha = a1.square() * *this;
    QuadExt a0 = alpha.frobenius() * alpha;
    const QuadExt minus_one = {-B::one(), B::zero()};
    if (a0 == minus_one) return std::nullopt;
    QuadExt x0 = a1 * *this;
    QuadExt x;
    if (alpha == minus_one) {
      x = {-x0.c1, x0.c0};  // u * x0
    } else {
      QuadExt b = (one() + alpha).pow_vartime(B::P_MINUS_1_HALF);
      x = b * x0;
    }
    if (x.square() != *this) return std::nullopt;
    return x;
  }
};

}  // namespace cuzk::ff
