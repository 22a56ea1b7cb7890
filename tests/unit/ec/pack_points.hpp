#pragma once
// Points written in snarkjs's packed layout (ec::PackedAffineSpan): each Fp
// coordinate as x·2^384 mod p, 48 bytes little-endian, computed with GMP
// from the canonical value; G2 coordinates as (c0, c1); the point at
// infinity as zero bytes. `lead` bytes come first, so the points can start
// at an address that is not 8-byte aligned.
#include <gmpxx.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ec/bls12_381.hpp"
#include "unit/ec/ec_test_util.hpp"

namespace cuzk::ec::test {

inline void put_mont_fp(std::vector<uint8_t>& out, const ff::Fp& x) {
  const mpz_class p = to_mpz(ff::Fp::MODULUS);
  mpz_class m = (to_mpz(x.to_canonical()) << 384) % p;
  for (int i = 0; i < 48; i++) {
    mpz_class byte = m & 0xff;
    out.push_back(uint8_t(byte.get_ui()));
    m >>= 8;
  }
}
inline void put_mont(std::vector<uint8_t>& out, const ff::Fp& x) { put_mont_fp(out, x); }
inline void put_mont(std::vector<uint8_t>& out, const ff::Fp2& x) {
  put_mont_fp(out, x.c0);
  put_mont_fp(out, x.c1);
}

template <class C>
std::vector<uint8_t> pack_points(std::span<const Affine<C>> pts, size_t lead = 0) {
  std::vector<uint8_t> out(lead, 0xee);
  for (const auto& a : pts) {
    if (a.is_identity()) {
      out.resize(out.size() + 2 * sizeof(typename C::Base), 0);
      continue;
    }
    put_mont(out, a.x);
    put_mont(out, a.y);
  }
  return out;
}

}  // namespace cuzk::ec::test
