#pragma once
// Poseidon's dense mixing s <- s·M (poseidon_rounds.hpp) on AVX-512 IFMA
// (arith/ifma52.hpp): eight outputs at a time, each output's t products
// summed unreduced and reduced once, instead of t Montgomery products and
// t - 1 modular additions per output on the scalar kernels. The entries of
// M are kept times 2^260 (the eight-lane kernels' Montgomery radix), so that
// a product of an element in Fr's form (times 2^256) with one of them lands
// back in Fr's form, as the NTT's twiddles do. Results are canonical and
// bit-identical to the scalar mixing.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

// The tables (PoseidonMixTable, poseidon_constants.hpp) of a matrix.
PoseidonMixTable make_poseidon_mix_table(const FrMatrix& m);

// s <- s·m, with `table` made from m. False, s untouched, where the table is
// empty or the CPU has no IFMA (the caller mixes with the scalar code).
bool poseidon_mix_dense_ifma(const PoseidonMixTable& table, const FrMatrix& m, Fr* s);

}  // namespace cuzk::gadgets
