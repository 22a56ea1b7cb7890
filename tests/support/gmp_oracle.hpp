#pragma once
// GMP as the independent big-integer oracle for field tests.
#include <gmpxx.h>

#include "arith/limbs.hpp"

namespace cuzk::test {

template <size_t N>
mpz_class to_mpz(const arith::Limbs<N>& a) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), N, -1, sizeof(uint64_t), 0, 0, a.data());
  return r;
}

template <size_t N>
arith::Limbs<N> from_mpz(const mpz_class& x) {
  arith::Limbs<N> r{};
  size_t count = 0;
  mpz_export(r.data(), &count, -1, sizeof(uint64_t), 0, 0, x.get_mpz_t());
  return r;
}

// Canonical value of a field element as an mpz.
template <class F>
mpz_class value(const F& f) {
  return to_mpz<F::N>(f.to_canonical());
}

template <class F>
mpz_class modulus() {
  return to_mpz<F::N>(F::MODULUS);
}

// Field element from an mpz reduced mod p.
template <class F>
F from_value(const mpz_class& x) {
  mpz_class m = x % modulus<F>();
  if (m < 0) m += modulus<F>();
  return *F::from_canonical(from_mpz<F::N>(m));
}

}  // namespace cuzk::test
