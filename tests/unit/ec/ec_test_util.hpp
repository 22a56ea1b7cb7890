#pragma once
// Helpers shared by the ec unit tests.
#include <gmpxx.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/print.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec::test {

inline std::vector<uint8_t> read_vector_file(const std::string& name) {
  std::ifstream f(std::string(CUZK_TEST_VECTORS) + "/bls12_381/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

template <size_t N>
arith::Limbs<N> to_limbs(mpz_class z) {
  arith::Limbs<N> r{};
  for (size_t i = 0; i < N; i++) {
    mpz_class t = z & mpz_class("0xffffffffffffffff");
    r[i] = t.get_ui();
    z >>= 64;
  }
  return r;
}
template <size_t N>
mpz_class to_mpz(const arith::Limbs<N>& a) {
  mpz_class z = 0;
  for (size_t i = N; i-- > 0;) {
    z <<= 64;
    z += mpz_class(std::to_string(a[i]));
  }
  return z;
}

inline const mpz_class& p_mpz() {
  static const mpz_class v = to_mpz(ff::Fp::MODULUS);
  return v;
}
inline const mpz_class& r_mpz() {
  static const mpz_class v = to_mpz(ff::Fr::MODULUS);
  return v;
}
inline const mpz_class& u_abs_mpz() {
  static const mpz_class v("0xd201000000010000");
  return v;
}

// Uniform point of the prime-order subgroup (a random multiple of the generator).
template <class C>
Jacobian<C> random_subgroup_point(std::mt19937_64& rng) {
  return mul_vartime(Jacobian<C>::from_affine(C::generator()), ff::Fr::random(rng));
}

}  // namespace cuzk::ec::test
