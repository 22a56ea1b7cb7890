#pragma once
// Native Poseidon as Filecoin uses it (neptune v11, docs/FILECOIN.md §3): state
// element 0 is the domain tag, the preimage fills elements 1..arity (zeros
// after a short preimage), the digest is element 1 after the permutation.
#include <span>

#include "filecoin/hash/poseidon_constants.hpp"

namespace cuzk::filecoin {

// Domain tags (neptune hash_type.rs).
Fr poseidon_tag_merkle_tree(size_t arity);      // 2^arity - 1 (all Filecoin trees)
Fr poseidon_tag_constant_length(uint64_t len);  // len · 2^64
Fr poseidon_tag_encryption();                   // 2^32
Fr poseidon_tag_custom(uint64_t id);            // id · 2^40, id in 1..=256

// The reference permutation (neptune HashMode::Correct), in place.
void poseidon_permute_correct(const PoseidonConstants& c, std::span<Fr> state);
// The optimized static permutation (compressed constants, sparse matrices).
void poseidon_permute(const PoseidonConstants& c, std::span<Fr> state);

// Hash of up to `arity` elements with the given domain tag (optimized form).
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage, const Fr& tag);
// Same with the reference permutation (tests).
Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage, const Fr& tag);
// MerkleTree hash, arity = preimage.size(), Standard strength.
Fr poseidon_hash(std::span<const Fr> preimage);

// filecoin-hashers hash_md: arity-36 chaining, each step hashing the
// accumulator and the next 35 elements (zero-padded at the end).
Fr poseidon_hash_md(std::span<const Fr> input);

}  // namespace cuzk::filecoin
