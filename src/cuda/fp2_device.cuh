#pragma once
// Fp2 = Fp[u]/(u^2 + 1) for device code, over DevFp (cuda/fp_device.cuh).
// Layout and values are ff::Fp2's (c0 then c1, each a fully reduced
// Montgomery Fp), so host arrays of ff::Fp2 (and of G2 points) are copied
// to the device as they are.
#include "cuda/namespace.hpp"
#include "cuda/fp_device.cuh"

// Products are out of line on the device (each is three inlined Fp
// products; inlined into every point formula they made nvcc very slow).
#if defined(__CUDACC__)
#define CUZK_HD_FP2_OUTLINE __host__ __device__ __noinline__
#else
#define CUZK_HD_FP2_OUTLINE inline
#endif

CUZK_CUDA_NAMESPACE_BEGIN

struct DevFp2 {
  DevFp c0, c1;  // c0 + c1*u

  CUZK_HD static DevFp2 zero() { return {DevFp::zero(), DevFp::zero()}; }
  CUZK_HD static DevFp2 one() { return {DevFp::one(), DevFp::zero()}; }
  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD friend bool operator==(const DevFp2& a, const DevFp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }

  CUZK_HD friend DevFp2 operator+(const DevFp2& a, const DevFp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend DevFp2 operator-(const DevFp2& a, const DevFp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD DevFp2 operator-() const { return {-c0, -c1}; }

  // Karatsuba: 3 Fp products. (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u.
  CUZK_HD_FP2_OUTLINE friend DevFp2 operator*(const DevFp2& a, const DevFp2& b) {
    const DevFp v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 Fp products.
  CUZK_HD_FP2_OUTLINE DevFp2 sqr() const {
    const DevFp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t + t};
  }
};
static_assert(sizeof(DevFp2) == 2 * sizeof(DevFp));

CUZK_CUDA_NAMESPACE_END
