#pragma once
// Sector update encoding on test sectors (storage-proofs-update vanilla.rs
// encode_into / decode_from, docs/FILECOIN.md §7.11): new data goes into TreeD
// (comm_d_new); phi = H(comm_d_new, comm_r_old); each node of the new replica
// is old + data·rho(high bits of its index); TreeRNew over it has the old
// shape and comm_r_new = Poseidon2(comm_c, root_r_new). Then the vanilla
// partition proofs a prover sends for it. In memory, for test sizes.
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/porep/seal.hpp"
#include "filecoin/snap/vanilla.hpp"
#include "filecoin/tree/poseidon_tree.hpp"
#include "filecoin/tree/tree_d.hpp"

namespace cuzk::filecoin {

struct SnapUpdate {
  SnapConfig cfg;
  Fr comm_c, comm_r_old, phi, comm_r_new;
  TreeD tree_d_new;  // root: comm_d_new
  PoseidonTree tree_r_old, tree_r_new;

  SnapPublic public_inputs() const;  // comm_r_old, comm_d_new, comm_r_new as 32-byte domains
};

// The new replica, node by node: old[i] + data[i]·rho(phi, high(i)).
// Throws std::invalid_argument on a length mismatch or a data node that is
// not a canonical Fr.
std::vector<Fr> snap_encode_replica(const SnapConfig& c, std::span<const Fr> old_replica,
                                    std::span<const Domain> data, const Fr& phi);
// The data back: (new[i] - old[i])·rho(phi, high(i))^-1.
std::vector<Domain> snap_decode_replica(const SnapConfig& c, std::span<const Fr> old_replica,
                                        std::span<const Fr> new_replica, const Fr& phi);

// Encodes `data` (c.nodes fr32-padded nodes) into the replica whose TreeR is
// `tree_r_old` (its leaves are the sector key) with the sector's comm_c.
SnapUpdate encode_sector_update(const SnapConfig& c, PoseidonTree tree_r_old, const Fr& comm_c,
                                std::span<const Domain> data);
// The same for a sealed sector and its new data as fr32-padded bytes
// (c.sector_size of them; empty: all zero). Throws std::invalid_argument
// when the sector's size or tree shape is not the config's.
SnapUpdate encode_sector_update(const SnapConfig& c, const SealedSector& s,
                                std::span<const uint8_t> padded_data);

// The vanilla proof of partition k: comm_c, the partition's apex leaves of
// TreeDNew and, per challenge, its openings in TreeROld, TreeDNew, TreeRNew.
SnapPartitionProof snap_partition_proof(const SnapUpdate& u, size_t k);

}  // namespace cuzk::filecoin
