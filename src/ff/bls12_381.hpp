#pragma once
// The two BLS12-381 prime fields: the base field Fp (381 bits) and the
// scalar field Fr (255 bits, the field of Groth16 witnesses).
#include "ff/field.hpp"

namespace cuzk::ff {

struct Bls12381FpParams {
  static constexpr size_t N = 6;
  static constexpr auto modulus = arith::parse_hex<6>(
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
  static constexpr uint64_t nonresidue = 2;  // p = 3 mod 4, so -1 works too
};

struct Bls12381FrParams {
  static constexpr size_t N = 4;
  static constexpr auto modulus =
      arith::parse_hex<4>("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
  // 7 generates Fr^* (blstrs MULTIPLICATIVE_GENERATOR), hence a non-residue.
  static constexpr uint64_t nonresidue = 7;
};

using Fp = Field<Bls12381FpParams>;
using Fr = Field<Bls12381FrParams>;

static_assert(Fp::NUM_BITS == 381 && Fp::BYTES == 48);
static_assert(Fr::NUM_BITS == 255 && Fr::BYTES == 32);
static_assert(Fr::S == 32, "docs/FILECOIN.md §1.5: two-adicity 32");
static_assert(Fp::INV == 0x89f3fffcfffcfffdULL);
static_assert(Fr::INV == 0xfffffffeffffffffULL);

}  // namespace cuzk::ff

#include "ff/fp2.hpp"
namespace cuzk::ff {
using Fp2 = QuadExt<Fp>;
}
