#pragma once
// Derivation of neptune v11's Poseidon constants (docs/FILECOIN.md §3.1-3.3, 3.6):
// round numbers, Grain-LFSR round constants, the Cauchy MDS matrix, the
// compressed round constants and the sparse-matrix factorisation that the
// optimized hash and the circuit use.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "gadgets/poseidon_constants.hpp"

namespace cuzk::filecoin {

using ff::Fr;
using gadgets::FrMatrix;
using gadgets::PoseidonConstants;
using gadgets::PoseidonSparseMatrix;
using gadgets::PoseidonStrength;

// (RF, RP) for width t = arity + 1: calc_round_numbers(t, margin) for
// Standard, with RP raised by 25% (rounded up) for Strengthened.
std::pair<size_t, size_t> poseidon_round_numbers(size_t arity, PoseidonStrength strength);

// neptune generate_constants(field=1, sbox=1, field_size=255, t, RF, RP).
std::vector<Fr> poseidon_grain_constants(size_t t, size_t rf, size_t rp);

// Cauchy matrix M[i][j] = 1/(i + (t + j)).
FrMatrix poseidon_mds(size_t t);

// Row-vector product v·M, the way neptune applies every matrix.
std::vector<Fr> apply_matrix(const FrMatrix& m, std::span<const Fr> v);
FrMatrix mat_mul(const FrMatrix& a, const FrMatrix& b);
// Gauss-Jordan inverse; throws std::invalid_argument if singular.
FrMatrix invert(const FrMatrix& m);

// Everything for one instance (a few ms for arity 8; arity 36 takes longer).
PoseidonConstants make_poseidon_constants(size_t arity,
                                          PoseidonStrength strength = PoseidonStrength::Standard);

// Process-wide cache of make_poseidon_constants; thread-safe, never freed.
const PoseidonConstants& poseidon_constants(size_t arity,
                                            PoseidonStrength strength = PoseidonStrength::Standard);

// supra_seal's constants file layout (32-byte LE Montgomery limbs):
// [compressed rc][M row-major][pre_sparse row-major][RP × (w_hat[t], v_rest[t-1])].
std::vector<uint8_t> serialize_optimized_constants(const PoseidonConstants& c);

}  // namespace cuzk::filecoin
