#include "filecoin/snap/prove.hpp"

#include <stdexcept>
#include <string>

#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"

namespace cuzk::filecoin {

std::vector<uint8_t> prove_snap_partition(const SnapConfig& c, size_t k, const SnapPublic& pub,
                                          const SnapPartitionProof& proof,
                                          const groth16::Parameters& params) {
  groth16::SecureRng rng;
  const groth16::Proof p[1] = {groth16::prove(EmptySectorUpdateCircuit(c, k, pub, proof), params, rng)};
  return groth16::encode_proofs(p);
}

std::vector<uint8_t> prove_empty_sector_update(const SnapConfig& c, const SnapPublic& pub,
                                               std::span<const SnapPartitionProof> proofs,
                                               const groth16::Parameters& params) {
  if (proofs.size() != c.partitions)
    throw std::invalid_argument(std::to_string(proofs.size()) + " partition proofs, the update has " +
                                std::to_string(c.partitions) + " partitions");
  std::vector<uint8_t> out;
  for (size_t k = 0; k < proofs.size(); k++) {
    auto p = prove_snap_partition(c, k, pub, proofs[k], params);
    out.insert(out.end(), p.begin(), p.end());
  }
  return out;
}

bool verify_empty_sector_update(const SnapConfig& c, const groth16::PreparedVerifyingKey& pvk,
                                const SnapPublic& pub, std::span<const uint8_t> proof) {
  if (proof.size() != c.partitions * groth16::kProofBytes) return false;
  try {
    auto proofs = groth16::decode_proofs(proof, "SnapDeals proof");
    for (size_t k = 0; k < proofs.size(); k++)
      if (!groth16::verify_proof(pvk, proofs[k], snap_public_inputs(c, k, pub))) return false;
    return true;
  } catch (const std::exception&) {
    return false;  // not a proof encoding, or a commitment that is not a field element
  }
}

}  // namespace cuzk::filecoin
