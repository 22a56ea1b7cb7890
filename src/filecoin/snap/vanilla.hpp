#pragma once
// SnapDeals vanilla partition proofs (storage-proofs-update vanilla.rs
// PartitionProof) and their bincode form as Curio sends them: one buffer per
// partition in `vanilla_proofs` (docs/FILECOIN.md §7.12), and a complete cheap
// check of one against the public commitments, as admission runs it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/snap/snap_config.hpp"

namespace cuzk::filecoin {

// ChallengeProof: the challenged node opened in the old replica's TreeR, the
// new data's TreeD (binary SHA-256, Single) and the new replica's TreeR.
struct SnapChallengeProof {
  MerkleProof proof_r_old, proof_d_new, proof_r_new;
};

struct SnapPartitionProof {
  Domain comm_c{};
  std::vector<Domain> apex_leafs;  // this partition's TreeDNew nodes at the apex level
  std::vector<SnapChallengeProof> challenge_proofs;
};

// The public commitments of an update, raw 32-byte domains as on the wire.
struct SnapPublic {
  Domain comm_r_old{}, comm_d_new{}, comm_r_new{};
};

// Throws BincodeError naming `what`, the field and the byte offset.
SnapPartitionProof read_snap_partition_proof(std::span<const uint8_t> bytes, const std::string& what);
std::string write_snap_partition_proof(const SnapPartitionProof& p);

// What EmptySectorUpdate::verify checks, and everything the circuit needs to
// be satisfiable: counts and shapes, each path hashed to its root, the roots
// shared by all challenges, comm_r_old = H(comm_c, root_r_old) and likewise
// new, TreeD roots = comm_d_new, each opening at the challenge derived from
// comm_r_new, each new leaf the encoding of the old one and the data, the
// apex leaves hashing to the partition's node of TreeDNew and holding each
// challenge's path. Throws std::invalid_argument "partition <k> <field>: ...".
void verify_snap_vanilla(const SnapConfig& c, const SnapPublic& pub, const SnapPartitionProof& p, size_t k);

}  // namespace cuzk::filecoin
