#pragma once
// Montgomery arithmetic for the BLS12-381 fields on 32-bit limbs, for CUDA
// device code. Also plain C++ (CUZK_HD is empty outside nvcc), so the same
// code runs on the host: the unit tests check it against ff::Fr / ff::Fp on
// machines without a GPU.
//
// Layout: Fr is 8 little-endian u32 limbs, Fp 12, in Montgomery form with
// R = 2^256 (Fr) / 2^384 (Fp), exactly the R of ff::Field's 4/6 u64 limbs. On
// a little-endian machine the bytes of an ff::Fr are therefore the bytes of a
// DevFr: host arrays of ff::Fr are copied to the device as they are. Values
// are kept fully reduced (< p), as ff::Field keeps them, so equal elements
// have equal bits.
//
// Multiplication is CIOS (Koc, Acar, Kaliski 1996) with 32x32->64 products in
// plain C++; nvcc lowers them to IMAD.WIDE. Hand-written madc PTX chains (as
// sppark does) are a later optimisation, once there is a GPU to measure on.
#include <cstddef>
#include <cstdint>

#include "cuda/namespace.hpp"

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#else
#define CUZK_HD inline
#endif

CUZK_CUDA_NAMESPACE_BEGIN

// -p^{-1} mod 2^32 by Newton iteration (each step doubles the correct bits).
constexpr uint32_t neg_inv32(uint32_t p0) {
  uint32_t x = 1;
  for (int i = 0; i < 5; i++) x *= 2 - p0 * x;
  return 0u - x;
}

// The moduli are the hex literals of ff/bls12_381.hpp split into u32 limbs;
// src/cuda/params_check.cpp static_asserts them (and R, R^2, INV) against
// ff::Fr / ff::Fp. The limbs are returned from a function, not held in a
// namespace-scope array, because device code may not read host constexpr
// arrays; after unrolling every index is a constant and the loads fold away.
struct FrParams {
  static constexpr int N = 8;
  CUZK_HD static constexpr uint32_t p(int i) {
    constexpr uint32_t t[N] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                               0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
    return t[i];
  }
  // R mod p (Montgomery one) and R^2 mod p.
  CUZK_HD static constexpr uint32_t r1(int i) {
    constexpr uint32_t t[N] = {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau,
                               0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u};
    return t[i];
  }
  CUZK_HD static constexpr uint32_t r2(int i) {
    constexpr uint32_t t[N] = {0xf3f29c6du, 0xc999e990u, 0x87925c23u, 0x2b6cedcbu,
                               0x7254398fu, 0x05d31496u, 0x9f59ff11u, 0x0748d9d9u};
    return t[i];
  }
  static constexpr uint32_t inv = neg_inv32(0x00000001u);
};

struct FpParams {
  static constexpr int N = 12;
  CUZK_HD static constexpr uint32_t p(int i) {
    constexpr uint32_t t[N] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,
                               0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
    return t[i];
  }
  CUZK_HD static constexpr uint32_t r1(int i) {
    constexpr uint32_t t[N] = {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u,
                               0x70525745u, 0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u};
    return t[i];
  }
  CUZK_HD static constexpr uint32_t r2(int i) {
    constexpr uint32_t t[N] = {0x1c341746u, 0xf4df1f34u, 0x09d104f1u, 0x0a76e6a6u, 0x4c95b6d5u, 0x8de5476cu,
                               0x939d83c0u, 0x67eb88a9u, 0xb519952du, 0x9a793e85u, 0x92cae3aau, 0x11988fe5u};
    return t[i];
  }
  static constexpr uint32_t inv = neg_inv32(0xffffaaabu);
};

template <class P>
struct DevField {
  static constexpr int N = P::N;
  uint32_t l[N];

  CUZK_HD static DevField zero() {
    DevField r;
    for (int i = 0; i < N; i++) r.l[i] = 0;
    return r;
  }
  CUZK_HD static DevField one() {
    DevField r;
    for (int i = 0; i < N; i++) r.l[i] = P::r1(i);
    return r;
  }
  CUZK_HD bool is_zero() const {
    uint32_t acc = 0;
    for (int i = 0; i < N; i++) acc |= l[i];
    return acc == 0;
  }
  CUZK_HD friend bool operator==(const DevField& a, const DevField& b) {
    uint32_t acc = 0;
    for (int i = 0; i < N; i++) acc |= a.l[i] ^ b.l[i];
    return acc == 0;
  }

  // r = t - p if t >= p, else t (t < 2p). Branch-free: warps do not diverge.
  CUZK_HD static void reduce_once(uint32_t* r, const uint32_t* t, uint32_t t_hi) {
    uint32_t d[N];
    uint64_t borrow = 0;
    for (int i = 0; i < N; i++) {
      const uint64_t s = uint64_t(t[i]) - P::p(i) - borrow;
      d[i] = uint32_t(s);
      borrow = (s >> 32) & 1;
    }
    // Keep t when the subtraction borrowed past the extra top word.
    const uint32_t keep_t = uint32_t(0) - uint32_t(borrow > t_hi);
    for (int i = 0; i < N; i++) r[i] = (t[i] & keep_t) | (d[i] & ~keep_t);
  }

  CUZK_HD friend DevField operator+(const DevField& a, const DevField& b) {
    uint32_t t[N];
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
      c += uint64_t(a.l[i]) + b.l[i];
      t[i] = uint32_t(c);
      c >>= 32;
    }
    DevField r;
    reduce_once(r.l, t, uint32_t(c));
    return r;
  }

  CUZK_HD friend DevField operator-(const DevField& a, const DevField& b) {
    DevField r;
    uint64_t borrow = 0;
    for (int i = 0; i < N; i++) {
      const uint64_t s = uint64_t(a.l[i]) - b.l[i] - borrow;
      r.l[i] = uint32_t(s);
      borrow = (s >> 32) & 1;
    }
    // a < b: add p back (mask instead of a branch).
    const uint32_t mask = uint32_t(0) - uint32_t(borrow);
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
      c += uint64_t(r.l[i]) + (P::p(i) & mask);
      r.l[i] = uint32_t(c);
      c >>= 32;
    }
    return r;
  }

  CUZK_HD DevField operator-() const { return zero() - *this; }

  // a*b/R mod p. On the device the 12-limb product is one out-of-line
  // function: inlined, its ~1,000 instructions at every product of the point
  // formulas made the MSM's bucket-sum kernel 843 KB of machine code, and on
  // an H200 its warps spent two thirds of their cycles waiting for
  // instructions to be fetched (Nsight Compute). 8-limb products (the NTT's
  // one per butterfly) stay inline.
  CUZK_HD friend DevField operator*(const DevField& a, const DevField& b) {
#if defined(__CUDA_ARCH__)
    if constexpr (N > 8) return mul_out_of_line(a, b);
#endif
    return mul_inline(a, b);
  }

#if defined(__CUDACC__)
  __device__ __noinline__ static DevField mul_out_of_line(DevField a, DevField b) { return mul_inline(a, b); }
#endif

  // CIOS Montgomery product a*b/R mod p. t has N+2 words; every partial sum
  // fits a u64 ((2^32-1)^2 + 2*(2^32-1) = 2^64-1).
  CUZK_HD static DevField mul_inline(const DevField& a, const DevField& b) {
    uint32_t t[N + 2];
    for (int i = 0; i < N + 2; i++) t[i] = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < N; i++) {
      uint64_t c = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int j = 0; j < N; j++) {
        c += uint64_t(t[j]) + uint64_t(a.l[j]) * b.l[i];
        t[j] = uint32_t(c);
        c >>= 32;
      }
      c += t[N];
      t[N] = uint32_t(c);
      t[N + 1] = uint32_t(c >> 32);

      const uint32_t m = t[0] * P::inv;
      c = uint64_t(t[0]) + uint64_t(m) * P::p(0);
      c >>= 32;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int j = 1; j < N; j++) {
        c += uint64_t(t[j]) + uint64_t(m) * P::p(j);
        t[j - 1] = uint32_t(c);
        c >>= 32;
      }
      c += t[N];
      t[N - 1] = uint32_t(c);
      t[N] = t[N + 1] + uint32_t(c >> 32);
    }
    DevField r;
    reduce_once(r.l, t, t[N]);
    return r;
  }

  CUZK_HD DevField sqr() const { return *this * *this; }
};

using DevFr = DevField<FrParams>;
using DevFp = DevField<FpParams>;
static_assert(sizeof(DevFr) == 32 && sizeof(DevFp) == 48);

CUZK_CUDA_NAMESPACE_END
