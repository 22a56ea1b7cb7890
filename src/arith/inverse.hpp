#pragma once
// Variable-time modular inversion by the binary extended Euclidean algorithm
// (Menezes et al., Handbook of Applied Cryptography, alg. 14.61, the
// "binary inversion" form). About ten times faster than Fermat's a^(p-2) for
// the 381-bit Fp, which matters where one inversion is shared by a batch of
// affine additions. Its running time depends on the input: use it only on
// data that may leak through timing (this codebase's prover is variable time
// throughout; see msm/msm.hpp).
#include "arith/limbs.hpp"

namespace cuzk::arith {

// x / 2 mod m for odd m < 2^(64N - 1) and x < m.
template <size_t N>
inline void half_mod(Limbs<N>& x, const Limbs<N>& m) {
  if (x[0] & 1) add_to(x, m);  // x + m < 2^(64N): no carry out
  shr1(x);
}

namespace detail {
template <size_t N>
inline bool is_one(const Limbs<N>& a) {
  uint64_t hi = 0;
  for (size_t i = 1; i < N; i++) hi |= a[i];
  return a[0] == 1 && hi == 0;
}
// Strips the trailing zero bits of u (u != 0), halving x mod m as often.
template <size_t N>
inline void strip_twos(Limbs<N>& u, Limbs<N>& x, const Limbs<N>& m) {
  while (!(u[0] & 1)) {
    const unsigned k = u[0] ? unsigned(__builtin_ctzll(u[0])) : 63;
    for (size_t i = 0; i < N; i++) u[i] = (u[i] >> k) | (i + 1 < N ? u[i + 1] << (64 - k) : 0);
    for (unsigned j = 0; j < k; j++) half_mod(x, m);
  }
}
}  // namespace detail

// a^-1 mod m (plain integers) for odd m < 2^(64N - 1) and 0 < a < m with
// gcd(a, m) = 1.
template <size_t N>
Limbs<N> inverse_binary(const Limbs<N>& a, const Limbs<N>& m) {
  Limbs<N> u = a, v = m, x1 = from_u64<N>(1), x2{};
  while (!detail::is_one(u) && !detail::is_one(v)) {
    detail::strip_twos(u, x1, m);
    detail::strip_twos(v, x2, m);
    if (compare(u, v) >= 0) {
      sub_from(u, v);
      if (sub_from(x1, x2)) add_to(x1, m);
    } else {
      sub_from(v, u);
      if (sub_from(x2, x1)) add_to(x2, m);
    }
  }
  return detail::is_one(u) ? x1 : x2;
}

}  // namespace cuzk::arith
