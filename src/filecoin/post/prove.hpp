#pragma once
// WinningPoSt / WindowPoSt end to end on test sectors: vanilla proofs from a
// sealed sector (what Curio's Rust prover hands cuzk), the Groth16 proof of
// one partition, and the verifiers (filecoin-proofs verify_winning_post /
// verify_window_post with the public inputs recomputed from randomness,
// sector ids and comm_r).
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/porep/seal.hpp"
#include "filecoin/post/circuit.hpp"
#include "groth16/params.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::filecoin {

// The vanilla proof of sector `s` (its id: s.sector_num) at position
// `sector_index` of the proved list.
FallbackPoStSectorProof post_vanilla_proof(const PostConfig& c, const SealedSector& s,
                                           const Domain& randomness, uint64_t sector_index);

// One partition's 192-byte proof.
std::vector<uint8_t> prove_post_partition(const PostConfig& c,
                                          std::span<const FallbackPoStSectorProof> proofs,
                                          const groth16::Parameters& params);

// Verifies the proof of partition `k` (192 bytes) against the whole list of
// proved sectors (Winning: the one sector). False for any mismatch,
// including a comm_r that is not a field element.
bool verify_post_partition(const PostConfig& c, const groth16::PreparedVerifyingKey& pvk,
                           const Domain& randomness, std::span<const PostPublicSector> sectors, size_t k,
                           std::span<const uint8_t> proof);

}  // namespace cuzk::filecoin
