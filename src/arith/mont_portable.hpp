#pragma once
// Portable Montgomery kernels over N 64-bit limbs (unsigned __int128).
// These are the reference twin of the x86-64 assembly kernels and the path
// taken on CPUs without BMI2/ADX.
#include "arith/limbs.hpp"

namespace cuzk::arith::portable {

// r = a*b*R^{-1} mod p, with R = 2^(64N). Requires p[N-1] < 2^63 - 1 so the
// "no-carry" CIOS variant applies (gnark-crypto's observation; true for both
// BLS12-381 moduli): the running sum then never needs an (N+1)-th limb.
template <size_t N>
inline void mont_mul(uint64_t* __restrict r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                     uint64_t inv) {
  uint64_t t[N] = {};
  for (size_t i = 0; i < N; i++) {
    uint64_t A = 0, C = 0;
    t[0] = mac(t[0], a[0], b[i], A);
    uint64_t m = t[0] * inv;
    mac(t[0], m, p[0], C);
    for (size_t j = 1; j < N; j++) {
      t[j] = mac(t[j], a[j], b[i], A);
      t[j - 1] = mac(t[j], m, p[j], C);
    }
    t[N - 1] = C + A;
  }
  // Result < 2p: one conditional subtraction.
  uint64_t s[N], br = 0;
  for (size_t i = 0; i < N; i++) s[i] = sbb(t[i], p[i], br);
  for (size_t i = 0; i < N; i++) r[i] = br ? t[i] : s[i];
}

// r = a + b mod p (inputs < p, p < 2^(64N-1) so the sum fits in N limbs).
template <size_t N>
inline void add_mod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  uint64_t t[N], s[N], c = 0, br = 0;
  for (size_t i = 0; i < N; i++) t[i] = adc(a[i], b[i], c);
  for (size_t i = 0; i < N; i++) s[i] = sbb(t[i], p[i], br);
  for (size_t i = 0; i < N; i++) r[i] = br ? t[i] : s[i];
}

// r = a - b mod p
template <size_t N>
inline void sub_mod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  uint64_t t[N], br = 0, c = 0;
  for (size_t i = 0; i < N; i++) t[i] = sbb(a[i], b[i], br);
  const uint64_t mask = 0 - br;
  for (size_t i = 0; i < N; i++) r[i] = adc(t[i], p[i] & mask, c);
}

}  // namespace cuzk::arith::portable
