#pragma once
// Poseidon's rounds (poseidon_rounds.hpp) on AVX-512 IFMA (arith/ifma52.hpp),
// for the native hash and the witness-only gadget alike. The dense mixing
// s <- s·M eight outputs at a time, each output's t products summed
// unreduced and reduced once, instead of t Montgomery products and t - 1
// modular additions per output on the scalar kernels; and the partial
// rounds with the state's elements 1..t-1 in lanes (PoseidonPartialLanes).
// Constant entries are kept times 2^260 (the eight-lane kernels' Montgomery
// radix), so that a product of an element in Fr's form (times 2^256) with
// one of them lands back in Fr's form, as the NTT's twiddles do. Results are
// canonical and bit-identical to the scalar code.
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

// The partial rounds' sparse factors in the form PoseidonPartialLanes reads
// (PoseidonConstants::sparse_ifma), or empty.
std::vector<uint64_t> make_poseidon_sparse_table(const std::vector<PoseidonSparseMatrix>& sparse,
                                                 size_t width);

// The partial rounds with elements 1..t-1 of the state held in IFMA lanes
// from the first partial round to the last. Element 0's next value is
// ŵ[0]·y + Σ ŵ[i]·s[i] for its S-box output y, and the lanes take
// s[i] += v[i-1]·y (one eight-lane product). The S-box stays with the
// caller (the witness records its values); the sum over the lanes does not
// depend on y, so the caller asks for it (dot) before the S-box, whose
// products it then overlaps.
class PoseidonPartialLanes {
 public:
  // Takes s[1..t) into the lanes; false (nothing taken) where the CPU has no
  // IFMA or c has no sparse_ifma.
  bool begin(const PoseidonConstants& c, const Fr* s);
  // Σ ŵ[i]·s[i] (i >= 1) of partial round r, before the round.
  Fr dot(size_t r) const;
  // Partial round r with S-box output y and dot(r): element 0's next value.
  Fr round(size_t r, const Fr& y, const Fr& dot);
  // s[1..t) back from the lanes.
  void end(Fr* s) const;

 private:
  const uint64_t* table_ = nullptr;
  const PoseidonSparseMatrix* sparse_ = nullptr;
  size_t width_ = 0;
  alignas(64) uint64_t lanes_[5][8];  // radix 2^52 limbs, lane i - 1 = s[i]
};

}  // namespace cuzk::gadgets
