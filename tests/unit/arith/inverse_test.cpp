// Divsteps modular inversion (arith/inverse.hpp) against GMP's mpz_invert:
// random odd moduli of every size up to the documented 64N - 2 bits (so
// also non-invertible inputs, for which 0 is expected), and edge inputs.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include "arith/inverse.hpp"
#include "support/gmp_oracle.hpp"

using namespace cuzk;

namespace {

using test::from_mpz;
using test::to_mpz;

template <size_t N>
void check_against_gmp(unsigned long seed) {
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(seed);
  for (unsigned bits : {3u, 40u, 64u, 65u, 127u, 200u, unsigned(64 * N - 3), unsigned(64 * N - 2)}) {
    for (int round = 0; round < 60; round++) {
      mpz_class m = rng.get_z_bits(bits);
      mpz_setbit(m.get_mpz_t(), bits - 1);  // exactly `bits` bits
      mpz_setbit(m.get_mpz_t(), 0);         // odd
      mpz_class a = round == 0   ? mpz_class(1)
                    : round == 1 ? mpz_class(m - 1)
                    : round == 2 ? mpz_class(2)
                                 : mpz_class(rng.get_z_range(m));
      if (a == 0) a = 1;
      mpz_class want;
      if (!mpz_invert(want.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t())) want = 0;
      const auto got = arith::inverse_divsteps<N>(from_mpz<N>(a), from_mpz<N>(m));
      ASSERT_EQ(to_mpz(got), want) << "N=" << N << " bits=" << bits << " a=" << a.get_str(16)
                                   << " m=" << m.get_str(16);
    }
  }
}

}  // namespace

TEST(InverseDivsteps, MatchesGmpFourLimbs) { check_against_gmp<4>(1); }
TEST(InverseDivsteps, MatchesGmpSixLimbs) { check_against_gmp<6>(2); }
TEST(InverseDivsteps, ZeroHasNoInverse) {
  const auto m = arith::from_u64<6>(1000003);
  EXPECT_EQ(arith::inverse_divsteps<6>(arith::Limbs<6>{}, m), arith::Limbs<6>{});
}
