#pragma once
// SnapDeals randomness and challenges (storage-proofs-update vanilla.rs
// phi/rho and challenges.rs, docs/FILECOIN.md §7.11). Every hash here is Poseidon
// arity 2 with the custom domain tag 2^40 (HASH_TYPE_GEN_RANDOMNESS).
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"
#include "filecoin/snap/snap_config.hpp"

namespace cuzk::filecoin {

// Poseidon2 with tag 2^40 (round constants and MDS of MerkleTree arity 2).
ff::Fr snap_randomness_hash(const ff::Fr& a, const ff::Fr& b);
// phi = H(comm_d_new, comm_r_old).
ff::Fr snap_phi(const ff::Fr& comm_d_new, const ff::Fr& comm_r_old);
// rho = H(phi, high), high = the top h bits of a node index.
ff::Fr snap_rho(const ff::Fr& phi, uint64_t high);
// The `high` of node `node`: node >> (log2(nodes) - h).
uint64_t snap_node_high(const SnapConfig& c, uint64_t node);

// The challenge_count challenged nodes of partition k, all inside the k-th
// 1/partitions of the sector: random_bits little-endian bits taken in turn
// from digest_j = H(comm_r_new, k·digests_per_partition + j), with k above
// them.
std::vector<uint32_t> snap_challenges(const SnapConfig& c, const ff::Fr& comm_r_new, size_t k);

}  // namespace cuzk::filecoin
