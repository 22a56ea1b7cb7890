#pragma once
// Radix-2 butterflies over Fr (internal to the NTT).
//
// Multiplication is Fr's operator* (the dispatched Montgomery kernel). The
// addition and subtraction are fused: a butterfly needs u+t and u-t of the
// same operands, so both are computed from one set of loads, branch-free
// (carry chains plus masks), which lets the out-of-order core overlap
// consecutive butterflies.
#include <cstdint>

#include "ff/bls12_381.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cuzk::ntt::detail {

using ff::Fr;

#if defined(__x86_64__)
using u64x = unsigned long long;
// s = a + b mod p, d = a - b mod p (a, b < p).
inline void add_sub(Fr& s, Fr& d, const Fr& a, const Fr& b) {
  constexpr auto P = Fr::MODULUS;
  const u64x a0 = a.v[0], a1 = a.v[1], a2 = a.v[2], a3 = a.v[3];
  const u64x b0 = b.v[0], b1 = b.v[1], b2 = b.v[2], b3 = b.v[3];
  // Sum: no carry out since p < 2^255; then subtract p and keep the
  // non-negative result.
  u64x s0, s1, s2, s3, t0, t1, t2, t3;
  unsigned char c = _addcarry_u64(0, a0, b0, &s0);
  c = _addcarry_u64(c, a1, b1, &s1);
  c = _addcarry_u64(c, a2, b2, &s2);
  _addcarry_u64(c, a3, b3, &s3);
  c = _subborrow_u64(0, s0, P[0], &t0);
  c = _subborrow_u64(c, s1, P[1], &t1);
  c = _subborrow_u64(c, s2, P[2], &t2);
  c = _subborrow_u64(c, s3, P[3], &t3);
  const u64x keep = u64x(0) - c;  // all ones when s < p
  // Difference: add p back when it borrowed.
  u64x d0, d1, d2, d3;
  c = _subborrow_u64(0, a0, b0, &d0);
  c = _subborrow_u64(c, a1, b1, &d1);
  c = _subborrow_u64(c, a2, b2, &d2);
  c = _subborrow_u64(c, a3, b3, &d3);
  const u64x m = u64x(0) - c;
  c = _addcarry_u64(0, d0, P[0] & m, &d0);
  c = _addcarry_u64(c, d1, P[1] & m, &d1);
  c = _addcarry_u64(c, d2, P[2] & m, &d2);
  _addcarry_u64(c, d3, P[3] & m, &d3);
  s.v[0] = (s0 & keep) | (t0 & ~keep);
  s.v[1] = (s1 & keep) | (t1 & ~keep);
  s.v[2] = (s2 & keep) | (t2 & ~keep);
  s.v[3] = (s3 & keep) | (t3 & ~keep);
  d.v[0] = d0;
  d.v[1] = d1;
  d.v[2] = d2;
  d.v[3] = d3;
}
#else
inline void add_sub(Fr& s, Fr& d, const Fr& a, const Fr& b) {
  Fr x = a + b, y = a - b;
  s = x;
  d = y;
}
#endif

// Cooley-Tukey: (u, v) <- (u + z*v, u - z*v).
inline void ct(Fr& u, Fr& v, const Fr& z) {
  const Fr t = v * z;
  add_sub(u, v, Fr(u), t);
}
// Cooley-Tukey with z = 1.
inline void ct1(Fr& u, Fr& v) { add_sub(u, v, Fr(u), Fr(v)); }

// Gentleman-Sande: (u, v) <- (u + v, (u - v)*z).
inline void gs(Fr& u, Fr& v, const Fr& z) {
  Fr d;
  add_sub(u, d, Fr(u), Fr(v));
  v = d * z;
}
inline void gs1(Fr& u, Fr& v) { add_sub(u, v, Fr(u), Fr(v)); }

}  // namespace cuzk::ntt::detail
