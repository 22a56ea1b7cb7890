#include "filecoin/porep/c2.hpp"

#include <stdexcept>

#include "filecoin/sdr/challenges.hpp"
#include "filecoin/sdr/parents.hpp"
#include "filecoin/sdr/replica_id.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"

namespace cuzk::filecoin {

circuit::StackedCircuit porep_blank_circuit(const PorepConfig& config) {
  return circuit::StackedCircuit(circuit::StackedCircuitParams::from_config(config));
}

circuit::StackedCircuit porep_partition_circuit(const SealCommitPhase1Output& c1, const PorepConfig& config,
                                                size_t k) {
  if (k >= c1.vanilla_proofs.size())
    throw std::invalid_argument("partition " + std::to_string(k) + " requested, c1 has " +
                                std::to_string(c1.vanilla_proofs.size()));
  auto witness =
      circuit::StackedWitness::from_proofs(c1.replica_id, c1.comm_d, c1.comm_r, c1.vanilla_proofs[k]);
  return circuit::StackedCircuit(circuit::StackedCircuitParams::from_config(config), witness);
}

std::vector<ff::Fr> porep_public_inputs(const PorepConfig& config, const Domain& replica_id,
                                        const Domain& comm_d, const Domain& comm_r, const Domain& seed,
                                        size_t k) {
  SdrGraph graph(config);
  std::vector<circuit::ChallengeParents> cps;
  for (uint64_t c : porep_challenges(config, replica_id, seed, comm_r, k)) {
    uint32_t row[kParentCount];
    graph.parents(c, row);
    circuit::ChallengeParents cp;
    cp.node = c;
    cp.drg.assign(row, row + kDrgDegree);
    cp.exp.assign(row + kDrgDegree, row + kParentCount);
    cps.push_back(std::move(cp));
  }
  return circuit::stacked_public_inputs(circuit::StackedCircuitParams::from_config(config), replica_id,
                                        comm_d, comm_r, cps);
}

void check_c1_challenges(const SealCommitPhase1Output& c1, const PorepConfig& config) {
  // Upstream's C2 (seal_commit_phase2_circuit_proofs) refuses an all-zero seed
  // for every mode, NI-PoRep included, whose challenges do not read it. It is
  // also what a synthetic C1 carries when made before the seed was known
  // (generate_synth_proofs), with no vanilla proofs.
  if (c1.seed == Domain{})
    throw std::invalid_argument("seed: all zero (no interactive seed; upstream's C2 refuses it)");
  if (c1.vanilla_proofs.size() != config.partitions)
    throw std::invalid_argument("c1 has " + std::to_string(c1.vanilla_proofs.size()) + " partitions, " +
                                std::string(config.name) + " needs " + std::to_string(config.partitions));
  for (size_t k = 0; k < config.partitions; k++) {
    auto want = porep_challenges(config, c1.replica_id, c1.seed, c1.comm_r, k);
    const auto& got = c1.vanilla_proofs[k];
    if (got.size() != want.size())
      throw std::invalid_argument("partition " + std::to_string(k) + ": " + std::to_string(got.size()) +
                                  " vanilla proofs for " + std::to_string(want.size()) + " challenges");
    for (size_t i = 0; i < want.size(); i++) {
      uint64_t node = got[i].replica_column_proofs.c_x.column.index;
      if (node != want[i])
        throw std::invalid_argument("partition " + std::to_string(k) + " challenge " + std::to_string(i) +
                                    ": proves node " + std::to_string(node) + ", the seed selects node " +
                                    std::to_string(want[i]));
    }
  }
}

std::vector<uint8_t> seal_commit_phase2(const SealCommitPhase1Output& c1, const groth16::Parameters& params) {
  auto config = porep_config(uint64_t(c1.registered_proof));
  if (!config) throw std::invalid_argument("unknown registered proof");
  return seal_commit_phase2(c1, *config, params);
}

std::vector<uint8_t> seal_commit_phase2(const SealCommitPhase1Output& c1, const PorepConfig& config,
                                        const groth16::Parameters& params) {
  if (c1.registered_proof != config.id)
    throw std::invalid_argument("c1 is for registered proof " +
                                std::to_string(uint64_t(c1.registered_proof)) + ", the config for " +
                                std::string(config.name));
  check_c1_challenges(c1, config);
  groth16::SecureRng rng;
  std::vector<groth16::Proof> proofs;
  for (size_t k = 0; k < config.partitions; k++)
    proofs.push_back(groth16::prove(porep_partition_circuit(c1, config, k), params, rng));
  return groth16::encode_proofs(proofs);
}

bool verify_seal(const PorepConfig& config, const groth16::PreparedVerifyingKey& pvk, const Domain& comm_r,
                 const Domain& comm_d, const Domain& replica_id, const Domain& seed,
                 std::span<const uint8_t> proof) {
  if (proof.size() != config.partitions * groth16::kProofBytes) return false;
  std::vector<groth16::Proof> proofs;
  try {
    proofs = groth16::decode_proofs(proof, "seal proof");
  } catch (const std::exception&) {
    return false;
  }
  for (size_t k = 0; k < config.partitions; k++) {
    std::vector<ff::Fr> inputs;
    try {
      inputs = porep_public_inputs(config, replica_id, comm_d, comm_r, seed, k);
    } catch (const std::invalid_argument&) {
      return false;  // a commitment that is not a field element
    }
    if (!groth16::verify_proof(pvk, proofs[k], inputs)) return false;
  }
  return true;
}

bool verify_seal(const PorepConfig& config, const groth16::PreparedVerifyingKey& pvk, const Domain& comm_r,
                 const Domain& comm_d, uint64_t miner_id, uint64_t sector_num, const Domain& ticket,
                 const Domain& seed, std::span<const uint8_t> proof) {
  Domain rid = replica_id(prover_id_from_actor_id(miner_id), sector_num, ticket, comm_d, config.porep_id());
  return verify_seal(config, pvk, comm_r, comm_d, rid, seed, proof);
}

}  // namespace cuzk::filecoin
