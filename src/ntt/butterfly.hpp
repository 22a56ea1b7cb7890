#pragma once
// Radix-2 butterflies over Fr (internal to the NTT).
//
// Multiplication is Fr's operator* (the dispatched Montgomery kernel). The
// addition and subtraction are fused: a butterfly needs a+b and a-b of the
// same operands. On x86-64 they are two short inline-assembly blocks (ADD/ADC,
// SUB/SBB, CMOV; no ADX needed) working in registers: the same computation
// written with carry intrinsics made GCC keep the carries in stack slots.
#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::ntt::detail {

using ff::Fr;

#if defined(__x86_64__) && defined(__OPTIMIZE__)
// s = a + b mod p, d = a - b mod p for a, b < p (s, d may alias a, b). Two
// asm statements of 8 registers each plus the two operand addresses (the
// whole arrays are declared as memory inputs), so they fit beside whatever the
// surrounding code keeps live. Unoptimized builds (which give every operand
// its own address register) use Fr's operators instead.
inline void add_sub(Fr& s, Fr& d, const Fr& a, const Fr& b) {
  constexpr auto& P = Fr::MODULUS;
  uint64_t s0, s1, s2, s3, d0, d1, d2, d3, t0, t1, t2, t3, m;
  // Sum: no carry out since p < 2^255; keep s - p unless it borrows.
  asm("mov 0(%[a]), %[s0]\n\t"
      "add 0(%[b]), %[s0]\n\t"
      "mov 8(%[a]), %[s1]\n\t"
      "adc 8(%[b]), %[s1]\n\t"
      "mov 16(%[a]), %[s2]\n\t"
      "adc 16(%[b]), %[s2]\n\t"
      "mov 24(%[a]), %[s3]\n\t"
      "adc 24(%[b]), %[s3]\n\t"
      "mov %[s0], %[t0]\n\t"
      "sub %[p0], %[t0]\n\t"
      "mov %[s1], %[t1]\n\t"
      "sbb %[p1], %[t1]\n\t"
      "mov %[s2], %[t2]\n\t"
      "sbb %[p2], %[t2]\n\t"
      "mov %[s3], %[t3]\n\t"
      "sbb %[p3], %[t3]\n\t"
      "cmovnc %[t0], %[s0]\n\t"
      "cmovnc %[t1], %[s1]\n\t"
      "cmovnc %[t2], %[s2]\n\t"
      "cmovnc %[t3], %[s3]\n\t"
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [t2] "=&r"(t2), [t3] "=&r"(t3)
      : [a] "r"(a.v.data()), [b] "r"(b.v.data()), "m"(a.v),
        "m"(b.v), [p0] "m"(P[0]), [p1] "m"(P[1]), [p2] "m"(P[2]), [p3] "m"(P[3])
      : "cc");
  // Difference: add p back under the borrow mask (m ends as p3 & mask).
  asm("mov 0(%[a]), %[d0]\n\t"
      "sub 0(%[b]), %[d0]\n\t"
      "mov 8(%[a]), %[d1]\n\t"
      "sbb 8(%[b]), %[d1]\n\t"
      "mov 16(%[a]), %[d2]\n\t"
      "sbb 16(%[b]), %[d2]\n\t"
      "mov 24(%[a]), %[d3]\n\t"
      "sbb 24(%[b]), %[d3]\n\t"
      "sbb %[m], %[m]\n\t"
      "mov %[p0], %[t0]\n\t"
      "and %[m], %[t0]\n\t"
      "mov %[p1], %[t1]\n\t"
      "and %[m], %[t1]\n\t"
      "mov %[p2], %[t2]\n\t"
      "and %[m], %[t2]\n\t"
      "and %[p3], %[m]\n\t"
      "add %[t0], %[d0]\n\t"
      "adc %[t1], %[d1]\n\t"
      "adc %[t2], %[d2]\n\t"
      "adc %[m], %[d3]\n\t"
      : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [t2] "=&r"(t2), [m] "=&r"(m)
      : [a] "r"(a.v.data()), [b] "r"(b.v.data()), "m"(a.v),
        "m"(b.v), [p0] "m"(P[0]), [p1] "m"(P[1]), [p2] "m"(P[2]), [p3] "m"(P[3])
      : "cc");
  s.v[0] = s0, s.v[1] = s1, s.v[2] = s2, s.v[3] = s3;
  d.v[0] = d0, d.v[1] = d1, d.v[2] = d2, d.v[3] = d3;
}
#else
inline void add_sub(Fr& s, Fr& d, const Fr& a, const Fr& b) {
  const Fr x = a + b, y = a - b;  // copies first: s, d may alias a, b
  s = x;
  d = y;
}
#endif

// Cooley-Tukey: (u, v) <- (u + z*v, u - z*v).
inline void ct(Fr& u, Fr& v, const Fr& z) {
  const Fr t = v * z;
  add_sub(u, v, u, t);
}
// Cooley-Tukey with z = 1.
inline void ct1(Fr& u, Fr& v) { add_sub(u, v, u, v); }

// Gentleman-Sande: (u, v) <- (u + v, (u - v)*z).
inline void gs(Fr& u, Fr& v, const Fr& z) {
  Fr d;
  add_sub(u, d, u, v);
  v = d * z;
}
inline void gs1(Fr& u, Fr& v) { add_sub(u, v, u, v); }

}  // namespace cuzk::ntt::detail
