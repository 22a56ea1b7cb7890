#pragma once
// Modular inversion in variable time (see inverse_divsteps below).
#include <algorithm>
#include <stdexcept>

#include "arith/limbs.hpp"

namespace cuzk::arith {

// Variable-time modular inversion by Bernstein-Yang divsteps ("Fast
// constant-time gcd computation and modular inversion", 2019), in the
// variable-time form of libsecp256k1's safegcd: 62 divsteps at a time on the
// low 64 bits of f and g, each run of even g shifted out at once and up to
// six low bits of an odd g cleared with one multiple of f; the 62 steps make
// a 2x2 matrix of integers below 2^62 in magnitude, applied to the
// full-width f, g and to the Bezout coefficients d, e (mod m) in signed
// 62-bit limbs. It stops as soon as g = 0: 13 rounds on average for a random
// input mod BLS12-381's p, 9 mod r. Its running time depends on the input:
// use it only on data that may leak through timing (this codebase's prover
// is variable time throughout; see msm/msm.hpp).
//
// Invariants (mod m, x the input): f = d x and g = e x, from (f, g, d, e) =
// (m, x, 0, 1); each round divides f, g exactly by 2^62 and d, e by 2^62
// mod m. At the end g = 0 and f = +-gcd(x, m).
namespace divsteps {

inline constexpr uint64_t M62 = (uint64_t(1) << 62) - 1;

// Signed 62-bit limbs: limbs below the top one in [0, 2^62), the top one
// signed. L limbs hold any value below 2^(64N) in magnitude.
template <size_t N>
inline constexpr size_t kLimbs = (64 * N + 61) / 62;

template <size_t L>
struct S62 {
  int64_t v[L];
};

// The matrix of 62 divsteps: (f, g) -> ((u f + v g) / 2^62, (q f + r g) / 2^62).
struct Matrix {
  int64_t u, v, q, r;
};

template <size_t N, size_t L>
inline S62<L> from_limbs(const Limbs<N>& a) {
  S62<L> s{};
  for (size_t i = 0; i < L; i++) {
    const size_t bit = 62 * i, li = bit / 64, sh = bit % 64;
    uint64_t x = li < N ? a[li] >> sh : 0;
    if (sh > 2 && li + 1 < N) x |= a[li + 1] << (64 - sh);
    s.v[i] = int64_t(x & M62);
  }
  return s;
}

// a in [0, 2^(64N)).
template <size_t N, size_t L>
inline Limbs<N> to_limbs(const S62<L>& a) {
  Limbs<N> r{};
  for (size_t i = 0; i < L; i++) {
    const size_t bit = 62 * i, li = bit / 64, sh = bit % 64;
    const uint64_t x = uint64_t(a.v[i]);
    if (li < N) r[li] |= x << sh;
    if (sh > 2 && li + 1 < N) r[li + 1] |= x >> (64 - sh);
  }
  return r;
}

// a += s * m for s in {-1, 0, 1}, limbs renormalised (s = 0: carries only).
template <size_t L>
inline void add_signed(S62<L>& a, const S62<L>& m, int64_t s) {
  int64_t c = 0;
  for (size_t i = 0; i + 1 < L; i++) {
    c += a.v[i] + s * m.v[i];
    a.v[i] = c & int64_t(M62);
    c >>= 62;
  }
  a.v[L - 1] += s * m.v[L - 1] + c;
}

// 62 divsteps from eta (= -delta) on the low 64 bits of f (odd) and g;
// returns the new eta. The matrix rows are kept so that 2^i f_now = u f + v g and
// 2^i g_now = q f + r g after i steps: shifting g out doubles u and v,
// g += w f adds w times the first row to the second.
inline int64_t steps62(int64_t eta, uint64_t f, uint64_t g, Matrix& t) {
  uint64_t u = 1, v = 0, q = 0, r = 1;  // two's complement, |entries| <= 2^62
  int i = 62;
  for (;;) {
    const int z = __builtin_ctzll(g | (~uint64_t(0) << i));  // g's zeros, at most i
    g >>= z;
    u <<= z;
    v <<= z;
    eta -= z;
    i -= z;
    if (i == 0) break;
    if (eta < 0) {  // delta > 0 and g odd: (f, g) = (g, -f)
      eta = -eta;
      const uint64_t x = f, y = u, w = v;
      f = g;
      g = 0 - x;
      u = q;
      q = 0 - y;
      v = r;
      r = 0 - w;
    }
    // Up to min(eta + 1, i, 6) steps that each add f to an odd g: one
    // multiple w of f clears that many low bits, w = -g / f mod 2^k
    // (f (2 - f^2) is 1/f mod 2^6 for odd f).
    const int64_t k = std::min<int64_t>(std::min<int64_t>(eta + 1, i), 6);
    const uint64_t w = (f * g * (f * f - 2)) & (~uint64_t(0) >> (64 - k));
    g += f * w;
    q += u * w;
    r += v * w;
  }
  t = {int64_t(u), int64_t(v), int64_t(q), int64_t(r)};
  return eta;
}

// (a, b) = ((u a + v b + ka m) / 2^62, (q a + r b + kb m) / 2^62) over the
// low len limbs (the others are sign extension), for sums whose low 62 bits
// are zero; without m where AddM is false.
template <bool AddM, size_t L>
inline void combine_shift(S62<L>& a, S62<L>& b, const Matrix& t, size_t len, const S62<L>& m, int64_t ka,
                          int64_t kb) {
  const auto term = [&](size_t i, int64_t x, int64_t y, int64_t k) {
    __int128 r = __int128(x) * a.v[i] + __int128(y) * b.v[i];
    if constexpr (AddM) r += __int128(k) * m.v[i];
    return r;
  };
  __int128 ca = term(0, t.u, t.v, ka) >> 62, cb = term(0, t.q, t.r, kb) >> 62;
  for (size_t i = 1; i < len; i++) {
    ca += term(i, t.u, t.v, ka);
    cb += term(i, t.q, t.r, kb);
    a.v[i - 1] = int64_t(uint64_t(ca) & M62);
    b.v[i - 1] = int64_t(uint64_t(cb) & M62);
    ca >>= 62;
    cb >>= 62;
  }
  a.v[len - 1] = int64_t(ca);
  b.v[len - 1] = int64_t(cb);
}

// (f, g) = ((u f + v g) / 2^62, (q f + r g) / 2^62), exact.
template <size_t L>
inline void apply_fg(S62<L>& f, S62<L>& g, const Matrix& t, size_t len) {
  combine_shift<false>(f, g, t, len, f, 0, 0);
}

// (d, e) = ((u d + v e) / 2^62, (q d + r e) / 2^62) mod m, both in (-2m, m)
// before and after; minv = 1/m mod 2^62. With D = d (+ m where d < 0), and
// E alike, |D|, |E| < m, so |u D + v E| < 2^62 m (|u| + |v| <= 2^62);
// subtracting k m, k in [0, 2^62), to clear the low 62 bits leaves a
// quotient in (-2m, m) without a comparison.
template <size_t L>
inline void apply_de(S62<L>& d, S62<L>& e, const Matrix& t, const S62<L>& m, uint64_t minv) {
  const int64_t sd = d.v[L - 1] >> 63, se = e.v[L - 1] >> 63;
  int64_t md = (t.u & sd) + (t.v & se);
  int64_t me = (t.q & sd) + (t.r & se);
  const uint64_t d0 = uint64_t(d.v[0]), e0 = uint64_t(e.v[0]), m0 = uint64_t(m.v[0]);
  md -= int64_t(((uint64_t(t.u) * d0 + uint64_t(t.v) * e0 + uint64_t(md) * m0) * minv) & M62);
  me -= int64_t(((uint64_t(t.q) * d0 + uint64_t(t.r) * e0 + uint64_t(me) * m0) * minv) & M62);
  combine_shift<true>(d, e, t, L, m, md, me);
}

// a in (-3m, 3m), its limbs any signed values, into [0, m).
template <size_t L>
inline void normalize(S62<L>& a, const S62<L>& m) {
  add_signed(a, m, 0);  // carries first: the top limb then has the sign
  while (a.v[L - 1] < 0) add_signed(a, m, 1);
  for (;;) {
    S62<L> b = a;
    add_signed(b, m, -1);
    if (b.v[L - 1] < 0) return;
    a = b;
  }
}

}  // namespace divsteps

// a^-1 mod m (plain integers) for odd m < 2^(64N - 2) and 0 <= y < m; 0 when
// y = 0 or gcd(y, m) > 1.
template <size_t N>
Limbs<N> inverse_divsteps(const Limbs<N>& y, const Limbs<N>& m) {
  using namespace divsteps;
  constexpr size_t L = kLimbs<N>;
  uint64_t minv = 1;  // 1/m mod 2^64 (Newton)
  for (int i = 0; i < 6; i++) minv *= 2 - m[0] * minv;
  minv &= M62;
  const S62<L> ms = from_limbs<N, L>(m);
  S62<L> f = ms, g = from_limbs<N, L>(y), d{}, e{};
  e.v[0] = 1;
  int64_t eta = -1;
  size_t len = L;
  // Bernstein and Yang's bound on the divsteps for inputs below 2^(64N - 2),
  // (49 b + 80) / 17 for b bits, with a round to spare: never reached.
  constexpr size_t kMaxRounds = (49 * (64 * N - 2) + 80) / 17 / 62 + 2;
  for (size_t round = 0;; round++) {
    uint64_t any = 0;
    for (size_t i = 0; i < len; i++) any |= uint64_t(g.v[i]);
    if (!any) break;
    if (round == kMaxRounds) throw std::logic_error("inverse_divsteps: g did not reach 0 within the bound");
    Matrix t;
    eta = steps62(eta, uint64_t(f.v[0]) | (len > 1 ? uint64_t(f.v[1]) << 62 : 0),
                  uint64_t(g.v[0]) | (len > 1 ? uint64_t(g.v[1]) << 62 : 0), t);
    apply_de(d, e, t, ms, minv);
    apply_fg(f, g, t, len);
    // Drop the top limb where it is only sign extension in both.
    const int64_t fn = f.v[len - 1], gn = g.v[len - 1];
    if (len > 1 && ((fn ^ (fn >> 63)) | (gn ^ (gn >> 63))) == 0) {
      f.v[len - 2] = int64_t(uint64_t(f.v[len - 2]) | uint64_t(fn) << 62);
      g.v[len - 2] = int64_t(uint64_t(g.v[len - 2]) | uint64_t(gn) << 62);
      len--;
    }
  }
  // f = +-gcd: an inverse exists only where it is +-1 (then 1/y = +-d).
  const bool neg = f.v[len - 1] < 0;
  if (neg) {
    for (size_t i = 0; i < len; i++) f.v[i] = -f.v[i];
    for (size_t i = 0; i + 1 < len; i++) {  // renormalise the negated limbs
      const int64_t c = f.v[i] >> 62;
      f.v[i] &= int64_t(M62);
      f.v[i + 1] += c;
    }
  }
  if (f.v[0] != 1) return Limbs<N>{};
  for (size_t i = 1; i < len; i++)
    if (f.v[i] != 0) return Limbs<N>{};
  if (neg)
    for (size_t i = 0; i < L; i++) d.v[i] = -d.v[i];  // limbs renormalised by the additions below
  normalize(d, ms);
  return to_limbs<N, L>(d);
}

}  // namespace cuzk::arith
