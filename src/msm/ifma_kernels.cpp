#include "msm/ifma_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <new>
#include <type_traits>

#include "ff/bls12_381.hpp"

#if defined(__x86_64__)
// GCC 12 flags the intrinsics' internal "undefined" operands in functions
// compiled for a target the translation unit does not default to.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "arith/ifma52.hpp"
#endif

namespace cuzk::msm::ifma {

#if defined(__x86_64__)

namespace {

using namespace arith::ifma;
constexpr size_t K = 8;
using V8 = Vec<K>;

constexpr Modulus52<K> MOD = Modulus52<K>::make(ff::Fp::MODULUS);
// mont'(X, TO) = X * 2^32 (into the 2^416 domain); mont'(X, FROM) = X / 2^32.
constexpr auto TO = to_radix52<K>(arith::pow2_mod<6>(448, ff::Fp::MODULUS));
constexpr auto FROM = to_radix52<K>(arith::pow2_mod<6>(384, ff::Fp::MODULUS));
constexpr auto ONE = to_radix52<K>(arith::pow2_mod<6>(416, ff::Fp::MODULUS));
// Scalar-domain constants for the inversion: X' -> X and X -> X'.
constexpr auto S_FROM = arith::pow2_mod<6>(352, ff::Fp::MODULUS);
constexpr auto S_TO = arith::pow2_mod<6>(416, ff::Fp::MODULUS);

CUZK_IFMA_INLINE V8 splat(const std::array<uint64_t, K>& c) {
  V8 r;
  for (size_t j = 0; j < K; j++) r.l[j] = bcast(c[j]);
  return r;
}

// 8x8 transpose of 64-bit elements (rows <-> columns).
CUZK_IFMA_INLINE void transpose8(__m512i* r) {
  __m512i t[8], u[8];
  for (int i = 0; i < 4; i++) {
    t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]);
  }
  const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  for (int h = 0; h < 2; h++) {
    // rows 4h..4h+3: t[4h] (even cols of rows 4h, 4h+1), t[4h+2] (rows 4h+2, 4h+3)
    u[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h], lo, t[4 * h + 2]);      // cols 0, 4
    u[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h + 1], lo, t[4 * h + 3]);  // cols 1, 5
    u[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h], hi, t[4 * h + 2]);      // cols 2, 6
    u[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], hi, t[4 * h + 3]);  // cols 3, 7
  }
  for (int c = 0; c < 4; c++) {
    r[c] = _mm512_shuffle_i64x2(u[c], u[4 + c], 0x44);
    r[c + 4] = _mm512_shuffle_i64x2(u[c], u[4 + c], 0xee);
  }
}

// Field element at p[lane] + off (6 limbs) for 8 lanes.
CUZK_IFMA_INLINE V8 gather(const uint64_t* const* p, size_t off) {
  __m512i r[8];
  for (int i = 0; i < 8; i++) r[i] = _mm512_maskz_loadu_epi64(0x3f, p[i] + off);
  transpose8(r);
  return from_limbs64<6, K>(r);
}
// Canonical v to p[lane] + off for the lanes of `live`.
CUZK_IFMA_INLINE void scatter(const V8& v, uint64_t* const* p, size_t off, __mmask8 live) {
  __m512i r[8];
  to_limbs64<6, K>(v, r);
  r[6] = r[7] = _mm512_setzero_si512();
  transpose8(r);
  for (int i = 0; i < 8; i++)
    if (live >> i & 1) _mm512_mask_storeu_epi64(p[i] + off, 0x3f, r[i]);
}

// Per-lane inverses of a (non-zero lanes, < 2p), through the scalar field:
// one Fermat inversion and a Montgomery trick over the 8 lanes.
CUZK_IFMA_TARGET V8 invert(const V8& a) {
  alignas(64) uint64_t rows[8][8];
  {
    __m512i r[8];
    to_limbs64<6, K>(canonical(a, MOD, 1), r);
    r[6] = r[7] = _mm512_setzero_si512();
    transpose8(r);
    for (int i = 0; i < 8; i++) _mm512_store_si512(rows[i], r[i]);
  }
  ff::Fp x[8], pre[8];
  ff::Fp from, to;
  from.v = S_FROM;
  to.v = S_TO;
  ff::Fp acc = ff::Fp::one();
  for (int i = 0; i < 8; i++) {
    std::copy(rows[i], rows[i] + 6, x[i].v.begin());
    x[i] = x[i] * from;  // 2^416 domain -> 2^384 domain
    pre[i] = acc;
    acc *= x[i];
  }
  ff::Fp inv = acc.inverse_vartime();
  for (int i = 8; i-- > 0;) {
    ff::Fp xi = inv * pre[i];
    inv *= x[i];
    xi = xi * to;  // back to the 2^416 domain
    std::copy(xi.v.begin(), xi.v.end(), rows[i]);
    rows[i][6] = rows[i][7] = 0;
  }
  __m512i r[8];
  for (int i = 0; i < 8; i++) r[i] = _mm512_load_si512(rows[i]);
  transpose8(r);
  return from_limbs64<6, K>(r);
}

// Lanes of Fp2 = Fp[u]/(u^2 + 1) elements: two Fp vectors.
struct V2 {
  V8 c0, c1;
};

// The field operations the addition kernel needs, for Fp (V8) and Fp2 (V2).
// Bounds: every subtraction names a multiple of p above its subtrahend for
// the larger (Fp2) case; see g1g2_add_batch.
CUZK_IFMA_INLINE V8 fmul(const V8& a, const V8& b) { return mul(a, b, MOD); }
CUZK_IFMA_INLINE V8 fsqr(const V8& a) { return sqr(a, MOD); }
CUZK_IFMA_INLINE V8 fadd(const V8& a, const V8& b) { return add(a, b); }
CUZK_IFMA_INLINE V8 fsub(const V8& a, const V8& b, const std::array<uint64_t, K>& red) {
  return sub(a, b, red);
}
CUZK_IFMA_INLINE V8 fsel(__mmask8 m, const V8& a, const V8& b) { return select(m, a, b); }
CUZK_IFMA_INLINE V8 fcanon(const V8& a, int log2_bound) { return canonical(a, MOD, log2_bound); }
CUZK_IFMA_INLINE void fload(V8& r, const uint64_t* const* p, size_t off) { r = gather(p, off); }
CUZK_IFMA_INLINE void fstore(const V8& v, uint64_t* const* p, size_t off, __mmask8 live) {
  scatter(v, p, off, live);
}
CUZK_IFMA_INLINE __mmask8 fequal(const V8& a, const V8& b) {
  __mmask8 m = 0xff;
  for (size_t j = 0; j < K; j++) m &= _mm512_cmpeq_epi64_mask(a.l[j], b.l[j]);
  return m;
}
CUZK_IFMA_INLINE V8 norm(const V8& d) { return d; }
CUZK_IFMA_INLINE V8 inv_from_norm(const V8&, const V8& inv_n) { return inv_n; }

// Karatsuba: (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u.
// Inputs below 18p per component; outputs: c0 < 4p, c1 < 6p.
CUZK_IFMA_INLINE V2 fmul(const V2& a, const V2& b) {
  const V8 v0 = mul(a.c0, b.c0, MOD), v1 = mul(a.c1, b.c1, MOD);
  const V8 m = mul(add(a.c0, a.c1), add(b.c0, b.c1), MOD);
  return {sub(v0, v1, MOD.red2), sub(m, add(v0, v1), MOD.red4)};
}
// (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, for a1 < 8p: c0 < 2p, c1 < 4p.
CUZK_IFMA_INLINE V2 fsqr(const V2& a) {
  const V8 t = mul(a.c0, a.c1, MOD);
  return {mul(add(a.c0, a.c1), sub(a.c0, a.c1, MOD.red8), MOD), add(t, t)};
}
CUZK_IFMA_INLINE V2 fadd(const V2& a, const V2& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
CUZK_IFMA_INLINE V2 fsub(const V2& a, const V2& b, const std::array<uint64_t, K>& red) {
  return {sub(a.c0, b.c0, red), sub(a.c1, b.c1, red)};
}
CUZK_IFMA_INLINE V2 fsel(__mmask8 m, const V2& a, const V2& b) {
  return {select(m, a.c0, b.c0), select(m, a.c1, b.c1)};
}
CUZK_IFMA_INLINE V2 fcanon(const V2& a, int log2_bound) {
  return {canonical(a.c0, MOD, log2_bound), canonical(a.c1, MOD, log2_bound)};
}
CUZK_IFMA_INLINE void fload(V2& r, const uint64_t* const* p, size_t off) {
  r.c0 = gather(p, off);
  r.c1 = gather(p, off + 6);
}
CUZK_IFMA_INLINE void fstore(const V2& v, uint64_t* const* p, size_t off, __mmask8 live) {
  scatter(v.c0, p, off, live);
  scatter(v.c1, p, off + 6, live);
}
CUZK_IFMA_INLINE __mmask8 fequal(const V2& a, const V2& b) { return fequal(a.c0, b.c0) & fequal(a.c1, b.c1); }
// Montgomery's trick runs over Fp: 1/d = conj(d) / N(d), N(d) = d0^2 + d1^2.
CUZK_IFMA_INLINE V8 norm(const V2& d) { return add(sqr(d.c0, MOD), sqr(d.c1, MOD)); }
CUZK_IFMA_INLINE V2 inv_from_norm(const V2& d, const V8& inv_n) {
  return {mul(d.c0, inv_n, MOD), sub(splat({}), mul(d.c1, inv_n, MOD), MOD.red2)};
}

// Per-thread scratch: the converted operands and prefix products of a batch.
// G2 keeps the Fp2 denominator (for conj(d) / N(d)) beside its norm; for G1
// the denominator is its own norm and is stored once.
template <class F>
struct Group {
  F xa, ya, xb, yb, den;
  V8 nrm, pre;
  const F& denominator() const { return den; }
};
template <>
struct Group<V8> {
  V8 xa, ya, xb, yb, nrm, pre;
  const V8& denominator() const { return nrm; }
};
template <class F>
struct Scratch {
  std::unique_ptr<Group<F>[]> g;
  size_t cap = 0;
  Group<F>* get(size_t groups) {
    if (groups > cap) {
      cap = std::max(groups, cap * 2);
      g.reset(new Group<F>[cap]);
    }
    return g.get();
  }
};

// The batch of affine additions for G1 (F = V8) or G2 (F = V2); points are
// x then y, each F::limbs. Component bounds (Fp2; Fp stays below them):
// inputs < p, negated y <= p, den < 2p, num < 3p (12p for doublings),
// lambda: c0 < 4p, c1 < 6p; lambda^2 < 4p; x3 < 6p; xa - x3 < 9p;
// y3 < 8p; both canonicalised before the store. For Fp every product is
// below 2p, so x3 and y3 stay below 4p.
template <class F>
CUZK_IFMA_TARGET size_t add_batch_impl(const JobList& jobs, size_t first, size_t n, uint32_t* special) {
  constexpr size_t YOFF = std::is_same_v<F, V8> ? 6 : 12;
  thread_local Scratch<F> scratch;
  const size_t groups = (n + 7) / 8;
  Group<F>* sg = scratch.get(groups);
  // Group g: jobs first + 8g .. first + 8g + 7 (the list is padded, so the
  // last group reads copies of the last job; `live` keeps them from stores).
  const uint64_t* const* pa = jobs.a_data() + first;
  const uint64_t* const* pb = jobs.b_data() + first;
  uint64_t* const* pout = jobs.out_data() + first;
  const uint8_t* pfl = jobs.flags_data() + first;
  const auto masks = [&](size_t g, __mmask8& nega, __mmask8& negb, __mmask8& dbl, __mmask8& live) {
    uint64_t f8;
    std::memcpy(&f8, pfl + 8 * g, 8);
    const __m128i f = _mm_cvtsi64_si128(int64_t(f8));
    nega = __mmask8(_mm_test_epi8_mask(f, _mm_set1_epi8(NEG_A)));
    negb = __mmask8(_mm_test_epi8_mask(f, _mm_set1_epi8(NEG_B)));
    dbl = __mmask8(_mm_test_epi8_mask(f, _mm_set1_epi8(DBL)));
    live = 8 * g + 8 <= n ? __mmask8(0xff) : __mmask8((1u << (n - 8 * g)) - 1);
  };
  const F zero{};
  const V8 one = splat(ONE);
  size_t nspecial = 0;
  V8 acc = one;
  for (size_t g = 0; g < groups; g++) {
    const uint64_t* const* a = pa + 8 * g;
    const uint64_t* const* b = pb + 8 * g;
    __mmask8 nega, negb, dbl, live;
    masks(g, nega, negb, dbl, live);
    if (g + 2 < groups)
      for (size_t l = 16; l < 24; l++)
        for (size_t off = 0; off < 2 * YOFF; off += 8) {
          __builtin_prefetch(a[l] + off);
          __builtin_prefetch(b[l] + off);
        }
    Group<F>& s = sg[g];
    fload(s.xa, a, 0);
    fload(s.xb, b, 0);
    F ya, yb;
    fload(ya, a, YOFF);
    fload(yb, b, YOFF);
    if (nega) ya = fsel(nega, ya, fsub(zero, ya, MOD.red1));
    if (negb) yb = fsel(negb, yb, fsub(zero, yb, MOD.red1));
    s.ya = ya;
    s.yb = yb;
    F den = fsub(s.xb, s.xa, MOD.red1);
    if (dbl) den = fsel(dbl, den, fadd(ya, ya));
    if constexpr (!std::is_same_v<F, V8>) s.den = den;
    s.nrm = norm(den);
    // Equal x without DBL (rare): left to the caller; a unit norm keeps the
    // lane's inversion chain intact and its result is not stored.
    const __mmask8 eq = fequal(s.xa, s.xb) & ~dbl;
    if (eq) [[unlikely]] {
      s.nrm = select(eq, s.nrm, one);  // also in the tail's copies of the last job
      for (size_t l = 0; l < 8; l++)
        if ((eq & live) >> l & 1) special[nspecial++] = uint32_t(g * 8 + l);
    }
    s.pre = acc;
    acc = mul(acc, s.nrm, MOD);
  }
  V8 inv = invert(acc);
  for (size_t g = groups; g-- > 0;) {
    uint64_t* const* out = pout + 8 * g;
    __mmask8 nega, negb, dbl, live;
    masks(g, nega, negb, dbl, live);
    const Group<F>& s = sg[g];
    if (nspecial) live &= ~(fequal(s.xa, s.xb) & ~dbl);
    const F inv_i = inv_from_norm(s.denominator(), mul(inv, s.pre, MOD));
    inv = mul(inv, s.nrm, MOD);
    F num = fsub(s.yb, s.ya, MOD.red2);
    if (dbl) {
      const F xx = fsqr(s.xa);
      num = fsel(dbl, num, fadd(fadd(xx, xx), xx));
    }
    const F lam = fmul(num, inv_i);
    const F x3 = fsub(fsqr(lam), fadd(s.xa, s.xb), MOD.red2);
    const F y3 = fsub(fmul(lam, fsub(s.xa, x3, MOD.red8)), s.ya, MOD.red2);
    // G1: x3, y3 < 4p (two conditional subtractions); G2: below 8p (three).
    constexpr int kLog2Bound = std::is_same_v<F, V8> ? 2 : 3;
    fstore(fcanon(x3, kLog2Bound), out, 0, live);
    fstore(fcanon(y3, kLog2Bound), out, YOFF, live);
  }
  return nspecial;
}

CUZK_IFMA_TARGET void convert_impl(uint64_t* elems, size_t n, bool into) {
  const V8 c = splat(into ? TO : FROM);
  for (size_t g = 0; g < n; g += 8) {
    uint64_t* p[8];
    __mmask8 live = 0;
    for (size_t l = 0; l < 8; l++) {
      p[l] = elems + std::min(g + l, n - 1) * 6;
      live |= __mmask8(g + l < n ? 1u << l : 0);
    }
    scatter(canonical(mul(gather(p, 0), c, MOD), MOD, 1), p, 0, live);
  }
}

}  // namespace

// The kernels read whole groups of eight jobs: the list must be padded.
static void check_batch(const JobList& jobs, size_t first, size_t n) {
  if (first % 8 || first + n > jobs.size() || !jobs.padded())
    throw std::logic_error("ifma add batch: first not a multiple of 8, range outside the list, or list not padded");
}

size_t g1_add_batch(const JobList& jobs, size_t first, size_t n, uint32_t* special) {
  if (!n) return 0;
  check_batch(jobs, first, n);
  return add_batch_impl<V8>(jobs, first, n, special);
}
size_t g2_add_batch(const JobList& jobs, size_t first, size_t n, uint32_t* special) {
  if (!n) return 0;
  check_batch(jobs, first, n);
  return add_batch_impl<V2>(jobs, first, n, special);
}
void fp_to_domain(uint64_t* elems, size_t n) {
  if (n) convert_impl(elems, n, true);
}
void fp_from_domain(uint64_t* elems, size_t n) {
  if (n) convert_impl(elems, n, false);
}

#else  // not x86-64: available() is false and these are never called

size_t g1_add_batch(const JobList&, size_t, size_t, uint32_t*) { return 0; }
size_t g2_add_batch(const JobList&, size_t, size_t, uint32_t*) { return 0; }
void fp_to_domain(uint64_t*, size_t) {}
void fp_from_domain(uint64_t*, size_t) {}

#endif

}  // namespace cuzk::msm::ifma
