#pragma once
// Fallback PoSt vanilla proofs (storage-proofs-post fallback/vanilla.rs) and
// their bincode form as Curio sends them (docs/FILECOIN.md §7.12): one
// FallbackPoStSectorProof per sector, each holding the TreeR inclusion
// proofs of that sector's challenged leaves.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/common/merkle_proof.hpp"

namespace cuzk::filecoin {

// SectorProof: TreeR inclusion proofs (root comm_r_last) and the two roots
// whose Poseidon hash is comm_r.
struct PostSectorProof {
  std::vector<MerkleProof> inclusion_proofs;
  Domain comm_c{}, comm_r_last{};
};

// filecoin-proofs FallbackPoStSectorProof: { sector_id, comm_r, vanilla_proof: Proof { sectors } }.
struct FallbackPoStSectorProof {
  uint64_t sector_id = 0;
  Domain comm_r{};
  std::vector<PostSectorProof> sectors;
};

// Throws BincodeError naming `what`, the field and the byte offset.
FallbackPoStSectorProof read_post_sector_proof(std::span<const uint8_t> bytes, const std::string& what);
std::string write_post_sector_proof(const FallbackPoStSectorProof& p);

// Curio's file of vanilla proofs: a JSON array of standard-base64 strings,
// one bincode buffer each (Go's json.Marshal([][]byte)). The reader throws
// std::invalid_argument naming the element.
std::string vanilla_proofs_to_json(const std::vector<std::string>& blobs);
std::vector<std::string> vanilla_proofs_from_json(std::string_view text);

}  // namespace cuzk::filecoin
