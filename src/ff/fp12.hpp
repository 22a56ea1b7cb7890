#pragma once
// Quadratic extension L = K[w]/(w^2 - v) over a cubic extension
// K = B[v]/(v^3 - xi) (see fp6.hpp). For BLS12-381: Fp12 = Fp6[w]/(w^2 - v),
// so w^6 = xi = 1 + u.
//
// Besides field arithmetic this holds what the pairing needs on top of it:
// sparse multiplication by line functions, and the cheap operations on the
// cyclotomic subgroup (conjugation as inverse, Granger-Scott squaring).
#include <array>

#include "ff/fp6.hpp"

namespace cuzk::ff {

template <class K>
struct QuadOverCubic {
  using Base = K;
  using B2 = typename K::Base;  // the quadratic field under K (Fp2)
  K c0, c1;                     // c0 + c1*w

  static QuadOverCubic zero() { return {K::zero(), K::zero()}; }
  static QuadOverCubic one() { return {K::one(), K::zero()}; }
  template <class Rng>
  static QuadOverCubic random(Rng& rng) {
    K a = K::random(rng);
    return {a, K::random(rng)};
  }

  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend bool operator==(const QuadOverCubic& a, const QuadOverCubic& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  friend bool operator!=(const QuadOverCubic& a, const QuadOverCubic& b) { return !(a == b); }

  friend QuadOverCubic operator+(const QuadOverCubic& a, const QuadOverCubic& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  friend QuadOverCubic operator-(const QuadOverCubic& a, const QuadOverCubic& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  QuadOverCubic operator-() const { return {-c0, -c1}; }

  // Karatsuba: 3 K-multiplications.
  friend QuadOverCubic operator*(const QuadOverCubic& a, const QuadOverCubic& b) {
    K t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    return {t1.mul_by_nonresidue() + t0, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  QuadOverCubic& operator*=(const QuadOverCubic& b) { return *this = *this * b; }
  QuadOverCubic& operator+=(const QuadOverCubic& b) { return *this = *this + b; }
  QuadOverCubic& operator-=(const QuadOverCubic& b) { return *this = *this - b; }

  // Complex squaring: 2 K-multiplications.
  //   (a + bw)^2 = (a + b)(a + vb) - ab - v*ab + 2ab*w
  QuadOverCubic square() const {
    K t = c0 * c1;
    K s = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue();
    return {s, t.dbl()};
  }

  // x^(p^6): w -> -w. On the cyclotomic subgroup this is the inverse.
  QuadOverCubic conjugate() const { return {c0, -c1}; }

  // 1/(a + bw) = (a - bw)/(a^2 - v b^2); inverse of zero is zero.
  QuadOverCubic inverse() const {
    K t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  // x -> x^(p^k), k = 0..11.
  QuadOverCubic frobenius_map(unsigned k) const {
    k %= 12;
    if (k == 0) return *this;
    const auto& d = frobenius_coeffs();
    return {c0.frobenius_map(k), c1.frobenius_map(k) * d[k]};
  }
  // d[k] = xi^((p^k - 1)/6), so that w^(p^k) = d[k] * w.
  static const std::array<B2, 12>& frobenius_coeffs() {
    static const std::array<B2, 12> d = detail::nonresidue_powers<B2, 12, 6>();
    return d;
  }

  // this * (a0 + a1*v + b1*v*w): the shape of a line function evaluated at a
  // G1 point for an M-type sextic twist (Fp2 slots 0, 1 and 4 of the 6).
  // 13 B2-multiplications instead of 18.
  QuadOverCubic mul_by_014(const B2& a0, const B2& a1, const B2& b1) const {
    K t0 = c0.mul_by_01(a0, a1);
    K t1 = c1.mul_by_1(b1);
    K s = (c0 + c1).mul_by_01(a0, a1 + b1);
    return {t1.mul_by_nonresidue() + t0, s - t0 - t1};
  }

  // ---- cyclotomic subgroup (x^(p^6 + 1) ... elements with x^Phi12(p) = 1) ----
  //
  // Granger-Scott: view L as F4[t]/(t^3 - s) with F4 = B2[s]/(s^2 - xi),
  // s = w^3, t = w. Then x = A0 + A1 t + A2 t^2 with
  //   A0 = c0.c0 + c1.c1 s,  A1 = c1.c0 + c0.c2 s,  A2 = c0.c1 + c1.c2 s,
  // and for x in the cyclotomic subgroup (conj = x -> x^(p^2) on F4: s -> -s)
  //   x^2 = (3A0^2 - 2conj(A0)) + (3s A2^2 + 2conj(A1)) t + (3A1^2 - 2conj(A2)) t^2.
  // Only valid on the cyclotomic subgroup (after the easy part of the final
  // exponentiation). 9 B2-squarings.
  QuadOverCubic cyclotomic_square() const {
    auto f4_sq = [](const B2& a, const B2& b, B2& r0, B2& r1) {
      B2 a2 = a.square(), b2 = b.square();
      r0 = b2.mul_by_nonresidue() + a2;
      r1 = (a + b).square() - a2 - b2;
    };
    // 3t - 2z = 2(t - z) + t ;  3t + 2z = 2(t + z) + t
    auto m3 = [](const B2& t, const B2& z) { return (t - z).dbl() + t; };
    auto p3 = [](const B2& t, const B2& z) { return (t + z).dbl() + t; };
    B2 x0, y0, x1, y1, x2, y2;
    f4_sq(c0.c0, c1.c1, x0, y0);  // A0^2
    f4_sq(c1.c0, c0.c2, x1, y1);  // A1^2
    f4_sq(c0.c1, c1.c2, x2, y2);  // A2^2
    QuadOverCubic r;
    r.c0.c0 = m3(x0, c0.c0);
    r.c1.c1 = p3(y0, c1.c1);
    r.c1.c0 = p3(y2.mul_by_nonresidue(), c1.c0);  // s*A2^2 = xi*y2 + x2 s
    r.c0.c2 = m3(x2, c0.c2);
    r.c0.c1 = m3(x1, c0.c1);
    r.c1.c2 = p3(y1, c1.c2);
    return r;
  }

  // this^e in the cyclotomic subgroup (conjugate = inverse), e a u64.
  QuadOverCubic cyclotomic_pow_vartime(uint64_t e) const {
    QuadOverCubic r = one();
    bool started = false;
    for (int i = 63; i >= 0; i--) {
      if (started) r = r.cyclotomic_square();
      if ((e >> i) & 1) {
        r = started ? r * *this : *this;
        started = true;
      }
    }
    return r;
  }

  template <size_t M>
  QuadOverCubic pow_vartime(const Limbs<M>& e) const {
    QuadOverCubic r = one();
    for (size_t i = arith::bit_length(e); i-- > 0;) {
      r = r.square();
      if (arith::bit(e, i)) r *= *this;
    }
    return r;
  }
};

using Fp12 = QuadOverCubic<Fp6>;

}  // namespace cuzk::ff
