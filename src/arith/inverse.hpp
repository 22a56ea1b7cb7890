#pragma once
// Variable-time modular inversion by a binary GCD that works on 64-bit
// approximations (T. Pornin, "Optimized Binary GCD for Modular Inversion",
// IACR ePrint 2020/972): 31 binary-GCD steps run on one machine word that
// holds the low 31 bits and the top 33 bits of each operand; the steps are
// recorded as a 2x2 matrix of small factors, then applied to the full
// numbers at once. The full-width work drops from one pass per bit to one
// pass per 31 bits. Its running time depends on the input: use it only on
// data that may leak through timing (this codebase's prover is variable time
// throughout; see msm/msm.hpp).
//
// Invariants (mod m): a = y u, b = y v. Every round divides both new a, b by
// 2^31 (exactly) and u, v by 2^31 mod m (a Montgomery step), so they hold;
// after at least 2 len(m) - 1 steps b = gcd(y, m) = 1 and v = 1/y.
#include <algorithm>

#include "arith/limbs.hpp"

namespace cuzk::arith {

namespace detail {

template <size_t N>
inline unsigned bit_length(const Limbs<N>& a) {
  for (size_t i = N; i-- > 0;)
    if (a[i]) return unsigned(64 * i + 64 - size_t(__builtin_clzll(a[i])));
  return 0;
}

// The low 31 bits of a, under its bits [n - 33, n) (a < 2^n, n >= 64).
template <size_t N>
inline uint64_t approx(const Limbs<N>& a, unsigned n) {
  const unsigned s = n - 33, li = s / 64, sh = s % 64;
  uint64_t top = a[li] >> sh;
  if (sh && li + 1 < N) top |= a[li + 1] << (64 - sh);
  return (a[0] & 0x7fffffffu) | (top & 0x1ffffffffull) << 31;
}

// t[0..N] = a f + b g as N + 1 limbs of two's complement (|f|, |g| <= 2^31,
// so the value fits with its sign: |t| < 2^(64N + 32)).
template <size_t N>
inline void lin_comb(uint64_t* t, const Limbs<N>& a, int64_t f, const Limbs<N>& b, int64_t g) {
  __int128 c = 0;
  for (size_t i = 0; i < N; i++) {
    c += __int128(a[i]) * f + __int128(b[i]) * g;
    t[i] = uint64_t(c);
    c >>= 64;  // arithmetic: the carry keeps its sign
  }
  t[N] = uint64_t(c);
}

// r = (a f + b g) / 2^31 for a combination that is a multiple of 2^31;
// returns true (and r = |.|) when it is negative.
template <size_t N>
inline bool lin_comb_shift(Limbs<N>& r, const Limbs<N>& a, int64_t f, const Limbs<N>& b, int64_t g) {
  uint64_t t[N + 1];
  lin_comb(t, a, f, b, g);
  const bool neg = int64_t(t[N]) < 0;
  if (neg) {  // two's complement negation over N + 1 limbs
    uint64_t k = 1;
    for (size_t i = 0; i <= N; i++) {
      t[i] = ~t[i] + k;
      k = k && t[i] == 0;
    }
  }
  for (size_t i = 0; i < N; i++) r[i] = (t[i] >> 31) | (t[i + 1] << 33);
  return neg;
}

// r = (u f + v g) / 2^31 mod m, for u, v in [0, m), |f|, |g| <= 2^31 and
// m0 = -1/m mod 2^64.
template <size_t N>
inline void lin_comb_mod(Limbs<N>& r, const Limbs<N>& u, int64_t f, const Limbs<N>& v, int64_t g,
                         const Limbs<N>& m, uint64_t m0) {
  uint64_t t[N + 2];
  lin_comb(t, u, f, v, g);
  t[N + 1] = uint64_t(int64_t(t[N]) >> 63);  // sign extension
  // + q m with q = -t / m mod 2^31: the low 31 bits vanish.
  const uint64_t q = (t[0] * m0) & 0x7fffffffu;
  unsigned __int128 cc = 0;
  for (size_t i = 0; i < N; i++) {
    cc += (unsigned __int128)m[i] * q + t[i];
    t[i] = uint64_t(cc);
    cc >>= 64;
  }
  cc += t[N];
  t[N] = uint64_t(cc);
  t[N + 1] += uint64_t(cc >> 64);
  // |t / 2^31| < 3m: shift, then bring into [0, m).
  Limbs<N> x;
  for (size_t i = 0; i < N; i++) x[i] = (t[i] >> 31) | (t[i + 1] << 33);
  const uint64_t hi = (t[N] >> 31) | (t[N + 1] << 33);  // the limb above x (sign included)
  if (int64_t(hi) < 0) {
    // x + hi 2^(64N) < 0: add m until non-negative (at most three times).
    uint64_t h = hi;
    while (int64_t(h) < 0) h += add_to(x, m);
  } else {
    uint64_t h = hi;
    while (h || compare(x, m) >= 0) h -= sub_from(x, m);
  }
  r = x;
}

}  // namespace detail

// a^-1 mod m (plain integers) for odd m < 2^(64N - 2) and 0 < a < m with
// gcd(a, m) = 1; 0 when a = 0 or they are not coprime.
template <size_t N>
Limbs<N> inverse_binary(const Limbs<N>& y, const Limbs<N>& m) {
  uint64_t m0 = 1;  // Newton: m0 = 1/m mod 2^64, then negated
  for (int i = 0; i < 6; i++) m0 *= 2 - m[0] * m0;
  m0 = 0 - m0;
  Limbs<N> a = y, b = m, u = from_u64<N>(1), v{};
  const unsigned steps = 2 * detail::bit_length(m) - 1;
  for (unsigned done = 0; done < steps; done += 31) {
    const unsigned n = std::max({detail::bit_length(a), detail::bit_length(b), 64u});
    uint64_t aa = detail::approx(a, n), bb = detail::approx(b, n);
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    // Branch-free: both branches depend on random bits of the operands and
    // mispredicted about half the time.
    for (int j = 0; j < 31; j++) {
      const uint64_t odd = 0 - (aa & 1);
      const uint64_t swap = odd & (0 - uint64_t(aa < bb));
      const uint64_t ta = (aa ^ bb) & swap;
      aa ^= ta;
      bb ^= ta;
      const int64_t tf = (f0 ^ f1) & int64_t(swap), tg = (g0 ^ g1) & int64_t(swap);
      f0 ^= tf;
      f1 ^= tf;
      g0 ^= tg;
      g1 ^= tg;
      aa -= bb & odd;
      f0 -= f1 & int64_t(odd);
      g0 -= g1 & int64_t(odd);
      aa >>= 1;
      f1 *= 2;
      g1 *= 2;
    }
    Limbs<N> na, nb;
    if (detail::lin_comb_shift(na, a, f0, b, g0)) f0 = -f0, g0 = -g0;
    if (detail::lin_comb_shift(nb, a, f1, b, g1)) f1 = -f1, g1 = -g1;
    a = na;
    b = nb;
    Limbs<N> nu, nv;
    detail::lin_comb_mod(nu, u, f0, v, g0, m, m0);
    detail::lin_comb_mod(nv, u, f1, v, g1, m, m0);
    u = nu;
    v = nv;
  }
  Limbs<N> one = from_u64<N>(1);
  return b == one ? v : Limbs<N>{};
}

}  // namespace cuzk::arith
