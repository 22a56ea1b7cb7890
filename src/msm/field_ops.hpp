#pragma once
// Hot-loop field helpers for the MSM's point additions.
//
// The field layer's kernels (arith::mont_mul/mont_sqr/add_mod/sub_mod, the
// MULX/ADX assembly where available) called directly and forced inline, so
// that they inline into the batch-affine kernel whatever the compiler thinks
// of the Field operators' size. Fp2 products (Karatsuba / complex squaring,
// the formulas of ff::QuadExt) are kept out of line instead: with three
// inlined Fp kernels each, inlining them made the G2 kernel ~100 KB, far
// beyond the instruction cache (measured ~20% slower).
#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::msm::detail::fops {

using ff::Fp;
using ff::Fp2;

#define CUZK_MSM_INLINE [[gnu::always_inline]] inline
#define CUZK_MSM_LAMBDA_INLINE __attribute__((always_inline))

CUZK_MSM_INLINE Fp sub(const Fp& a, const Fp& b) {
  Fp r;
  arith::sub_mod<6>(r.v.data(), a.v.data(), b.v.data(), Fp::MODULUS.data());
  return r;
}
CUZK_MSM_INLINE Fp add(const Fp& a, const Fp& b) {
  Fp r;
  arith::add_mod<6>(r.v.data(), a.v.data(), b.v.data(), Fp::MODULUS.data());
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
