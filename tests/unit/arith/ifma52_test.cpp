// Eight-lane IFMA Montgomery arithmetic (arith/ifma52.hpp) against GMP:
// products and squares, for canonical and lazily reduced inputs (up to 9p,
// what the MSM kernels feed it), canonical() from every bound, and the lazy
// (carry-free) forms, for the 381-bit Fp (K = 8) and the 255-bit Fr (K = 5),
// and the unreduced products of the Fp2 Karatsuba (K = 8).
// Skipped on CPUs without AVX-512 IFMA.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "ff/bls12_381.hpp"
#include "platform/cpu_features.hpp"

#if defined(__x86_64__)
#if !defined(__clang__)  // GCC's name; clang has no such group
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "arith/ifma52.hpp"

using namespace cuzk;
using namespace cuzk::arith::ifma;

namespace {

template <size_t K>
mpz_class value(const uint64_t* limbs) {
  mpz_class v = 0;
  for (size_t j = K; j-- > 0;) v = (v << 52) + mpz_class(std::to_string(limbs[j]));
  return v;
}

template <size_t K>
void set_value(uint64_t* limbs, mpz_class v) {
  for (size_t j = 0; j < K; j++) {
    mpz_class low = v & ((mpz_class(1) << 52) - 1);
    limbs[j] = std::stoull(low.get_str());
    v >>= 52;
  }
}

// lanes[i][j]: limb j of lane i; returns mul and sqr outputs per lane.
template <size_t K>
CUZK_IFMA_TARGET void run(const Modulus52<K>& m, const uint64_t (*a)[K], const uint64_t (*b)[K],
                          uint64_t (*prod)[K], uint64_t (*square)[K]) {
  Vec<K> va, vb;
  alignas(64) uint64_t tmp[8];
  for (size_t j = 0; j < K; j++) {
    for (int i = 0; i < 8; i++) tmp[i] = a[i][j];
    va.l[j] = _mm512_load_si512(tmp);
    for (int i = 0; i < 8; i++) tmp[i] = b[i][j];
    vb.l[j] = _mm512_load_si512(tmp);
  }
  const Vec<K> p = mul(va, vb, m), s = sqr(va, m);
  for (size_t j = 0; j < K; j++) {
    _mm512_store_si512(tmp, p.l[j]);
    for (int i = 0; i < 8; i++) prod[i][j] = tmp[i];
    _mm512_store_si512(tmp, s.l[j]);
    for (int i = 0; i < 8; i++) square[i][j] = tmp[i];
  }
}

template <class F>
mpz_class modulus() {
  mpz_class p = 0;
  for (size_t j = F::N; j-- > 0;) p = (p << 64) + mpz_class(std::to_string(F::MODULUS[j]));
  return p;
}

// 2^(-52K) mod p: the kernels' Montgomery factor.
template <class F, size_t K>
mpz_class radix_inverse() {
  mpz_class r;
  const mpz_class R = mpz_class(1) << (52 * K), p = modulus<F>();
  mpz_invert(r.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
  return r;
}

template <class F, size_t K>
void check_field(uint64_t seed) {
  constexpr Modulus52<K> M = Modulus52<K>::make(F::MODULUS);
  const mpz_class p = modulus<F>(), R = mpz_class(1) << (52 * K), Rinv = radix_inverse<F, K>();
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(seed);
  for (int round = 0; round < 200; round++) {
    uint64_t a[8][K], b[8][K], prod[8][K], square[8][K];
    mpz_class va[8], vb[8];
    for (int i = 0; i < 8; i++) {
      // Canonical, at the edges (0, 1, p - 1), or lazily reduced below 9p.
      const int kind = (round + i) % 5;
      va[i] = kind == 0   ? mpz_class(rng.get_z_range(p))
              : kind == 1 ? mpz_class(rng.get_z_range(9 * p))
              : kind == 2 ? mpz_class(p - 1)
              : kind == 3 ? mpz_class(rng.get_z_range(2 * p))
                          : mpz_class(i % 2);
      vb[i] = rng.get_z_range(4 * p);
      set_value<K>(a[i], va[i]);
      set_value<K>(b[i], vb[i]);
    }
    run<K>(M, a, b, prod, square);
    for (int i = 0; i < 8; i++) {
      const mpz_class got_p = value<K>(prod[i]), got_s = value<K>(square[i]);
      // The documented bound: below a*b / R + p.
      ASSERT_LT(got_p, mpz_class(va[i] * vb[i] / R + p)) << "lazy bound";
      ASSERT_LT(got_s, mpz_class(va[i] * va[i] / R + p)) << "lazy bound";
      for (size_t j = 0; j + 1 < K; j++) ASSERT_LT(prod[i][j], uint64_t(1) << 52) << "normalised limbs";
      ASSERT_EQ(mpz_class(got_p % p), mpz_class(va[i] * vb[i] * Rinv % p)) << "mul lane " << i;
      ASSERT_EQ(mpz_class(got_s % p), mpz_class(va[i] * va[i] * Rinv % p)) << "sqr lane " << i;
    }
  }
}

template <size_t K>
Vec<K> load_lanes(const uint64_t (*a)[K]) {
  Vec<K> v;
  alignas(64) uint64_t tmp[8];
  for (size_t j = 0; j < K; j++) {
    for (int i = 0; i < 8; i++) tmp[i] = a[i][j];
    std::memcpy(&v.l[j], tmp, 64);
  }
  return v;
}
template <size_t K>
void store_lanes(const Vec<K>& v, uint64_t (*out)[K]) {
  alignas(64) uint64_t tmp[8];
  for (size_t j = 0; j < K; j++) {
    std::memcpy(tmp, &v.l[j], 64);
    for (int i = 0; i < 8; i++) out[i][j] = tmp[i];
  }
}

template <size_t K>
CUZK_IFMA_TARGET void run_canonical(const Modulus52<K>& m, int bound_log2, const uint64_t (*a)[K],
                                    uint64_t (*out)[K]) {
  store_lanes<K>(canonical(load_lanes<K>(a), m, bound_log2), out);
}

// (a*b + a*a) - (-b) through the lazy forms (no carries in between), then
// normalised by the last subtraction: the MSM kernels' pattern.
template <size_t K>
CUZK_IFMA_TARGET void run_lazy(const Modulus52<K>& m, const uint64_t (*a)[K], const uint64_t (*b)[K],
                               uint64_t (*out)[K]) {
  const Vec<K> va = load_lanes<K>(a), vb = load_lanes<K>(b);
  const Vec<K> zero{};
  const Vec<K> negb = sub_lazy(zero, vb, m.red4);
  store_lanes<K>(sub(add_lazy(mul_lazy(va, vb, m), mul_lazy(va, va, m)), negb, m.red8), out);
}

// canonical() for bounds 2p..16p against GMP: random values below the bound,
// the multiples k*p and their neighbours, and values whose top limb equals
// that of a multiple (the estimate's tie, which takes the slow path).
template <class F, size_t K>
void check_canonical(uint64_t seed) {
  constexpr Modulus52<K> M = Modulus52<K>::make(F::MODULUS);
  const mpz_class p = modulus<F>();
  const int top_shift = 52 * (K - 1);
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(seed);
  for (int b = 1; b <= 4; b++) {
    const mpz_class bound = p << b;
    for (int round = 0; round < 300; round++) {
      uint64_t a[8][K], out[8][K];
      mpz_class v[8];
      for (int i = 0; i < 8; i++) {
        const mpz_class k = rng.get_z_range(mpz_class(1) << b);
        const mpz_class kp = k * p;
        switch ((round + i) % 4) {
          case 0: v[i] = rng.get_z_range(bound); break;
          case 1: v[i] = kp + mpz_class(rng.get_z_range(3)) - 1; break;  // k*p - 1, k*p, k*p + 1
          case 2:  // same top limb as k*p, random below it
            v[i] = ((kp >> top_shift) << top_shift) + rng.get_z_range(mpz_class(1) << top_shift);
            break;
          default: v[i] = bound - 1 - rng.get_z_range(mpz_class(3)); break;
        }
        if (v[i] < 0) v[i] = 0;
        if (v[i] >= bound) v[i] = bound - 1;
        set_value<K>(a[i], v[i]);
      }
      run_canonical<K>(M, b, a, out);
      for (int i = 0; i < 8; i++) {
        for (size_t j = 0; j < K; j++) ASSERT_LT(out[i][j], uint64_t(1) << 52) << "normalised limbs";
        ASSERT_EQ(value<K>(out[i]), mpz_class(v[i] % p))
            << "bound 2^" << b << "p, lane " << i << ", v = " << v[i];
      }
    }
  }
}

template <class F, size_t K>
void check_lazy(uint64_t seed) {
  constexpr Modulus52<K> M = Modulus52<K>::make(F::MODULUS);
  const mpz_class p = modulus<F>(), Rinv = radix_inverse<F, K>();
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(seed);
  for (int round = 0; round < 200; round++) {
    uint64_t a[8][K], b[8][K], out[8][K];
    mpz_class va[8], vb[8];
    for (int i = 0; i < 8; i++) {
      va[i] = round % 3 ? mpz_class(rng.get_z_range(2 * p)) : mpz_class(p - 1 - i);
      vb[i] = round % 5 ? mpz_class(rng.get_z_range(p)) : mpz_class(i % 2 ? p : mpz_class(0));
      set_value<K>(a[i], va[i]);
      set_value<K>(b[i], vb[i]);
    }
    run_lazy<K>(M, a, b, out);
    for (int i = 0; i < 8; i++) {
      for (size_t j = 0; j + 1 < K; j++) ASSERT_LT(out[i][j], uint64_t(1) << 52) << "normalised limbs";
      const mpz_class want = ((va[i] * vb[i] + va[i] * va[i]) * Rinv + vb[i]) % p;
      ASSERT_EQ(mpz_class(value<K>(out[i]) % p), want) << "lane " << i;
    }
  }
}

template <size_t K>
CUZK_IFMA_TARGET void run_div_pow2(const Modulus52<K>& m, unsigned s, const uint64_t (*a)[K],
                                   uint64_t (*out)[K]) {
  store_lanes<K>(div_pow2(load_lanes<K>(a), s, m), out);
}

// div_pow2 (a / 2^s mod p, below a / 2^s + p) against GMP for Fp: 0, 1,
// p - 1, values whose low s bits are 0 or all ones (k = 0 and its largest),
// and random values below p and up to 2^(52K - s - 1), for shifts 1, 16, 33.
void check_div_pow2(uint64_t seed) {
  constexpr size_t K = 8;
  constexpr Modulus52<K> M = Modulus52<K>::make(ff::Fp::MODULUS);
  const mpz_class p = modulus<ff::Fp>();
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(seed);
  for (unsigned s : {1u, 16u, 33u}) {
    const mpz_class inv = [&] {
      mpz_class r, two_s = mpz_class(1) << s;
      mpz_invert(r.get_mpz_t(), two_s.get_mpz_t(), p.get_mpz_t());
      return r;
    }();
    const mpz_class limit = mpz_class(1) << (52 * K - s - 1);
    for (int round = 0; round < 200; round++) {
      uint64_t a[8][K], out[8][K];
      mpz_class v[8];
      for (int i = 0; i < 8; i++) {
        switch ((round + i) % 6) {
          case 0: v[i] = i % 3 == 0 ? mpz_class(0) : i % 3 == 1 ? mpz_class(1) : mpz_class(p - 1); break;
          case 1: v[i] = (mpz_class(rng.get_z_range(p)) >> s) << s; break;  // k = 0
          case 2: v[i] = ((mpz_class(rng.get_z_range(p)) >> s) << s) + ((mpz_class(1) << s) - 1); break;
          case 3: v[i] = rng.get_z_range(limit); break;
          default: v[i] = rng.get_z_range(p); break;
        }
        if (v[i] >= limit) v[i] = limit - 1;
        set_value<K>(a[i], v[i]);
      }
      run_div_pow2<K>(M, s, a, out);
      for (int i = 0; i < 8; i++) {
        for (size_t j = 0; j + 1 < K; j++) ASSERT_LT(out[i][j], uint64_t(1) << 52) << "normalised limbs";
        const mpz_class got = value<K>(out[i]);
        ASSERT_LT(got, (v[i] >> s) + p + 1) << "bound, shift " << s << ", lane " << i;
        ASSERT_EQ(mpz_class(got % p), mpz_class(v[i] * inv % p)) << "shift " << s << ", v = " << v[i];
      }
    }
  }
}

// Karatsuba over unreduced products (the G2 kernel's Fp2 product):
// c0 = (a0 b0 - a1 b1) / R, c1 = ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) / R,
// each through one reduction of a wide difference.
template <size_t K>
CUZK_IFMA_TARGET void run_wide(const Modulus52<K>& m, const uint64_t (*a0)[K], const uint64_t (*a1)[K],
                               const uint64_t (*b0)[K], const uint64_t (*b1)[K], uint64_t (*c0)[K],
                               uint64_t (*c1)[K]) {
  constexpr auto C = wide_offset(Modulus52<K>::make(ff::Fp::MODULUS));
  const Vec<K> x0 = load_lanes<K>(a0), x1 = load_lanes<K>(a1), y0 = load_lanes<K>(b0), y1 = load_lanes<K>(b1);
  const Wide<K> v0 = mul_wide(x0, y0), v1 = mul_wide(x1, y1), mm = mul_wide(add(x0, x1), add(y0, y1));
  Vec<K> r0 = reduce_lazy(sub_wide(v0, v1, C), m), r1 = reduce_lazy(sub_wide(mm, add_wide(v0, v1), C), m);
  normalize<K>(r0.l);
  normalize<K>(r1.l);
  store_lanes<K>(r0, c0);
  store_lanes<K>(r1, c1);
}

void check_wide(uint64_t seed) {
  constexpr size_t K = 8;
  constexpr Modulus52<K> M = Modulus52<K>::make(ff::Fp::MODULUS);
  const mpz_class p = modulus<ff::Fp>(), Rinv = radix_inverse<ff::Fp, K>();
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(seed);
  for (int round = 0; round < 200; round++) {
    uint64_t a0[8][K], a1[8][K], b0[8][K], b1[8][K], c0[8][K], c1[8][K];
    mpz_class v[4][8];
    for (int i = 0; i < 8; i++)
      for (int k = 0; k < 4; k++) {
        // Below 18p (the kernel's input bound), with the extremes.
        const int kind = (round + i + k) % 6;
        v[k][i] = kind == 0   ? mpz_class(18 * p - 1)
                  : kind == 1 ? mpz_class(0)
                  : kind == 2 ? mpz_class(p - 1)
                  : kind == 3 ? mpz_class(rng.get_z_range(p))
                              : mpz_class(rng.get_z_range(18 * p));
        set_value<K>((k == 0 ? a0 : k == 1 ? a1 : k == 2 ? b0 : b1)[i], v[k][i]);
      }
    run_wide<K>(M, a0, a1, b0, b1, c0, c1);
    for (int i = 0; i < 8; i++) {
      const mpz_class x0 = v[0][i], x1 = v[1][i], y0 = v[2][i], y1 = v[3][i];
      const mpz_class got0 = value<K>(c0[i]), got1 = value<K>(c1[i]);
      for (size_t j = 0; j + 1 < K; j++)
        ASSERT_LT(c0[i][j] | c1[i][j], uint64_t(1) << 52) << "normalised limbs";
      ASSERT_LT(got0, 3 * p) << "c0 bound, lane " << i;
      ASSERT_LT(got1, 3 * p) << "c1 bound, lane " << i;
      mpz_class want0 = (x0 * y0 - x1 * y1) * Rinv % p, want1 = (x0 * y1 + x1 * y0) * Rinv % p;
      if (want0 < 0) want0 += p;
      ASSERT_EQ(mpz_class(got0 % p), want0) << "c0 lane " << i;
      ASSERT_EQ(mpz_class(got1 % p), want1) << "c1 lane " << i;
    }
  }
}

}  // namespace

TEST(Ifma52, UnreducedKaratsubaMatchesGmp) {
  if (!platform::cpu_features().ifma) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2";
  check_wide(7);
}

TEST(Ifma52, CanonicalMatchesGmpIncludingTopLimbTies) {
  if (!platform::cpu_features().ifma) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2";
  check_canonical<ff::Fp, 8>(3);
  check_canonical<ff::Fr, 5>(4);
}

TEST(Ifma52, LazyFormsNormaliseInTheNextSubtraction) {
  if (!platform::cpu_features().ifma) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2";
  check_lazy<ff::Fp, 8>(5);
  check_lazy<ff::Fr, 5>(6);
}

TEST(Ifma52, DivPow2MatchesGmp) {
  if (!platform::cpu_features().ifma) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2";
  check_div_pow2(8);
}

TEST(Ifma52, MulAndSqrMatchGmp) {
  if (!platform::cpu_features().ifma) GTEST_SKIP() << "CPU without AVX-512 IFMA/VBMI2";
  check_field<ff::Fp, 8>(1);
  check_field<ff::Fr, 5>(2);
}

#endif
