// The x86-64 kernels (MULX/ADX Montgomery multiplication and squaring,
// modular addition and subtraction) against the portable twins and GMP, for
// both BLS12-381 moduli, on edge values and many random inputs.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "arith/limbs.hpp"
#include "arith/mont.hpp"
#include "platform/cpu_features.hpp"
#include "support/gmp_oracle.hpp"

using namespace cuzk;
using namespace cuzk::arith;
using cuzk::test::from_mpz;
using cuzk::test::to_mpz;

namespace {

// The moduli are spelled out here rather than taken from ff/ so this layer's
// test depends only on arith.
struct FpMod {
  static constexpr size_t N = 6;
  static constexpr Limbs<6> p = parse_hex<6>(
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
};
struct FrMod {
  static constexpr size_t N = 4;
  static constexpr Limbs<4> p =
      parse_hex<4>("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
};

bool have_adx() { return platform::cpu_features().bmi2 && platform::cpu_features().adx; }

template <class M>
class MontKernels : public ::testing::Test {
 protected:
  static constexpr size_t N = M::N;
  using L = Limbs<N>;
  static constexpr uint64_t inv = neg_inv64(M::p[0]);

  void SetUp() override {
    p_ = to_mpz<N>(M::p);
    rinv_ = mpz_class(1) << (64 * N);
    mpz_invert(rinv_.get_mpz_t(), rinv_.get_mpz_t(), p_.get_mpz_t());
  }
  void TearDown() override { platform::set_use_adx(true); }

  // Edge values: 0, 1, 2, p-1, p-2, (p±1)/2, R mod p, R^2 mod p, 2^k±1, and
  // numbers made of all-ones limbs (the largest such below p, and each
  // single all-ones limb) that stress every carry.
  std::vector<L> edges() const {
    std::vector<mpz_class> v = {0, 1, 2, p_ - 1, p_ - 2, (p_ - 1) / 2, (p_ + 1) / 2};
    v.push_back((mpz_class(1) << (64 * N)) % p_);
    v.push_back((mpz_class(1) << (128 * N)) % p_);
    v.push_back(p_ - (mpz_class(1) << (64 * N)) % p_);
    for (unsigned k = 1; k < 64 * N; k += 31) {
      mpz_class x = mpz_class(1) << k;
      for (mpz_class y : {mpz_class(x - 1), x, mpz_class(x + 1)})
        if (y < p_) v.push_back(y);
    }
    for (size_t i = 0; i < N; i++) {
      mpz_class ones = ((mpz_class(1) << 64) - 1) << (64 * i);
      if (ones < p_) v.push_back(ones);
      mpz_class low = (mpz_class(1) << (64 * (i + 1))) - 1;  // limbs 0..i all ones
      if (low < p_) v.push_back(low);
    }
    // Top limb of p minus one, every lower limb all ones.
    {
      L x = M::p;
      x[N - 1] -= 1;
      for (size_t i = 0; i + 1 < N; i++) x[i] = ~uint64_t(0);
      v.push_back(to_mpz<N>(x));
    }
    std::vector<L> out;
    for (const auto& x : v) {
      EXPECT_LT(x, p_);
      out.push_back(from_mpz<N>(x));
    }
    return out;
  }

  L random(std::mt19937_64& rng) const {
    for (;;) {
      L x;
      for (auto& w : x) w = rng();
      x[N - 1] >>= __builtin_clzll(M::p[N - 1]);
      if (compare(x, M::p) < 0) return x;
    }
  }

  // Limbs drawn from {0, 1, 2^63, 2^64-1, random}: long carry runs.
  L random_limby(std::mt19937_64& rng) const {
    static constexpr uint64_t special[] = {0, 1, uint64_t(1) << 63, ~uint64_t(0)};
    for (;;) {
      L x;
      for (auto& w : x) {
        uint64_t k = rng() % 5;
        w = k < 4 ? special[k] : rng();
      }
      x[N - 1] >>= __builtin_clzll(M::p[N - 1]);
      if (compare(x, M::p) < 0) return x;
    }
  }

  // a*b*R^-1 mod p three ways; they must agree. The asm kernels are called
  // directly whenever the CPU has them; the dispatching entry points follow
  // whichever path the test selected.
  void check(const L& a, const L& b) {
    const mpz_class want = to_mpz<N>(a) * to_mpz<N>(b) * rinv_ % p_;
    L port, sq;
    portable::mont_mul<N>(port.data(), a.data(), b.data(), M::p.data(), inv);
    ASSERT_EQ(to_mpz<N>(port), want) << "portable";
#if CUZK_HAVE_MULX_ASM
    if (have_adx()) {
      L viaasm, asm_sq, port_sq;
      x86::mont_mul<N>(viaasm.data(), a.data(), b.data(), M::p.data(), inv);
      ASSERT_EQ(viaasm, port) << "asm mul a=" << to_mpz<N>(a) << " b=" << to_mpz<N>(b);
      x86::mont_sqr<N>(asm_sq.data(), b.data(), M::p.data(), inv);
      portable::mont_mul<N>(port_sq.data(), b.data(), b.data(), M::p.data(), inv);
      ASSERT_EQ(asm_sq, port_sq) << "asm sqr a=" << to_mpz<N>(b);
    }
#endif
    // The dispatching entry points, whichever path is selected.
    // a + b and a - b mod p, the same three ways.
    {
      const mpz_class A = to_mpz<N>(a), B = to_mpz<N>(b);
      const mpz_class sum = (A + B) % p_, diff = ((A - B) % p_ + p_) % p_;
      L ps, pd, ds, dd;
      portable::add_mod<N>(ps.data(), a.data(), b.data(), M::p.data());
      portable::sub_mod<N>(pd.data(), a.data(), b.data(), M::p.data());
      ASSERT_EQ(to_mpz<N>(ps), sum) << "portable add";
      ASSERT_EQ(to_mpz<N>(pd), diff) << "portable sub";
#if CUZK_HAVE_MULX_ASM
      L as, ad;
      x86::add_mod<N>(as.data(), a.data(), b.data(), M::p.data());
      x86::sub_mod<N>(ad.data(), a.data(), b.data(), M::p.data());
      ASSERT_EQ(as, ps) << "asm add a=" << A << " b=" << B;
      ASSERT_EQ(ad, pd) << "asm sub a=" << A << " b=" << B;
#endif
      add_mod<N>(ds.data(), a.data(), b.data(), M::p.data());
      sub_mod<N>(dd.data(), a.data(), b.data(), M::p.data());
      ASSERT_EQ(ds, ps);
      ASSERT_EQ(dd, pd);
    }
    L disp;
    mont_mul<N>(disp.data(), a.data(), b.data(), M::p.data(), inv);
    ASSERT_EQ(disp, port);
    mont_sqr<N>(sq.data(), a.data(), M::p.data(), inv);
    ASSERT_EQ(to_mpz<N>(sq), to_mpz<N>(a) * to_mpz<N>(a) * rinv_ % p_) << "sqr";
  }

  void run_all(bool use_asm) {
    platform::set_use_adx(use_asm);
    auto e = edges();
    for (const auto& a : e)
      for (const auto& b : e) ASSERT_NO_FATAL_FAILURE(check(a, b));
    std::mt19937_64 rng(0xc0ffee + N);
    for (int i = 0; i < 30000; i++) {
      L a = random(rng), b = random(rng);
      ASSERT_NO_FATAL_FAILURE(check(a, b));
      ASSERT_NO_FATAL_FAILURE(check(a, e[i % e.size()]));
      ASSERT_NO_FATAL_FAILURE(check(random_limby(rng), random_limby(rng)));
    }
  }

  mpz_class p_, rinv_;
};

using Moduli = ::testing::Types<FpMod, FrMod>;
TYPED_TEST_SUITE(MontKernels, Moduli);

TYPED_TEST(MontKernels, AsmPathMatchesPortableAndGmp) {
  if (!have_adx()) GTEST_SKIP() << "CPU lacks BMI2/ADX";
  this->run_all(true);
}

TYPED_TEST(MontKernels, PortablePathMatchesGmp) { this->run_all(false); }

// Products whose intermediate sums are largest: chains of p-1 squared and
// long dependent multiplication chains, checked step by step.
TYPED_TEST(MontKernels, LongChainsStayReduced) {
  using L = typename TestFixture::L;
  constexpr size_t N = TestFixture::N;
  for (bool use_asm : {true, false}) {
    if (use_asm && !have_adx()) continue;
    platform::set_use_adx(use_asm);
    std::mt19937_64 rng(7);
    L x = this->random(rng), y = this->random(rng);
    mpz_class xm = to_mpz<N>(x), ym = to_mpz<N>(y);
    for (int i = 0; i < 20000; i++) {
      L z;
      if (i % 3 == 2) {
        mont_sqr<N>(z.data(), x.data(), TypeParam::p.data(), TestFixture::inv);
        xm = xm * xm * this->rinv_ % this->p_;
      } else {
        mont_mul<N>(z.data(), x.data(), y.data(), TypeParam::p.data(), TestFixture::inv);
        xm = xm * ym * this->rinv_ % this->p_;
      }
      ASSERT_EQ(to_mpz<N>(z), xm) << "step " << i << (use_asm ? " asm" : " portable");
      x = z;
    }
  }
}

// The asm kernels read all of a and b before writing r, so in-place use
// (r aliasing a and/or b) works; the portable twin promises no such thing.
#if CUZK_HAVE_MULX_ASM
TYPED_TEST(MontKernels, AsmAliasing) {
  using L = typename TestFixture::L;
  constexpr size_t N = TestFixture::N;
  if (!have_adx()) GTEST_SKIP() << "CPU lacks BMI2/ADX";
  const uint64_t* p = TypeParam::p.data();
  const uint64_t inv = TestFixture::inv;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 1000; i++) {
    L a = this->random(rng), b = this->random(rng), want, sq_want;
    portable::mont_mul<N>(want.data(), a.data(), b.data(), p, inv);
    portable::mont_mul<N>(sq_want.data(), a.data(), a.data(), p, inv);
    L x = a, y = b, s = a;
    x86::mont_mul<N>(x.data(), x.data(), b.data(), p, inv);
    ASSERT_EQ(x, want);
    x86::mont_mul<N>(y.data(), a.data(), y.data(), p, inv);
    ASSERT_EQ(y, want);
    x86::mont_mul<N>(s.data(), s.data(), s.data(), p, inv);
    ASSERT_EQ(s, sq_want);
    L q = a;
    x86::mont_sqr<N>(q.data(), q.data(), p, inv);
    ASSERT_EQ(q, sq_want);
    L sum, diff, u = a, v = b;
    portable::add_mod<N>(sum.data(), a.data(), b.data(), p);
    portable::sub_mod<N>(diff.data(), a.data(), b.data(), p);
    x86::add_mod<N>(u.data(), u.data(), b.data(), p);
    ASSERT_EQ(u, sum);
    x86::sub_mod<N>(v.data(), a.data(), v.data(), p);
    ASSERT_EQ(v, diff);
  }
}
#endif

}  // namespace
