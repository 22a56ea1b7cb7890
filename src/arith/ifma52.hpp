#pragma once
// Eight-lane Montgomery arithmetic on AVX-512 IFMA (vpmadd52luq/vpmadd52huq).
//
// A Vec<K> holds 8 field elements at once, limb-sliced: l[j] is limb j of
// all 8 lanes, in radix 2^52 (K limbs: 8 for the 381-bit Fp). The Montgomery
// radix is R' = 2^(52K) (2^416 for Fp), not the scalar kernels' 2^(64N), so
// values cross between the two with conversions (msm/ifma_kernels.cpp).
//
// Values are lazily reduced: mul(a, b) takes any inputs below 2^(52K) with
// normalised limbs (each < 2^52: IFMA reads only the low 52 bits of a limb)
// and returns a normalised value below a*b / 2^(52K) + p. For Fp (K = 8,
// 35 spare bits) inputs of a few multiples of p give results below 2p; for
// Fr (K = 5, 5 spare bits) one input below 4r and the other below r do. add/sub return normalised limbs too;
// sub(a, b, C) computes a + C - b for a constant multiple C of p that exceeds
// b, kept in a redundant form whose low limbs are all >= 2^52 so that no limb
// goes negative. canonical() brings a value below 16p into [0, p).
//
// The *_lazy forms skip the final carry propagation: their limbs may exceed
// 52 bits by a few bits or, after sub_lazy, be negative. Such a value may
// only feed add/sub (whatever its limbs, normalize() with arithmetic shifts
// restores normalised limbs of a non-negative value), never mul or a store.
// Carry propagation is a serial chain of 21 operations, about a tenth of
// the MSM kernels' vector work.
//
// Only included by translation units whose functions carry CUZK_IFMA_TARGET;
// callers check platform::use_ifma() before entering them.
// GCC 12 flags the intrinsics' internal "undefined" operands in functions
// compiled for a target the translation unit does not default to: off for
// the translation units that include this header (only IFMA ones do).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "arith/limbs.hpp"

#define CUZK_IFMA_TARGET __attribute__((target("avx512f,avx512ifma,avx512vl,avx512bw,avx512dq,avx512vbmi2")))
#define CUZK_IFMA_INLINE [[gnu::always_inline]] inline CUZK_IFMA_TARGET

namespace cuzk::arith::ifma {

inline constexpr uint64_t MASK52 = (uint64_t(1) << 52) - 1;

// x (N 64-bit limbs) as K 52-bit limbs.
template <size_t K, size_t N>
constexpr std::array<uint64_t, K> to_radix52(const Limbs<N>& x) {
  std::array<uint64_t, K> r{};
  for (size_t k = 0; k < K; k++) {
    const size_t pos = 52 * k, li = pos / 64, sh = pos % 64;
    uint64_t v = li < N ? x[li] >> sh : 0;
    if (sh > 12 && li + 1 < N) v |= x[li + 1] << (64 - sh);
    r[k] = v & MASK52;
  }
  return r;
}

// c * x for a value x in K 52-bit limbs: normalised limbs, the top one
// taking what is left (it must fit in 64 bits).
template <size_t K>
constexpr std::array<uint64_t, K> times52(const std::array<uint64_t, K>& x, uint64_t c) {
  std::array<uint64_t, K> q{};
  uint64_t carry = 0;
  for (size_t k = 0; k < K; k++) {
    const uint64_t v = x[k] * c + carry;
    q[k] = k + 1 < K ? v & MASK52 : v;
    carry = v >> 52;
  }
  return q;
}

// Constants of one modulus p (16p must fit in K limbs of 52 bits).
template <size_t K>
struct Modulus52 {
  std::array<uint64_t, K> p, p2, p4, p8;  // p and its multiples, normalised limbs
  uint64_t k0;                            // -p^-1 mod 2^52
  // m*p in redundant form: limb 0 gets +2^52, middle limbs +2^52 - 1, the top
  // limb -1 (same value; every low limb >= 2^52 > any normalised limb).
  std::array<uint64_t, K> red1, red2, red4, red8;
  // mult[j][k]: limb j of k*p in normalised limbs, k = 0..7 (a lane-indexed
  // table per limb for canonical()).
  alignas(64) std::array<std::array<uint64_t, 8>, K> mult;

  template <size_t N>
  static constexpr Modulus52 make(const Limbs<N>& modulus) {
    Modulus52 m{};
    m.p = to_radix52<K>(modulus);
    m.p2 = times52(m.p, 2);
    m.p4 = times52(m.p, 4);
    m.p8 = times52(m.p, 8);
    uint64_t inv = 1;  // Newton: inv = p^-1 mod 2^64
    for (int i = 0; i < 6; i++) inv *= 2 - modulus[0] * inv;
    m.k0 = (0 - inv) & MASK52;
    m.red1 = redundant(m.p);
    m.red2 = redundant(m.p2);
    m.red4 = redundant(m.p4);
    m.red8 = redundant(m.p8);
    for (uint64_t k = 0; k < 8; k++) {
      const auto kp = times52(m.p, k);
      for (size_t j = 0; j < K; j++) m.mult[j][k] = kp[j];
    }
    return m;
  }
  static constexpr std::array<uint64_t, K> redundant(std::array<uint64_t, K> q) {
    q[0] += uint64_t(1) << 52;
    for (size_t k = 1; k + 1 < K; k++) q[k] += (uint64_t(1) << 52) - 1;
    q[K - 1] -= 1;
    return q;
  }
};

template <size_t K>
struct Vec {
  __m512i l[K];
};

CUZK_IFMA_INLINE __m512i bcast(uint64_t x) { return _mm512_set1_epi64(int64_t(x)); }

// x, as far as the optimiser knows, read from memory: the modulus limbs then
// enter the multiply-adds as broadcast memory operands (a load each) instead
// of a 64-bit immediate plus a broadcast on the vector ports every time.
template <class T>
CUZK_IFMA_INLINE const T& opaque(const T& x) {
  const T* p = &x;
  asm("" : "+r"(p));
  return *p;
}

// Carry-propagates so that limbs 0..K-2 are < 2^52 (the top limb keeps the
// rest; the value must be non-negative).
template <size_t K>
CUZK_IFMA_INLINE void normalize(__m512i* t) {
  const __m512i mask = bcast(MASK52);
  for (size_t j = 0; j + 1 < K; j++) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srai_epi64(t[j], 52));
    t[j] = _mm512_and_si512(t[j], mask);
  }
}

// Limb-sliced N 64-bit limbs <-> K 52-bit limbs (the value must fit in
// min(64N, 52K) bits; the shifts are constants after unrolling).
template <size_t N, size_t K>
CUZK_IFMA_INLINE Vec<K> from_limbs64(const __m512i* L) {
  Vec<K> r;
  for (size_t k = 0; k < K; k++) {
    const size_t pos = 52 * k, li = pos / 64, sh = pos % 64;
    __m512i v = _mm512_setzero_si512();
    if (li < N)  // a limb that straddles two 64-bit limbs: one concatenating shift
      v = sh > 12 && li + 1 < N ? _mm512_shrdv_epi64(L[li], L[li + 1], bcast(sh))
                                : _mm512_srlv_epi64(L[li], bcast(sh));
    r.l[k] = _mm512_and_si512(v, bcast(MASK52));
  }
  return r;
}
template <size_t N, size_t K>
CUZK_IFMA_INLINE void to_limbs64(const Vec<K>& v, __m512i* L) {
  for (size_t i = 0; i < N; i++) {
    __m512i acc = _mm512_setzero_si512();
    for (size_t k = 0; k < K; k++) {
      const long rel = long(52 * k) - long(64 * i);  // limb k's position within limb i
      if (rel >= 64 || rel + 52 <= 0) continue;
      acc = _mm512_or_si512(acc, rel >= 0 ? _mm512_sllv_epi64(v.l[k], bcast(uint64_t(rel)))
                                          : _mm512_srlv_epi64(v.l[k], bcast(uint64_t(-rel))));
    }
    L[i] = acc;
  }
}

// a * b / 2^(52K) mod p, below a*b / 2^(52K) + p; limbs not normalised.
//
// Operand scanning with one Montgomery step per limb of a, arranged for
// latency: a product is usually waited for (the inversion chains, slope ->
// x3 -> y3), so its critical path matters more than its operation count.
// Low and high halves accumulate in two arrays, so a limb takes two serial
// multiply-adds per step instead of four, and only limb 0 is merged (it
// feeds q). q = (t0 + a_i b_0) k0 mod 2^52 = t0 k0 + a_i (b_0 k0): the
// second term comes off the chain, so a step is about q (one multiply-add),
// q p_0 and q p_1 (one), and two additions. Nine extra multiply-adds and
// fifteen additions; the value and the limbs returned are the same as
// accumulating everything into one array. The steps are unrolled by force
// (GCC kept a loop): shifting lo and hi down one limb a step is then register
// renaming, not eight moves a step.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> mul_lazy(const Vec<K>& a, const Vec<K>& b, const Modulus52<K>& mod) {
  const Modulus52<K>& m = opaque(mod);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i k0 = bcast(m.k0);
  const __m512i bk = _mm512_madd52lo_epu64(zero, b.l[0], k0);
  __m512i lo[K], hi[K + 1];  // hi[0] unused: limb 0 is kept merged in lo[0]
  for (size_t j = 0; j < K; j++) lo[j] = zero;
  for (size_t j = 0; j <= K; j++) hi[j] = zero;
#pragma GCC unroll 16
  for (size_t i = 0; i < K; i++) {
    const __m512i ai = a.l[i];
    const __m512i q = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(zero, ai, bk), lo[0], k0);
    for (size_t j = 0; j < K; j++) lo[j] = _mm512_madd52lo_epu64(lo[j], ai, b.l[j]);
    for (size_t j = 0; j < K; j++) hi[j + 1] = _mm512_madd52hi_epu64(hi[j + 1], ai, b.l[j]);
    for (size_t j = 0; j < K; j++) lo[j] = _mm512_madd52lo_epu64(lo[j], q, bcast(m.p[j]));
    for (size_t j = 0; j < K; j++) hi[j + 1] = _mm512_madd52hi_epu64(hi[j + 1], q, bcast(m.p[j]));
    // lo[0] is now a multiple of 2^52: shift down one limb, merging limb 1.
    const __m512i carry = _mm512_srli_epi64(lo[0], 52);
    lo[0] = _mm512_add_epi64(_mm512_add_epi64(lo[1], carry), hi[1]);
    for (size_t j = 1; j + 1 < K; j++) lo[j] = lo[j + 1];
    lo[K - 1] = zero;
    for (size_t j = 1; j < K; j++) hi[j] = hi[j + 1];
    hi[K] = zero;
  }
  Vec<K> r;
  r.l[0] = lo[0];
  for (size_t j = 1; j < K; j++) r.l[j] = _mm512_add_epi64(lo[j], hi[j]);
  return r;
}

// a * b / 2^(52K) mod p, below a*b / 2^(52K) + p.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> mul(const Vec<K>& a, const Vec<K>& b, const Modulus52<K>& m) {
  Vec<K> r = mul_lazy(a, b, m);
  normalize<K>(r.l);
  return r;
}

// a^2: the product itself. A dedicated squaring (cross products once,
// doubled, then a separate reduction: 208 multiply-adds instead of 264 for
// K = 8) measured 15-25% slower: its reduction is one long dependency chain,
// while mul interleaves reduction and products.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> sqr(const Vec<K>& a, const Modulus52<K>& m) {
  return mul(a, a, m);
}

// a / 2^s mod p (1 <= s <= 51) for a normalised a < 2^(52K - s - 1): one
// Montgomery step of s bits, (a + k p) / 2^s with k = -a p^-1 mod 2^s, below
// a / 2^s + p. Sixteen multiply-adds instead of a product's 273 where a
// value only moves between radices 2^(52K) and 2^(52K) / 2^s (the MSM's
// conversion of y into its domain). p's top limb times 2^s must stay below
// 2^52 (for Fp: 17 + s bits), so that k p still fits K limbs.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> div_pow2(const Vec<K>& a, unsigned s, const Modulus52<K>& mod) {
  const Modulus52<K>& m = opaque(mod);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i k =
      _mm512_and_si512(_mm512_madd52lo_epu64(zero, a.l[0], bcast(m.k0)), bcast((uint64_t(1) << s) - 1));
  __m512i t[K];
  for (size_t j = 0; j < K; j++) t[j] = _mm512_madd52lo_epu64(a.l[j], k, bcast(m.p[j]));
  for (size_t j = 0; j + 1 < K; j++) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], k, bcast(m.p[j]));
  normalize<K>(t);  // t is a multiple of 2^s now
  Vec<K> r;
  for (size_t j = 0; j + 1 < K; j++)
    r.l[j] = _mm512_or_si512(_mm512_srli_epi64(t[j], s),
                             _mm512_and_si512(_mm512_slli_epi64(t[j + 1], 52 - s), bcast(MASK52)));
  r.l[K - 1] = _mm512_srli_epi64(t[K - 1], s);
  return r;
}

// Products without reduction, for sums and differences of products that
// share one Montgomery reduction (the Fp2 multiplication: 3 products, 2
// reductions). A Wide<K> is a value of 2K limbs in radix 2^52, not
// normalised: each limb of a product is below 2K * 2^52 = 2^(53 + log2 K).
template <size_t K>
struct Wide {
  __m512i l[2 * K];
};

// a * b (normalised inputs).
template <size_t K>
CUZK_IFMA_INLINE Wide<K> mul_wide(const Vec<K>& a, const Vec<K>& b) {
  Wide<K> t;
  for (size_t j = 0; j < 2 * K; j++) t.l[j] = _mm512_setzero_si512();
#pragma GCC unroll 16
  for (size_t i = 0; i < K; i++)
#pragma GCC unroll 16
    for (size_t j = 0; j < K; j++) {
      t.l[i + j] = _mm512_madd52lo_epu64(t.l[i + j], a.l[i], b.l[j]);
      t.l[i + j + 1] = _mm512_madd52hi_epu64(t.l[i + j + 1], a.l[i], b.l[j]);
    }
  return t;
}
template <size_t K>
CUZK_IFMA_INLINE Wide<K> add_wide(const Wide<K>& a, const Wide<K>& b) {
  Wide<K> r;
  for (size_t j = 0; j < 2 * K; j++) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
  return r;
}
// a + C - b for C = WideOffset::c, a multiple of p above any b used here,
// in a redundant form whose limbs all exceed b's (no limb goes negative).
template <size_t K>
CUZK_IFMA_INLINE Wide<K> sub_wide(const Wide<K>& a, const Wide<K>& b, const std::array<uint64_t, 2 * K>& c) {
  const std::array<uint64_t, 2 * K>& cc = opaque(c);
  Wide<K> r;
  for (size_t j = 0; j < 2 * K; j++)
    r.l[j] = _mm512_sub_epi64(_mm512_add_epi64(a.l[j], bcast(cc[j])), b.l[j]);
  return r;
}

// p * 2^(52K) in 2K limbs, redundant: every limb below the top one raised by
// 2^58 (borrowed from the next), so it exceeds the limbs of a sum of two
// products (< 2^57 for K = 8). As a value it exceeds a product of two inputs
// below sqrt(p * 2^(52K)) (for Fp: about 2^398, i.e. 2^17 p).
template <size_t K>
constexpr std::array<uint64_t, 2 * K> wide_offset(const Modulus52<K>& m) {
  std::array<uint64_t, 2 * K> c{};
  for (size_t j = 0; j < K; j++) c[K + j] = m.p[j];
  c[0] += uint64_t(1) << 58;
  for (size_t j = 1; j + 1 < 2 * K; j++) c[j] += (uint64_t(1) << 58) - (uint64_t(1) << 6);
  c[2 * K - 1] -= uint64_t(1) << 6;
  return c;
}

// t / 2^(52K) mod p for a non-negative wide value with limbs below 2^60:
// below t / 2^(52K) + p, limbs not normalised (as mul_lazy).
template <size_t K>
CUZK_IFMA_INLINE Vec<K> reduce_lazy(Wide<K> t, const Modulus52<K>& mod) {
  const Modulus52<K>& m = opaque(mod);
  const __m512i k0 = bcast(m.k0);
#pragma GCC unroll 16
  for (size_t i = 0; i < K; i++) {
    // q from the low 52 bits of t[i] (the multiply-add reads no more).
    const __m512i q = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t.l[i], k0);
    for (size_t j = 0; j < K; j++) t.l[i + j] = _mm512_madd52lo_epu64(t.l[i + j], q, bcast(m.p[j]));
    for (size_t j = 0; j < K; j++) t.l[i + j + 1] = _mm512_madd52hi_epu64(t.l[i + j + 1], q, bcast(m.p[j]));
    t.l[i + 1] = _mm512_add_epi64(t.l[i + 1], _mm512_srli_epi64(t.l[i], 52));
  }
  Vec<K> r;
  for (size_t j = 0; j < K; j++) r.l[j] = t.l[K + j];
  return r;
}

template <size_t K>
CUZK_IFMA_INLINE Vec<K> add_lazy(const Vec<K>& a, const Vec<K>& b) {
  Vec<K> r;
  for (size_t j = 0; j < K; j++) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
  return r;
}
template <size_t K>
CUZK_IFMA_INLINE Vec<K> add(const Vec<K>& a, const Vec<K>& b) {
  Vec<K> r = add_lazy(a, b);
  normalize<K>(r.l);
  return r;
}

// a + C - b, with C = red (a redundant multiple of p larger than b).
template <size_t K>
CUZK_IFMA_INLINE Vec<K> sub_lazy(const Vec<K>& a, const Vec<K>& b, const std::array<uint64_t, K>& c) {
  const std::array<uint64_t, K>& red = opaque(c);
  Vec<K> r;
  for (size_t j = 0; j < K; j++) r.l[j] = _mm512_sub_epi64(_mm512_add_epi64(a.l[j], bcast(red[j])), b.l[j]);
  return r;
}
template <size_t K>
CUZK_IFMA_INLINE Vec<K> sub(const Vec<K>& a, const Vec<K>& b, const std::array<uint64_t, K>& red) {
  Vec<K> r = sub_lazy(a, b, red);
  normalize<K>(r.l);
  return r;
}

// Lanes of `mask` take b, the others a.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> select(__mmask8 mask, const Vec<K>& a, const Vec<K>& b) {
  Vec<K> r;
  for (size_t j = 0; j < K; j++) r.l[j] = _mm512_mask_blend_epi64(mask, a.l[j], b.l[j]);
  return r;
}

// v - c*p where that is >= 0 (per lane), else v; v normalised.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> sub_if_ge(const Vec<K>& v, const std::array<uint64_t, K>& c) {
  const std::array<uint64_t, K>& cp = opaque(c);
  __m512i d[K];
  for (size_t j = 0; j < K; j++) d[j] = _mm512_sub_epi64(v.l[j], bcast(cp[j]));
  normalize<K>(d);  // arithmetic shifts: borrows propagate as -1 carries
  const __mmask8 ok = _mm512_cmpge_epi64_mask(d[K - 1], _mm512_setzero_si512());
  Vec<K> r;
  for (size_t j = 0; j < K; j++) r.l[j] = _mm512_mask_blend_epi64(ok, v.l[j], d[j]);
  return r;
}

// [0, 2^bound_log2 * p) -> [0, p), v normalised.
//
// For bounds up to 8p, q = floor(v / p) comes from the top limb T alone:
// with k*p = C_k * 2^(52(K-1)) + (less), T > C_k implies v > k*p and T < C_k
// implies v < k*p, so q counts the k with T > C_k, and one subtraction of
// q*p (a per-lane table lookup) finishes; only T == C_k (for Fp, C_1 is a
// 17-bit number: a few lanes in a million) takes the conditional
// subtractions below. About 50 vector operations instead of 76 for 4p, 65
// instead of 114 for 8p.
template <size_t K>
CUZK_IFMA_INLINE Vec<K> canonical(Vec<K> v, const Modulus52<K>& m, int bound_log2 = 4) {
  if (bound_log2 == 2 || bound_log2 == 3) {
    const Modulus52<K>& mm = opaque(m);
    const __m512i top = v.l[K - 1];
    __m512i q = _mm512_setzero_si512();
    __mmask8 tie = 0;
    for (uint64_t k = 1; k < (uint64_t(1) << bound_log2); k++) {
      const __m512i c = bcast(mm.mult[K - 1][k]);
      q = _mm512_mask_add_epi64(q, _mm512_cmpgt_epu64_mask(top, c), q, bcast(1));
      tie |= _mm512_cmpeq_epi64_mask(top, c);
    }
    if (!tie) [[likely]] {
      Vec<K> r;
      for (size_t j = 0; j < K; j++)
        r.l[j] = _mm512_sub_epi64(v.l[j], _mm512_permutexvar_epi64(q, _mm512_load_si512(mm.mult[j].data())));
      normalize<K>(r.l);
      return r;
    }
  }
  if (bound_log2 >= 4) v = sub_if_ge(v, m.p8);
  if (bound_log2 >= 3) v = sub_if_ge(v, m.p4);
  if (bound_log2 >= 2) v = sub_if_ge(v, m.p2);
  return sub_if_ge(v, m.p);
}

}  // namespace cuzk::arith::ifma
