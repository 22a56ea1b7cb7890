#pragma once
// BLS12-381 base-field elements eight at a time on AVX-512 IFMA: the lane
// layer shared by the MSM kernels (msm/ifma_kernels.cpp) and the batch curve
// checks (ec/curve_check.cpp). Fp lanes are V8 (arith/ifma52.hpp, K = 8
// limbs of 52 bits), Fp2 lanes are V2; both in the kernels' Montgomery
// domain (radix 2^416, the scalar layer's is 2^384: a product with TO moves
// a value across; the MSM moves its points its own way, through an
// isomorphic curve, msm/ifma_kernels.cpp). Points in memory keep the
// scalar layout (six 64-bit limbs per Fp, x then y); gather/scatter
// transpose eight of them to and from limb-sliced form.
//
// Only for translation units whose functions carry CUZK_IFMA_TARGET; their
// callers check platform::use_ifma() first.
#if defined(__x86_64__)
#include "arith/ifma52.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::ec::ifma_fp {

using namespace arith::ifma;
inline constexpr size_t K = 8;
using V8 = Vec<K>;

inline constexpr Modulus52<K> MOD = Modulus52<K>::make(ff::Fp::MODULUS);
// mont'(X, TO) = X * 2^32 (into the 2^416 domain).
inline constexpr auto TO = to_radix52<K>(arith::pow2_mod<6>(448, ff::Fp::MODULUS));
inline constexpr auto ONE = to_radix52<K>(arith::pow2_mod<6>(416, ff::Fp::MODULUS));

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
// Canonical v to p[lane] + off for the lanes of `live`, and to also[lane] +
// off as well for the lanes of `also_live`.
CUZK_IFMA_INLINE void scatter(const V8& v, uint64_t* const* p, size_t off, __mmask8 live,
                              uint64_t* const* also = nullptr, __mmask8 also_live = 0) {
  __m512i r[8];
  to_limbs64<6, K>(v, r);
  r[6] = r[7] = _mm512_setzero_si512();
  transpose8(r);
  for (int i = 0; i < 8; i++) {
    if (live >> i & 1) _mm512_mask_storeu_epi64(p[i] + off, 0x3f, r[i]);
    if (also_live >> i & 1) _mm512_mask_storeu_epi64(also[i] + off, 0x3f, r[i]);
  }
}

// Lanes of Fp2 = Fp[u]/(u^2 + 1) elements: two Fp vectors.
struct V2 {
  V8 c0, c1;
};

// The field operations the addition kernel needs, for Fp (V8) and Fp2 (V2).
// Bounds: every subtraction names a multiple of p above its subtrahend for
// the larger (Fp2) case (the bounds of each use: msm/ifma_kernels.cpp).
// The *_lazy forms leave limbs unnormalised: for operands of fadd/fsub only
// (arith/ifma52.hpp).
CUZK_IFMA_INLINE V8 fmul(const V8& a, const V8& b) { return mul(a, b, MOD); }
CUZK_IFMA_INLINE V8 fmul_lazy(const V8& a, const V8& b) { return mul_lazy(a, b, MOD); }
CUZK_IFMA_INLINE V8 fsqr(const V8& a) { return sqr(a, MOD); }
CUZK_IFMA_INLINE V8 fsqr_lazy(const V8& a) { return mul_lazy(a, a, MOD); }
CUZK_IFMA_INLINE V8 fadd(const V8& a, const V8& b) { return add(a, b); }
CUZK_IFMA_INLINE V8 fadd_lazy(const V8& a, const V8& b) { return add_lazy(a, b); }
CUZK_IFMA_INLINE V8 fsub(const V8& a, const V8& b, const std::array<uint64_t, K>& red) {
  return sub(a, b, red);
}
CUZK_IFMA_INLINE V8 fsub_lazy(const V8& a, const V8& b, const std::array<uint64_t, K>& red) {
  return sub_lazy(a, b, red);
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

inline constexpr auto WIDE = wide_offset(MOD);

// Karatsuba: (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u,
// the three products unreduced and combined before two reductions (instead
// of three). Inputs below 18p per component; outputs below 3p.
template <bool Lazy = false>
CUZK_IFMA_INLINE V2 fmul2(const V2& a, const V2& b) {
  const Wide<K> v0 = mul_wide(a.c0, b.c0), v1 = mul_wide(a.c1, b.c1);
  const Wide<K> m = mul_wide(add(a.c0, a.c1), add(b.c0, b.c1));
  V2 r{reduce_lazy(sub_wide(v0, v1, WIDE), MOD), reduce_lazy(sub_wide(m, add_wide(v0, v1), WIDE), MOD)};
  if constexpr (!Lazy) {
    normalize<K>(r.c0.l);
    normalize<K>(r.c1.l);
  }
  return r;
}
CUZK_IFMA_INLINE V2 fmul(const V2& a, const V2& b) { return fmul2<false>(a, b); }
CUZK_IFMA_INLINE V2 fmul_lazy(const V2& a, const V2& b) { return fmul2<true>(a, b); }
// (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, for a1 < 8p: c0 < 2p, c1 < 4p.
CUZK_IFMA_INLINE V2 fsqr(const V2& a) {
  const V8 t = mul_lazy(a.c0, a.c1, MOD);
  return {mul(add(a.c0, a.c1), sub(a.c0, a.c1, MOD.red8), MOD), add(t, t)};
}
CUZK_IFMA_INLINE V2 fsqr_lazy(const V2& a) {
  const V8 t = mul_lazy(a.c0, a.c1, MOD);
  return {mul_lazy(add(a.c0, a.c1), sub(a.c0, a.c1, MOD.red8), MOD), add_lazy(t, t)};
}
CUZK_IFMA_INLINE V2 fadd(const V2& a, const V2& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
CUZK_IFMA_INLINE V2 fadd_lazy(const V2& a, const V2& b) {
  return {add_lazy(a.c0, b.c0), add_lazy(a.c1, b.c1)};
}
CUZK_IFMA_INLINE V2 fsub(const V2& a, const V2& b, const std::array<uint64_t, K>& red) {
  return {sub(a.c0, b.c0, red), sub(a.c1, b.c1, red)};
}
CUZK_IFMA_INLINE V2 fsub_lazy(const V2& a, const V2& b, const std::array<uint64_t, K>& red) {
  return {sub_lazy(a.c0, b.c0, red), sub_lazy(a.c1, b.c1, red)};
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

}  // namespace cuzk::ec::ifma_fp

#endif
