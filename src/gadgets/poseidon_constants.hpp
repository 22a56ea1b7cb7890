#pragma once
// The constants of one Poseidon instance (neptune v11, docs/FILECOIN.md §3): plain
// data shared by the native hash (src/filecoin/hash, which derives them) and
// the circuit gadget (gadgets/poseidon.hpp, which turns them into R1CS
// coefficients). Matrices are t×t, row-major.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::gadgets {

using ff::Fr;

enum class PoseidonStrength { Standard, Strengthened };

struct FrMatrix {
  size_t n = 0;
  std::vector<Fr> a;  // row-major

  FrMatrix() = default;
  explicit FrMatrix(size_t size) : n(size), a(size * size) {}
  Fr& operator()(size_t i, size_t j) { return a[i * n + j]; }
  const Fr& operator()(size_t i, size_t j) const { return a[i * n + j]; }
  friend bool operator==(const FrMatrix&, const FrMatrix&) = default;
};

// neptune's SparseMatrix: the M'' factor of a partial round, whose minor at
// (0,0) is the identity; w_hat is column 0 (length t), v_rest row 0 without
// its first entry (length t-1).
struct PoseidonSparseMatrix {
  std::vector<Fr> w_hat;
  std::vector<Fr> v_rest;
  friend bool operator==(const PoseidonSparseMatrix&, const PoseidonSparseMatrix&) = default;
};

// A matrix's entries in the form the IFMA mixing reads
// (gadgets/poseidon_mix_ifma.hpp): per block of eight outputs, per row i,
// five 52-bit limbs of eight lanes (entry (i, 8·block + lane), times 2^260
// mod r; zero past the width). Blocks of a single output are left to the
// scalar code. Empty where the mixing is not taken on IFMA (a width above
// kMaxIfmaMixWidth, whose sums would outgrow the reduction's bound, or a
// build for another architecture).
struct PoseidonMixTable {
  static constexpr size_t kMaxIfmaMixWidth = 16;
  size_t n = 0;
  std::vector<uint64_t> limbs;
  friend bool operator==(const PoseidonMixTable&, const PoseidonMixTable&) = default;
};

struct PoseidonConstants {
  size_t arity = 0;
  size_t width = 0;  // arity + 1
  PoseidonStrength strength = PoseidonStrength::Standard;
  size_t full_rounds = 0, half_full_rounds = 0, partial_rounds = 0;
  std::vector<Fr> round_constants;  // Grain LFSR output, (RF+RP)·t
  FrMatrix mds, mds_inv;
  // The optimized ("static") form: RF·t + RP compressed constants, the dense
  // matrix used before the first partial round, one sparse matrix per
  // partial round.
  std::vector<Fr> compressed_round_constants;
  FrMatrix pre_sparse;
  std::vector<PoseidonSparseMatrix> sparse;
  // mds and pre_sparse for the IFMA mixing (empty: the scalar mixing).
  PoseidonMixTable mds_ifma, pre_sparse_ifma;
  // The sparse factors for the partial rounds on IFMA lanes
  // (PoseidonPartialLanes, gadgets/poseidon_mix_ifma.hpp): per round, ŵ[1..t)
  // and then v, each five 52-bit limbs of eight lanes, times 2^260 mod r.
  // Empty (the scalar rounds) where t - 1 exceeds eight lanes or t < 5.
  std::vector<uint64_t> sparse_ifma;
};

}  // namespace cuzk::gadgets
