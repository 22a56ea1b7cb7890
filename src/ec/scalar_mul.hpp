#pragma once
// Variable-time scalar multiplication, faster than the double-and-add
// mul_vartime of point.hpp (which stays as the reference):
//
//   mul_wnaf_vartime(P, k, w)   any point on the curve, any scalar width:
//                               width-w NAF, table of odd multiples.
//   mul_glv_vartime(P, k)       G1 only: k = a + b*u^2 with a, b < 2^128 and
//                               [u^2]P = -sigma(P); 2-way interleaved wNAF.
//   mul_gls_vartime(P, k)       G2 only: k = sum d_i |u|^i with d_i < 2^64 and
//                               [|u|]P = -psi(P); 4-way interleaved wNAF.
//   mul_fast_vartime(P, k)      the best of the above for the curve.
//
// GLV/GLS rely on the endomorphism acting as a scalar, which holds only on
// the prime-order subgroup: use them for points of G1/G2 (for other points
// of E the result is some other point). mul_wnaf_vartime has no such limit.
#include <array>
#include <cstdint>

#include "ec/endomorphism.hpp"

namespace cuzk::ec {

namespace detail {

// Width-w NAF of a non-negative little-endian integer: digits are 0 or odd
// in (-2^(w-1), 2^(w-1)), any w consecutive digits have at most one non-zero.
// `out` needs 64*M + 1 entries; returns the number of digits written.
template <size_t M>
size_t wnaf_digits(const arith::Limbs<M>& k, unsigned w, int8_t* out) {
  arith::Limbs<M + 1> t{};
  for (size_t i = 0; i < M; i++) t[i] = k[i];
  const uint64_t mask = (uint64_t(1) << w) - 1;
  const int64_t half = int64_t(1) << (w - 1);
  size_t n = 0;
  while (!arith::is_zero(t)) {
    int64_t d = 0;
    if (t[0] & 1) {
      d = int64_t(t[0] & mask);
      if (d >= half) d -= int64_t(1) << w;
      if (d > 0) {
        t[0] -= uint64_t(d);  // the low w bits equal d: no borrow
      } else {
        uint64_t c = uint64_t(-d);
        for (size_t i = 0; i <= M && c; i++) {
          t[i] += c;
          c = t[i] < c ? 1 : 0;
        }
      }
    }
    out[n++] = int8_t(d);
    arith::shr1(t);
  }
  return n;
}

// Table of odd multiples P, 3P, ..., (2^(w-1) - 1)P.
template <class C, size_t T>
void odd_multiples(const Jacobian<C>& p, std::array<Jacobian<C>, T>& tab, size_t count) {
  tab[0] = p;
  if (count > 1) {
    Jacobian<C> p2 = p.dbl();
    for (size_t i = 1; i < count; i++) tab[i] = tab[i - 1].add(p2);
  }
}

template <class C>
inline void add_digit(Jacobian<C>& acc, const Jacobian<C>* tab, int d) {
  if (d > 0) acc = acc.add(tab[d >> 1]);
  else if (d < 0) acc = acc.add(tab[(-d) >> 1].neg());
}

inline constexpr unsigned kMaxWindow = 8;
inline constexpr size_t kMaxTable = size_t(1) << (kMaxWindow - 2);

// Straus: sum_j [k_j] B_j with tabs[j] the odd multiples of B_j.
template <class C, size_t K, size_t L>
Jacobian<C> interleaved_wnaf(const std::array<const Jacobian<C>*, K>& tabs,
                             const std::array<arith::Limbs<L>, K>& ks, unsigned w) {
  std::array<std::array<int8_t, 64 * L + 1>, K> digits;
  std::array<size_t, K> len{};
  size_t n = 0;
  for (size_t j = 0; j < K; j++) {
    len[j] = wnaf_digits(ks[j], w, digits[j].data());
    if (len[j] > n) n = len[j];
  }
  Jacobian<C> acc = Jacobian<C>::identity();
  for (size_t i = n; i-- > 0;) {
    acc = acc.dbl();
    for (size_t j = 0; j < K; j++)
      if (i < len[j]) add_digit(acc, tabs[j], digits[j][i]);
  }
  return acc;
}

}  // namespace detail

// k*P for a little-endian scalar of any width, window w in [2, 8].
template <class C, size_t M>
Jacobian<C> mul_wnaf_vartime(const Jacobian<C>& p, const arith::Limbs<M>& k, unsigned w = 5) {
  if (w < 2) w = 2;
  if (w > detail::kMaxWindow) w = detail::kMaxWindow;
  if (p.is_identity() || arith::is_zero(k)) return Jacobian<C>::identity();
  std::array<Jacobian<C>, detail::kMaxTable> tab;
  detail::odd_multiples(p, tab, size_t(1) << (w - 2));
  std::array<const Jacobian<C>*, 1> tabs = {tab.data()};
  std::array<arith::Limbs<M>, 1> ks = {k};
  return detail::interleaved_wnaf<C, 1, M>(tabs, ks, w);
}
template <class C>
Jacobian<C> mul_wnaf_vartime(const Jacobian<C>& p, const ff::Fr& k, unsigned w = 5) {
  return mul_wnaf_vartime(p, k.to_canonical(), w);
}

namespace detail {
// Base-|u| digits of k < r < |u|^4: k = d0 + d1|u| + d2|u|^2 + d3|u|^3.
inline std::array<uint64_t, 4> u_digits(const arith::Limbs<4>& k) {
  std::array<uint64_t, 4> d{};
  arith::Limbs<4> q = k;
  for (size_t j = 0; j < 4; j++) {
    arith::u128 rem = 0;
    for (size_t i = 4; i-- > 0;) {
      arith::u128 cur = (rem << 64) | q[i];
      q[i] = uint64_t(cur / BLS_U_ABS);
      rem = cur % BLS_U_ABS;
    }
    d[j] = uint64_t(rem);
  }
  return d;
}
// a + b*|u| as two limbs (< |u|^2 < 2^128).
inline arith::Limbs<2> combine_u(uint64_t a, uint64_t b) {
  arith::u128 v = arith::u128(b) * BLS_U_ABS + a;
  return {uint64_t(v), uint64_t(v >> 64)};
}
}  // namespace detail

// G1, P in G1: [k]P = [a]P + [b]([u^2]P) = [a]P + [b](-sigma(P)).
inline G1Jacobian mul_glv_vartime(const G1Jacobian& p, const ff::Fr& k) {
  constexpr unsigned w = 5;
  constexpr size_t T = size_t(1) << (w - 2);
  if (p.is_identity() || k.is_zero()) return G1Jacobian::identity();
  auto d = detail::u_digits(k.to_canonical());
  std::array<arith::Limbs<2>, 2> ks = {detail::combine_u(d[0], d[1]), detail::combine_u(d[2], d[3])};
  std::array<G1Jacobian, T> t0, t1;
  detail::odd_multiples(p, t0, T);
  for (size_t i = 0; i < T; i++) t1[i] = sigma(t0[i]).neg();
  std::array<const G1Jacobian*, 2> tabs = {t0.data(), t1.data()};
  return detail::interleaved_wnaf<G1Curve, 2, 2>(tabs, ks, w);
}

// G2, P in G2: [k]P = sum_i [d_i]([|u|]^i P), [|u|]Q = -psi(Q).
inline G2Jacobian mul_gls_vartime(const G2Jacobian& p, const ff::Fr& k) {
  constexpr unsigned w = 5;
  constexpr size_t T = size_t(1) << (w - 2);
  if (p.is_identity() || k.is_zero()) return G2Jacobian::identity();
  auto d = detail::u_digits(k.to_canonical());
  std::array<arith::Limbs<1>, 4> ks = {arith::Limbs<1>{d[0]}, arith::Limbs<1>{d[1]}, arith::Limbs<1>{d[2]},
                                       arith::Limbs<1>{d[3]}};
  std::array<std::array<G2Jacobian, T>, 4> t;
  detail::odd_multiples(p, t[0], T);
  for (size_t j = 1; j < 4; j++)
    for (size_t i = 0; i < T; i++) t[j][i] = psi(t[j - 1][i]).neg();
  std::array<const G2Jacobian*, 4> tabs = {t[0].data(), t[1].data(), t[2].data(), t[3].data()};
  return detail::interleaved_wnaf<G2Curve, 4, 1>(tabs, ks, w);
}

// Fastest [k]P for P in the prime-order subgroup.
inline G1Jacobian mul_fast_vartime(const G1Jacobian& p, const ff::Fr& k) { return mul_glv_vartime(p, k); }
inline G2Jacobian mul_fast_vartime(const G2Jacobian& p, const ff::Fr& k) { return mul_gls_vartime(p, k); }

}  // namespace cuzk::ec
