#pragma once
// Hot-loop field helpers for the MSM's affine additions.
//
// Multiplication is the field layer's Montgomery kernel (arith::mont_mul),
// called directly so that it inlines into the hot loops. The
// modular addition and subtraction are re-expressed here with the carry
// intrinsics and forced inline: the generic Field operators reach the
// portable kernels through out-of-line calls, and a batch-affine addition
// does about as many additions/subtractions as multiplications, so at ~20%
// of the MSM time they were worth a local, always-inlined version. Same
// contract as arith::portable::add_mod/sub_mod (inputs and outputs < p).
// Fp2 products use the same Karatsuba/complex formulas as ff::QuadExt, over
// these helpers.
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ff/bls12_381.hpp"

namespace cuzk::msm::detail::fops {

using ff::Fp;
using ff::Fp2;

#define CUZK_MSM_INLINE [[gnu::always_inline]] inline
#define CUZK_MSM_LAMBDA_INLINE __attribute__((always_inline))

#if defined(__x86_64__)
template <size_t N>
CUZK_MSM_INLINE void sub_n(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  unsigned long long t[N];
  unsigned char br = 0;
  for (size_t i = 0; i < N; i++) br = _subborrow_u64(br, a[i], b[i], &t[i]);
  const uint64_t mask = 0 - uint64_t(br);
  unsigned char c = 0;
  for (size_t i = 0; i < N; i++) {
    unsigned long long o;
    c = _addcarry_u64(c, t[i], p[i] & mask, &o);
    r[i] = o;
  }
}
template <size_t N>
CUZK_MSM_INLINE void add_n(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  unsigned long long t[N], s[N];
  unsigned char c = 0;
  for (size_t i = 0; i < N; i++) c = _addcarry_u64(c, a[i], b[i], &t[i]);  // no carry out: p < 2^(64N-1)
  unsigned char br = 0;
  for (size_t i = 0; i < N; i++) br = _subborrow_u64(br, t[i], p[i], &s[i]);
  for (size_t i = 0; i < N; i++) r[i] = br ? t[i] : s[i];
}
#else
template <size_t N>
CUZK_MSM_INLINE void sub_n(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  arith::portable::sub_mod<N>(r, a, b, p);
}
template <size_t N>
CUZK_MSM_INLINE void add_n(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  arith::portable::add_mod<N>(r, a, b, p);
}
#endif

CUZK_MSM_INLINE Fp sub(const Fp& a, const Fp& b) {
  Fp r;
  sub_n<6>(r.v.data(), a.v.data(), b.v.data(), Fp::MODULUS.data());
  return r;
}
CUZK_MSM_INLINE Fp add(const Fp& a, const Fp& b) {
  Fp r;
  add_n<6>(r.v.data(), a.v.data(), b.v.data(), Fp::MODULUS.data());
  return r;
}
CUZK_MSM_INLINE Fp mul(const Fp& a, const Fp& b) {
  Fp r;
  arith::mont_mul<6>(r.v.data(), a.v.data(), b.v.data(), Fp::MODULUS.data(), Fp::INV);
  return r;
}
CUZK_MSM_INLINE Fp sqr(const Fp& a) {
  Fp r;
  arith::mont_sqr<6>(r.v.data(), a.v.data(), Fp::MODULUS.data(), Fp::INV);
  return r;
}

CUZK_MSM_INLINE Fp2 sub(const Fp2& a, const Fp2& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
CUZK_MSM_INLINE Fp2 add(const Fp2& a, const Fp2& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
// Fp2 products out of line: inlining every Fp2 product (3 inlined MULX
// kernels each) made the G2 kernel ~100 KB, far beyond the instruction cache.
[[gnu::noinline]] inline Fp2 mul(const Fp2& a, const Fp2& b) {
  Fp v0 = mul(a.c0, b.c0), v1 = mul(a.c1, b.c1);
  return {sub(v0, v1), sub(sub(mul(add(a.c0, a.c1), add(b.c0, b.c1)), v0), v1)};
}
[[gnu::noinline]] inline Fp2 sqr(const Fp2& a) {
  Fp t = mul(a.c0, a.c1);
  return {mul(add(a.c0, a.c1), sub(a.c0, a.c1)), add(t, t)};
}

template <class F>
CUZK_MSM_INLINE F dbl(const F& a) {
  return add(a, a);
}
template <class F>
CUZK_MSM_INLINE F neg(const F& a) {
  return sub(F::zero(), a);
}

}  // namespace cuzk::msm::detail::fops
