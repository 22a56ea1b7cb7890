#include "filecoin/post/prove.hpp"

#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"

namespace cuzk::filecoin {

FallbackPoStSectorProof post_vanilla_proof(const PostConfig& c, const SealedSector& s,
                                           const Domain& randomness, uint64_t sector_index) {
  FallbackPoStSectorProof fp;
  fp.sector_id = s.sector_num;
  fp.comm_r = s.comm_r;
  PostSectorProof sp;
  sp.comm_c = s.comm_c;
  sp.comm_r_last = s.comm_r_last;
  for (uint64_t leaf : post_vanilla_challenges(c, randomness, s.sector_num, sector_index))
    sp.inclusion_proofs.push_back(s.trees.tree_r.proof(leaf));
  fp.sectors.push_back(std::move(sp));
  return fp;
}

std::vector<uint8_t> prove_post_partition(const PostConfig& c,
                                          std::span<const FallbackPoStSectorProof> proofs,
                                          const groth16::Parameters& params) {
  groth16::SecureRng rng;
  const groth16::Proof p[1] = {groth16::prove(FallbackPostCircuit(c, proofs), params, rng)};
  return groth16::encode_proofs(p);
}

bool verify_post_partition(const PostConfig& c, const groth16::PreparedVerifyingKey& pvk,
                           const Domain& randomness, std::span<const PostPublicSector> sectors, size_t k,
                           std::span<const uint8_t> proof) {
  if (proof.size() != groth16::kProofBytes) return false;
  try {
    auto proofs = groth16::decode_proofs(proof, "PoSt proof");
    return groth16::verify_proof(pvk, proofs[0], post_public_inputs(c, randomness, sectors, k));
  } catch (const std::exception&) {
    return false;  // not a proof encoding, or a comm_r that is not a field element
  }
}

}  // namespace cuzk::filecoin
