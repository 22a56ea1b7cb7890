#pragma once
// SnapDeals end to end: the Groth16 proof of each partition of an update and
// filecoin-proofs' verify_empty_sector_update_proof (public inputs
// recomputed from the registered size and the three commitments only).
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/snap/circuit.hpp"
#include "groth16/params.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::filecoin {

// Partition k's 192-byte proof.
std::vector<uint8_t> prove_snap_partition(const SnapConfig& c, size_t k, const SnapPublic& pub,
                                          const SnapPartitionProof& proof, const groth16::Parameters& params);
// Every partition (proofs[k] for partition k), concatenated in partition order.
std::vector<uint8_t> prove_empty_sector_update(const SnapConfig& c, const SnapPublic& pub,
                                               std::span<const SnapPartitionProof> proofs,
                                               const groth16::Parameters& params);

// True iff `proof` is c.partitions valid 192-byte proofs, partition k for the
// inputs of k. False for any mismatch, including commitments that are not
// field elements.
bool verify_empty_sector_update(const SnapConfig& c, const groth16::PreparedVerifyingKey& pvk,
                                const SnapPublic& pub, std::span<const uint8_t> proof);

}  // namespace cuzk::filecoin
