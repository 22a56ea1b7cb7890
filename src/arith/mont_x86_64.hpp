#pragma once
// x86-64 kernels for 4 limbs (BLS12-381 Fr) and 6 limbs (BLS12-381 Fp):
// Montgomery multiplication and squaring with MULX/ADCX/ADOX, modular
// addition and subtraction with plain ADC/SBB. Same contracts as the portable
// twins in arith/mont_portable.hpp: results fully reduced for inputs < p, and
// p[N-1] < 2^63 - 1. r may alias a or b (all reads precede the writes).
// Only call when the CPU has BMI2+ADX (mont.hpp checks
// platform::detail::g_use_adx); the assembler accepts these mnemonics
// whatever -march says.
//
// Multiplication (CIOS: a row t += a*b[i], then a row t = (t + m*p)/2^64,
// per i, fully unrolled):
//  * every limb of the running sum t lives in a register. t has N+1 limbs
//    during a step; the register that held t[0] (zero after the reduction
//    row) becomes the next step's top limb, so register names rotate instead
//    of data moving;
//  * MULX leaves the flags alone, so within a row the low halves go down the
//    CF chain (ADCX) and the high halves down the OF chain (ADOX) at once;
//  * the spare top bit of p keeps the top limb from overflowing, so a row
//    ends with one `adc $0` and t stays below 2p; a branch-free trial
//    subtraction (SUB/SBB, CMOV) finishes;
//  * operands sit in memory and are read by the instructions that need them:
//    limbs of p as RIP-relative operands once the constant modulus is
//    inlined, of a and b through one pointer each. At most 13 registers are
//    needed even when nothing is constant, so the kernels inline anywhere,
//    frame pointer, sanitizers or -O0 included; a few values that do not fit
//    go through stack slots.
#include <cstddef>
#include <cstdint>

// AddressSanitizer builds cannot give these kernels the registers they ask
// for; they define CUZK_NO_INLINE_ASM and use the portable kernels.
#if defined(__x86_64__) && !defined(CUZK_NO_INLINE_ASM)
#define CUZK_HAVE_MULX_ASM 1
#else
#define CUZK_HAVE_MULX_ASM 0
#endif

#if CUZK_HAVE_MULX_ASM

namespace cuzk::arith::x86 {

// The asm text below is laid out by hand (one instruction group per line,
// aligned continuations), so the formatter leaves this file alone.
// clang-format off

// GCC sizes inline asm by its line count and would otherwise keep these, and
// the Field operators around them, out of line (a call and spills per
// product): always_inline here, and `asm inline` so callers stay small.
#define CUZK_ASM_INLINE inline __attribute__((always_inline))

// ---- asm text helpers; names refer to the named operands below ----
#define CUZK_OP(x) "%[" #x "]"
#define CUZK_a(j) "8*" #j "(%[a])"
#if defined(__OPTIMIZE__)
// One memory operand per limb of p, and the arrays a and b declared as
// memory inputs, so the compiler knows exactly what the asm reads.
#define CUZK_p(j) "%[p" #j "]"
#define CUZK_P_IN4 [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
#define CUZK_P_IN6 CUZK_P_IN4, [p4] "m"(p[4]), [p5] "m"(p[5])
#define CUZK_A_IN(n) , "m"(*(const uint64_t(*)[n])a)
#define CUZK_AB_IN(n) CUZK_A_IN(n), "m"(*(const uint64_t(*)[n])b)
#define CUZK_CLOBBERS "cc"
#else
// -O0 gives every memory operand its own address register, which would run
// out of registers: pass p as a pointer and clobber memory instead.
#define CUZK_p(j) "8*" #j "(%[p])"
#define CUZK_P_IN4 [p] "r"(p)
#define CUZK_P_IN6 [p] "r"(p)
#define CUZK_A_IN(n)
#define CUZK_AB_IN(n)
#define CUZK_CLOBBERS "cc", "memory"
#endif

// lo:hi = rdx * src[j]; t[j] += lo on CF, t[j+1] += hi on OF.
#define CUZK_MAC(src, j, tj, tj1)            \
  "mulx " CUZK_##src(j) ", %[lo], %[hi]\n\t" \
  "adcx %[lo], " CUZK_OP(tj) "\n\t"          \
  "adox %[hi], " CUZK_OP(tj1) "\n\t"

// t = a * b[0] (t starts empty: a single carry chain). On the side,
// hi = m0 = a0 * (b0 * inv): when a is the late operand (a = a * b chains)
// this skips the MULX latency before the first reduction.
#define CUZK_FIRST_ROW_HEAD(x0, x1, x2)                    \
  "mov 0(%[b]), %%rdx\n\t"                                  \
  "mov %%rdx, %[hi]\n\t" "imul %[inv], %[hi]\n\t"          \
  "imul " CUZK_a(0) ", %[hi]\n\t"                          \
  "mulx " CUZK_a(0) ", " CUZK_OP(x0) ", " CUZK_OP(x1) "\n\t" \
  "mulx " CUZK_a(1) ", %[lo], " CUZK_OP(x2) "\n\t"          \
  "add %[lo], " CUZK_OP(x1) "\n\t"
#define CUZK_FIRST_ROW_STEP(j, xj, xj1)                \
  "mulx " CUZK_a(j) ", %[lo], " CUZK_OP(xj1) "\n\t"     \
  "adc %[lo], " CUZK_OP(xj) "\n\t"

// t (x0..x{N-1}, top limb xN zeroed here) += a * b[i]. The XOR also clears
// CF and OF for the two chains.
#define CUZK_MUL_ROW_HEAD(i, xN)        \
  "mov 8*" #i "(%[b]), %%rdx\n\t"       \
  "xor " CUZK_OP(xN) ", " CUZK_OP(xN) "\n\t"

// m = t[0] * inv (IMUL clobbers the flags, so the clearing XOR follows it);
// after the row x0 == 0.
#define CUZK_RED_ROW_HEAD(x0) \
  "mov " CUZK_OP(x0) ", %%rdx\n\t" "imul %[inv], %%rdx\n\t" "xor %[lo], %[lo]\n\t"
// The same for the first row, whose m was computed alongside it.
#define CUZK_FIRST_RED_ROW_HEAD "mov %[hi], %%rdx\n\t" "xor %[lo], %[lo]\n\t"

#define CUZK_ROW_END(xN) "adc $0, " CUZK_OP(xN) "\n\t"

#define CUZK_ROW4(src, x0, x1, x2, x3, x4) \
  CUZK_MAC(src, 0, x0, x1) CUZK_MAC(src, 1, x1, x2) CUZK_MAC(src, 2, x2, x3) \
  CUZK_MAC(src, 3, x3, x4) CUZK_ROW_END(x4)
#define CUZK_ROW6(src, x0, x1, x2, x3, x4, x5, x6)                            \
  CUZK_MAC(src, 0, x0, x1) CUZK_MAC(src, 1, x1, x2) CUZK_MAC(src, 2, x2, x3) \
  CUZK_MAC(src, 3, x3, x4) CUZK_MAC(src, 4, x4, x5) CUZK_MAC(src, 5, x5, x6) \
  CUZK_ROW_END(x6)

// One full step i >= 1 (multiply row + reduction row).
#define CUZK_STEP4(i, x0, x1, x2, x3, x4)                                    \
  CUZK_MUL_ROW_HEAD(i, x4) CUZK_ROW4(a, x0, x1, x2, x3, x4)                 \
  CUZK_RED_ROW_HEAD(x0) CUZK_ROW4(p, x0, x1, x2, x3, x4)
#define CUZK_STEP6(i, x0, x1, x2, x3, x4, x5, x6)                            \
  CUZK_MUL_ROW_HEAD(i, x6) CUZK_ROW6(a, x0, x1, x2, x3, x4, x5, x6)         \
  CUZK_RED_ROW_HEAD(x0) CUZK_ROW6(p, x0, x1, x2, x3, x4, x5, x6)

// Trial subtraction s = t - p. Into a spare register s (then `cmovc t, s`
// keeps t on borrow), or, when registers run out, in place after saving t to
// a stack slot (then `cmovc slot, t`).
#define CUZK_TSUB(op, j, t, s) \
  "mov " CUZK_OP(t) ", " CUZK_OP(s) "\n\t" op " " CUZK_p(j) ", " CUZK_OP(s) "\n\t"
#define CUZK_TSUB_SAVED(j, t, slot) \
  "mov " CUZK_OP(t) ", " CUZK_OP(slot) "\n\t" "sbb " CUZK_p(j) ", " CUZK_OP(t) "\n\t"
#define CUZK_CMOV(src, dst) "cmovc " CUZK_OP(src) ", " CUZK_OP(dst) "\n\t"

template <size_t N>
void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
              uint64_t inv);

template <>
CUZK_ASM_INLINE void mont_mul<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                 const uint64_t* p, uint64_t inv) {
  uint64_t t0, t1, t2, t3, t4, lo, hi, d;
  // Rotation: after four steps t4,t0,t1,t2 hold the sum and t3 is free.
  asm inline(CUZK_FIRST_ROW_HEAD(t0, t1, t2)
      CUZK_FIRST_ROW_STEP(2, t2, t3)
      CUZK_FIRST_ROW_STEP(3, t3, t4)
      CUZK_ROW_END(t4)
      CUZK_FIRST_RED_ROW_HEAD CUZK_ROW4(p, t0, t1, t2, t3, t4)
      CUZK_STEP4(1, t1, t2, t3, t4, t0)
      CUZK_STEP4(2, t2, t3, t4, t0, t1)
      CUZK_STEP4(3, t3, t4, t0, t1, t2)
      CUZK_TSUB("sub", 0, t4, d)
      CUZK_TSUB("sbb", 1, t0, lo)
      CUZK_TSUB("sbb", 2, t1, hi)
      CUZK_TSUB("sbb", 3, t2, t3)
      CUZK_CMOV(t4, d) CUZK_CMOV(t0, lo) CUZK_CMOV(t1, hi) CUZK_CMOV(t2, t3)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
      : [a] "r"(a), [b] "r"(b), [inv] "rm"(inv), CUZK_P_IN4 CUZK_AB_IN(4)
      : CUZK_CLOBBERS);
  r[0] = d;
  r[1] = lo;
  r[2] = hi;
  r[3] = t3;
}

template <>
CUZK_ASM_INLINE void mont_mul<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                 const uint64_t* p, uint64_t inv) {
  uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, d, slot0, slot1;
  // Rotation: after six steps t6,t0..t4 hold the sum and t5 is free.
  asm inline(CUZK_FIRST_ROW_HEAD(t0, t1, t2)
      CUZK_FIRST_ROW_STEP(2, t2, t3)
      CUZK_FIRST_ROW_STEP(3, t3, t4)
      CUZK_FIRST_ROW_STEP(4, t4, t5)
      CUZK_FIRST_ROW_STEP(5, t5, t6)
      CUZK_ROW_END(t6)
      CUZK_FIRST_RED_ROW_HEAD CUZK_ROW6(p, t0, t1, t2, t3, t4, t5, t6)
      CUZK_STEP6(1, t1, t2, t3, t4, t5, t6, t0)
      CUZK_STEP6(2, t2, t3, t4, t5, t6, t0, t1)
      CUZK_STEP6(3, t3, t4, t5, t6, t0, t1, t2)
      CUZK_STEP6(4, t4, t5, t6, t0, t1, t2, t3)
      CUZK_STEP6(5, t5, t6, t0, t1, t2, t3, t4)
      CUZK_TSUB("sub", 0, t6, d)
      CUZK_TSUB("sbb", 1, t0, lo)
      CUZK_TSUB("sbb", 2, t1, hi)
      CUZK_TSUB("sbb", 3, t2, t5)
      CUZK_TSUB_SAVED(4, t3, slot0)
      CUZK_TSUB_SAVED(5, t4, slot1)
      CUZK_CMOV(t6, d) CUZK_CMOV(t0, lo) CUZK_CMOV(t1, hi) CUZK_CMOV(t2, t5)
      CUZK_CMOV(slot0, t3) CUZK_CMOV(slot1, t4)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
        [slot0] "=&m"(slot0), [slot1] "=&m"(slot1)
      : [a] "r"(a), [b] "r"(b), [inv] "rm"(inv), CUZK_P_IN6 CUZK_AB_IN(6)
      : CUZK_CLOBBERS);
  r[0] = d;
  r[1] = lo;
  r[2] = hi;
  r[3] = t5;
  r[4] = t3;
  r[5] = t4;
}


// ---- squaring ----
// T = a^2 first (N=6: 15 off-diagonal products, doubled, plus 6 squares, 21
// MULX instead of 36; N=4: 10 instead of 16), then N reduction rows over its
// low half and one addition of its high half: u = (T_lo + m*p)/2^(64N) <= p
// and T_hi < p/8 (Fp) or p/2 (Fr), so the sum is below 2p and one trial
// subtraction finishes. Measured against mont_mul(a, a): Fp ~10% faster in
// both latency and throughput; Fr equal latency, ~8% more throughput.
#define CUZK_M(x) "%[" #x "]"
#define CUZK_ST(reg, slot) "mov " CUZK_OP(reg) ", " CUZK_M(slot) "\n\t"
#define CUZK_LD(slot, reg) "mov " CUZK_M(slot) ", " CUZK_OP(reg) "\n\t"
// T_k = 2*s_k + D_k with s_k in a register: one copy of s on CF, D on OF.
#define CUZK_DBL(sk, dk) \
  "adcx " CUZK_OP(sk) ", " CUZK_OP(sk) "\n\t" "adox " CUZK_OP(dk) ", " CUZK_OP(sk) "\n\t"
// ... with s_k in a stack slot: both copies added to D_k's register.
#define CUZK_DBL_MEM(slot, dk) \
  "adcx " CUZK_M(slot) ", " CUZK_OP(dk) "\n\t" "adox " CUZK_M(slot) ", " CUZK_OP(dk) "\n\t"
#define CUZK_PURE_RED6(x0, x1, x2, x3, x4, x5, x6) \
  CUZK_RED_ROW_HEAD(x0) CUZK_ROW6(p, x0, x1, x2, x3, x4, x5, x6)

template <size_t N>
void mont_sqr(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t inv);

template <>
CUZK_ASM_INLINE void mont_sqr<6>(uint64_t* r, const uint64_t* a, const uint64_t* p,
                                 uint64_t inv) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi, d;
  uint64_t S0, S1, S2, S6, S7, S8, S9, S10, S11;  // spilled limbs of a^2
  // Off-diagonal sums s1..s10 (s_k = sum of a_i*a_j, i<j, i+j=k, plus carries):
  // s1, s2 spill to the stack, s3..s7 live in r3..r7, s8..s10 in r0..r2.
  asm inline(
      "mov 0(%[a]), %%rdx\n\t"
      "mulx " CUZK_a(1) ", " CUZK_OP(r1) ", " CUZK_OP(r2) "\n\t"
      "mulx " CUZK_a(2) ", %[lo], " CUZK_OP(r3) "\n\t" "add %[lo], " CUZK_OP(r2) "\n\t"
      CUZK_FIRST_ROW_STEP(3, r3, r4)
      CUZK_FIRST_ROW_STEP(4, r4, r5)
      CUZK_FIRST_ROW_STEP(5, r5, r6)
      CUZK_ROW_END(r6)
      CUZK_ST(r1, S1) CUZK_ST(r2, S2)
      // a1 * a2..a5
      "mov 8(%[a]), %%rdx\n\t" "xor " CUZK_OP(r7) ", " CUZK_OP(r7) "\n\t"
      CUZK_MAC(a, 2, r3, r4) CUZK_MAC(a, 3, r4, r5) CUZK_MAC(a, 4, r5, r6)
      CUZK_MAC(a, 5, r6, r7) CUZK_ROW_END(r7)
      // a2 * a3..a5
      "mov 16(%[a]), %%rdx\n\t" "xor " CUZK_OP(r0) ", " CUZK_OP(r0) "\n\t"
      CUZK_MAC(a, 3, r5, r6) CUZK_MAC(a, 4, r6, r7) CUZK_MAC(a, 5, r7, r0) CUZK_ROW_END(r0)
      // a3 * a4..a5
      "mov 24(%[a]), %%rdx\n\t" "xor " CUZK_OP(r1) ", " CUZK_OP(r1) "\n\t"
      CUZK_MAC(a, 4, r7, r0) CUZK_MAC(a, 5, r0, r1) CUZK_ROW_END(r1)
      // a4 * a5
      "mov 32(%[a]), %%rdx\n\t"
      "mulx " CUZK_a(5) ", %[lo], " CUZK_OP(r2) "\n\t"
      "add %[lo], " CUZK_OP(r1) "\n\t" CUZK_ROW_END(r2)
      // T = 2s + squares, low to high; T0..T2 and T6..T11 go to the stack.
      "mov 0(%[a]), %%rdx\n\t" "xor %[lo], %[lo]\n\t"
      "mulx %%rdx, %[lo], %[hi]\n\t" CUZK_ST(lo, S0)
      CUZK_DBL_MEM(S1, hi) CUZK_ST(hi, S1)
      "mov 8(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL_MEM(S2, lo) CUZK_ST(lo, S2)
      CUZK_DBL(r3, hi)
      "mov 16(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r4, lo) CUZK_DBL(r5, hi)
      "mov 24(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r6, lo) CUZK_ST(r6, S6) CUZK_DBL(r7, hi) CUZK_ST(r7, S7)
      "mov 32(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r0, lo) CUZK_ST(r0, S8) CUZK_DBL(r1, hi) CUZK_ST(r1, S9)
      "mov 40(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r2, lo) CUZK_ST(r2, S10)
      "mov $0, %[lo]\n\t" "adcx %[lo], %[hi]\n\t" "adox %[lo], %[hi]\n\t" CUZK_ST(hi, S11)
      // Reduce T0..T5 (r0, r1, r2, r3, r4, r5; r6 is the zero top limb).
      CUZK_LD(S0, r0) CUZK_LD(S1, r1) CUZK_LD(S2, r2) "xor " CUZK_OP(r6) ", " CUZK_OP(r6) "\n\t"
      CUZK_PURE_RED6(r0, r1, r2, r3, r4, r5, r6)
      CUZK_PURE_RED6(r1, r2, r3, r4, r5, r6, r0)
      CUZK_PURE_RED6(r2, r3, r4, r5, r6, r0, r1)
      CUZK_PURE_RED6(r3, r4, r5, r6, r0, r1, r2)
      CUZK_PURE_RED6(r4, r5, r6, r0, r1, r2, r3)
      CUZK_PURE_RED6(r5, r6, r0, r1, r2, r3, r4)
      // + T_hi; the sum is in r6, r0..r4, and r5 is free.
      "add " CUZK_M(S6) ", " CUZK_OP(r6) "\n\t" "adc " CUZK_M(S7) ", " CUZK_OP(r0) "\n\t"
      "adc " CUZK_M(S8) ", " CUZK_OP(r1) "\n\t" "adc " CUZK_M(S9) ", " CUZK_OP(r2) "\n\t"
      "adc " CUZK_M(S10) ", " CUZK_OP(r3) "\n\t" "adc " CUZK_M(S11) ", " CUZK_OP(r4) "\n\t"
      CUZK_TSUB("sub", 0, r6, d)
      CUZK_TSUB("sbb", 1, r0, lo)
      CUZK_TSUB("sbb", 2, r1, hi)
      CUZK_TSUB("sbb", 3, r2, r5)
      CUZK_TSUB("sbb", 4, r3, r7)
      CUZK_TSUB_SAVED(5, r4, S6)
      CUZK_CMOV(r6, d) CUZK_CMOV(r0, lo) CUZK_CMOV(r1, hi) CUZK_CMOV(r2, r5)
      CUZK_CMOV(r3, r7) CUZK_CMOV(S6, r4)
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [d] "=&d"(d), [S0] "=&m"(S0), [S1] "=&m"(S1), [S2] "=&m"(S2), [S6] "=&m"(S6),
        [S7] "=&m"(S7), [S8] "=&m"(S8), [S9] "=&m"(S9), [S10] "=&m"(S10), [S11] "=&m"(S11)
      : [a] "r"(a), [inv] "rm"(inv), CUZK_P_IN6 CUZK_A_IN(6)
      : CUZK_CLOBBERS);
  r[0] = d;
  r[1] = lo;
  r[2] = hi;
  r[3] = r5;
  r[4] = r7;
  r[5] = r4;
}

template <>
CUZK_ASM_INLINE void mont_sqr<4>(uint64_t* r, const uint64_t* a, const uint64_t* p,
                                 uint64_t inv) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi, d;
  uint64_t S4, S5, S6, S7;  // high half of a^2
  // Off-diagonal sums s1..s6 in r1..r6, then T = 2s + squares with T0 in r0;
  // T4..T7 go to the stack until the reduced low half takes them back.
  asm inline(
      "mov 0(%[a]), %%rdx\n\t"
      "mulx " CUZK_a(1) ", " CUZK_OP(r1) ", " CUZK_OP(r2) "\n\t"
      "mulx " CUZK_a(2) ", %[lo], " CUZK_OP(r3) "\n\t" "add %[lo], " CUZK_OP(r2) "\n\t"
      CUZK_FIRST_ROW_STEP(3, r3, r4)
      CUZK_ROW_END(r4)
      "mov 8(%[a]), %%rdx\n\t" "xor " CUZK_OP(r5) ", " CUZK_OP(r5) "\n\t"
      CUZK_MAC(a, 2, r3, r4) CUZK_MAC(a, 3, r4, r5) CUZK_ROW_END(r5)
      "mov 16(%[a]), %%rdx\n\t"
      "mulx " CUZK_a(3) ", %[lo], " CUZK_OP(r6) "\n\t"
      "add %[lo], " CUZK_OP(r5) "\n\t" CUZK_ROW_END(r6)
      "mov 0(%[a]), %%rdx\n\t" "xor %[lo], %[lo]\n\t"
      "mulx %%rdx, " CUZK_OP(r0) ", %[hi]\n\t"
      CUZK_DBL(r1, hi)
      "mov 8(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r2, lo) CUZK_DBL(r3, hi)
      "mov 16(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r4, lo) CUZK_ST(r4, S4) CUZK_DBL(r5, hi) CUZK_ST(r5, S5)
      "mov 24(%[a]), %%rdx\n\t" "mulx %%rdx, %[lo], %[hi]\n\t"
      CUZK_DBL(r6, lo) CUZK_ST(r6, S6)
      "mov $0, %[lo]\n\t" "adcx %[lo], %[hi]\n\t" "adox %[lo], %[hi]\n\t" CUZK_ST(hi, S7)
      // Reduce T0..T3 (r0..r3; r4 is the zero top limb).
      "xor " CUZK_OP(r4) ", " CUZK_OP(r4) "\n\t"
      CUZK_RED_ROW_HEAD(r0) CUZK_ROW4(p, r0, r1, r2, r3, r4)
      CUZK_RED_ROW_HEAD(r1) CUZK_ROW4(p, r1, r2, r3, r4, r0)
      CUZK_RED_ROW_HEAD(r2) CUZK_ROW4(p, r2, r3, r4, r0, r1)
      CUZK_RED_ROW_HEAD(r3) CUZK_ROW4(p, r3, r4, r0, r1, r2)
      // + T_hi (< p/2 here); the sum is in r4, r0, r1, r2.
      "add " CUZK_M(S4) ", " CUZK_OP(r4) "\n\t" "adc " CUZK_M(S5) ", " CUZK_OP(r0) "\n\t"
      "adc " CUZK_M(S6) ", " CUZK_OP(r1) "\n\t" "adc " CUZK_M(S7) ", " CUZK_OP(r2) "\n\t"
      CUZK_TSUB("sub", 0, r4, d)
      CUZK_TSUB("sbb", 1, r0, lo)
      CUZK_TSUB("sbb", 2, r1, hi)
      CUZK_TSUB("sbb", 3, r2, r3)
      CUZK_CMOV(r4, d) CUZK_CMOV(r0, lo) CUZK_CMOV(r1, hi) CUZK_CMOV(r2, r3)
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
        [S4] "=&m"(S4), [S5] "=&m"(S5), [S6] "=&m"(S6), [S7] "=&m"(S7)
      : [a] "r"(a), [inv] "rm"(inv), CUZK_P_IN4 CUZK_A_IN(4)
      : CUZK_CLOBBERS);
  r[0] = d;
  r[1] = lo;
  r[2] = hi;
  r[3] = r3;
}

// ---- modular addition and subtraction ----
// Plain ADD/ADC/SBB/CMOV (no ADX needed), branch-free. The compiler turns the
// unsigned __int128 twins into long flag-juggling sequences; these are one
// carry chain plus a trial chain that the core overlaps with the first.
#define CUZK_LDOP(op, j, t) \
  "mov " CUZK_a(j) ", " CUZK_OP(t) "\n\t" op " 8*" #j "(%[b]), " CUZK_OP(t) "\n\t"
// s = t + p (for subtraction), into a register or in place after saving t.
#define CUZK_TADD(op, j, t, s) \
  "mov " CUZK_OP(t) ", " CUZK_OP(s) "\n\t" op " " CUZK_p(j) ", " CUZK_OP(s) "\n\t"
#define CUZK_TADD_SAVED(j, t, slot) \
  "mov " CUZK_OP(t) ", " CUZK_OP(slot) "\n\t" "adc " CUZK_p(j) ", " CUZK_OP(t) "\n\t"

template <size_t N>
void add_mod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p);
template <size_t N>
void sub_mod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p);

// r = a + b mod p: t = a + b, s = t - p, keep t where that borrowed.
template <>
CUZK_ASM_INLINE void add_mod<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                const uint64_t* p) {
  uint64_t t0, t1, t2, t3, s0, s1, s2, s3;
  asm inline(CUZK_LDOP("add", 0, t0) CUZK_LDOP("adc", 1, t1) CUZK_LDOP("adc", 2, t2)
      CUZK_LDOP("adc", 3, t3)
      CUZK_TSUB("sub", 0, t0, s0) CUZK_TSUB("sbb", 1, t1, s1) CUZK_TSUB("sbb", 2, t2, s2)
      CUZK_TSUB("sbb", 3, t3, s3)
      CUZK_CMOV(t0, s0) CUZK_CMOV(t1, s1) CUZK_CMOV(t2, s2) CUZK_CMOV(t3, s3)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [s0] "=&r"(s0),
        [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
      : [a] "r"(a), [b] "r"(b), CUZK_P_IN4 CUZK_AB_IN(4)
      : CUZK_CLOBBERS);
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
}

template <>
CUZK_ASM_INLINE void add_mod<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                const uint64_t* p) {
  uint64_t t0, t1, t2, t3, t4, t5, s0, s1, s2, s3, slot0, slot1;
  asm inline(CUZK_LDOP("add", 0, t0) CUZK_LDOP("adc", 1, t1) CUZK_LDOP("adc", 2, t2)
      CUZK_LDOP("adc", 3, t3) CUZK_LDOP("adc", 4, t4) CUZK_LDOP("adc", 5, t5)
      CUZK_TSUB("sub", 0, t0, s0) CUZK_TSUB("sbb", 1, t1, s1) CUZK_TSUB("sbb", 2, t2, s2)
      CUZK_TSUB("sbb", 3, t3, s3) CUZK_TSUB_SAVED(4, t4, slot0) CUZK_TSUB_SAVED(5, t5, slot1)
      CUZK_CMOV(t0, s0) CUZK_CMOV(t1, s1) CUZK_CMOV(t2, s2) CUZK_CMOV(t3, s3)
      CUZK_CMOV(slot0, t4) CUZK_CMOV(slot1, t5)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
        [slot0] "=&m"(slot0), [slot1] "=&m"(slot1)
      : [a] "r"(a), [b] "r"(b), CUZK_P_IN6 CUZK_AB_IN(6)
      : CUZK_CLOBBERS);
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
  r[4] = t4;
  r[5] = t5;
}

// r = a - b mod p: t = a - b, m = -borrow, s = t + p; keep s where m != 0.
template <>
CUZK_ASM_INLINE void sub_mod<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                const uint64_t* p) {
  uint64_t t0, t1, t2, t3, s0, s1, s2, s3, m;
  asm inline(CUZK_LDOP("sub", 0, t0) CUZK_LDOP("sbb", 1, t1) CUZK_LDOP("sbb", 2, t2)
      CUZK_LDOP("sbb", 3, t3)
      "sbb %[m], %[m]\n\t"
      CUZK_TADD("add", 0, t0, s0) CUZK_TADD("adc", 1, t1, s1) CUZK_TADD("adc", 2, t2, s2)
      CUZK_TADD("adc", 3, t3, s3)
      "test %[m], %[m]\n\t"
      "cmovnz %[s0], %[t0]\n\t" "cmovnz %[s1], %[t1]\n\t"
      "cmovnz %[s2], %[t2]\n\t" "cmovnz %[s3], %[t3]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [s0] "=&r"(s0),
        [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [m] "=&r"(m)
      : [a] "r"(a), [b] "r"(b), CUZK_P_IN4 CUZK_AB_IN(4)
      : CUZK_CLOBBERS);
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
  r[3] = t3;
}

template <>
CUZK_ASM_INLINE void sub_mod<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                const uint64_t* p) {
  uint64_t t0, t1, t2, t3, t4, t5, s0, s1, s2, m, slot3, slot4, slot5;
  asm inline(CUZK_LDOP("sub", 0, t0) CUZK_LDOP("sbb", 1, t1) CUZK_LDOP("sbb", 2, t2)
      CUZK_LDOP("sbb", 3, t3) CUZK_LDOP("sbb", 4, t4) CUZK_LDOP("sbb", 5, t5)
      "sbb %[m], %[m]\n\t"
      CUZK_TADD("add", 0, t0, s0) CUZK_TADD("adc", 1, t1, s1) CUZK_TADD("adc", 2, t2, s2)
      CUZK_TADD_SAVED(3, t3, slot3) CUZK_TADD_SAVED(4, t4, slot4) CUZK_TADD_SAVED(5, t5, slot5)
      "test %[m], %[m]\n\t"
      "cmovnz %[s0], %[t0]\n\t" "cmovnz %[s1], %[t1]\n\t" "cmovnz %[s2], %[t2]\n\t"
      "cmovz %[slot3], %[t3]\n\t" "cmovz %[slot4], %[t4]\n\t" "cmovz %[slot5], %[t5]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [m] "=&r"(m),
        [slot3] "=&m"(slot3), [slot4] "=&m"(slot4), [slot5] "=&m"(slot5)
      : [a] "r"(a), [b] "r"(b), CUZK_P_IN6 CUZK_AB_IN(6)
      : CUZK_CLOBBERS);
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
  r[3] = t3;
  r[4] = t4;
  r[5] = t5;
}

#undef CUZK_ASM_INLINE
#undef CUZK_OP
#undef CUZK_a
#undef CUZK_p
#undef CUZK_P_IN4
#undef CUZK_P_IN6
#undef CUZK_A_IN
#undef CUZK_AB_IN
#undef CUZK_M
#undef CUZK_ST
#undef CUZK_LD
#undef CUZK_DBL
#undef CUZK_DBL_MEM
#undef CUZK_PURE_RED6
#undef CUZK_CLOBBERS
#undef CUZK_MAC
#undef CUZK_FIRST_ROW_HEAD
#undef CUZK_FIRST_ROW_STEP
#undef CUZK_MUL_ROW_HEAD
#undef CUZK_RED_ROW_HEAD
#undef CUZK_FIRST_RED_ROW_HEAD
#undef CUZK_ROW_END
#undef CUZK_ROW4
#undef CUZK_ROW6
#undef CUZK_STEP4
#undef CUZK_STEP6
#undef CUZK_TSUB
#undef CUZK_TSUB_SAVED
#undef CUZK_CMOV
#undef CUZK_LDOP
#undef CUZK_TADD
#undef CUZK_TADD_SAVED

// clang-format on

}  // namespace cuzk::arith::x86

#endif  // __x86_64__
