#pragma once
// PoRep commit phase 2 (docs/FILECOIN.md §2, §5.3): one StackedDRG circuit per
// partition from the vanilla proofs of c1, Groth16 proofs concatenated in
// partition order, and verify_seal, which recomputes every partition's
// public inputs from (replica_id, comm_d, comm_r, seed, config) alone.
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/circuit.hpp"
#include "filecoin/porep/vanilla.hpp"
#include "groth16/params.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::filecoin {

// The blank per-partition circuit of a registered proof (key generation,
// counting).
circuit::StackedCircuit porep_blank_circuit(const PorepConfig& config);

// Partition k's circuit with its witness. Throws std::invalid_argument when
// k is out of range or the vanilla proofs do not fit the config.
circuit::StackedCircuit porep_partition_circuit(const SealCommitPhase1Output& c1, const PorepConfig& config,
                                                size_t k);

// Partition k's public inputs without ONE: the challenges of k and their
// parents in the SDR graph of `config`.
std::vector<ff::Fr> porep_public_inputs(const PorepConfig& config, const Domain& replica_id,
                                        const Domain& comm_d, const Domain& comm_r, const Domain& seed,
                                        size_t k);

// Checks that the challenges c1 proves for partition k are the ones its
// config's mode derives (interactive and synthetic from the seed, NI-PoRep
// from comm_r), so a c1 for another seed or partition order is refused early,
// and that the seed is not all zero (upstream's C2 refuses that). Throws
// std::invalid_argument naming the partition and challenge.
void check_c1_challenges(const SealCommitPhase1Output& c1, const PorepConfig& config);

// All partitions, proved one after the other: config.partitions × 192 bytes
// (for NI-PoRep these are the partition proofs upstream's
// seal_commit_phase2_circuit_proofs returns, not the SnarkPack aggregate).
std::vector<uint8_t> seal_commit_phase2(const SealCommitPhase1Output& c1, const groth16::Parameters& params);
// With an explicit config (porep_config_with_id: another porep_id or API
// version); c1.registered_proof must be the config's proof.
std::vector<uint8_t> seal_commit_phase2(const SealCommitPhase1Output& c1, const PorepConfig& config,
                                        const groth16::Parameters& params);

// Verifies a concatenated multi-partition proof. Returns false for a proof
// of the wrong length, an undecodable point or a failing partition. The
// config may carry an explicit porep_id and API version
// (porep_config_with_id), as upstream's PoRepConfig does.
bool verify_seal(const PorepConfig& config, const groth16::PreparedVerifyingKey& pvk, const Domain& comm_r,
                 const Domain& comm_d, const Domain& replica_id, const Domain& seed,
                 std::span<const uint8_t> proof);
// As rust-filecoin-proofs verify_seal: replica_id derived from the miner's
// actor id, sector number, ticket, comm_d and the porep_id.
bool verify_seal(const PorepConfig& config, const groth16::PreparedVerifyingKey& pvk, const Domain& comm_r,
                 const Domain& comm_d, uint64_t miner_id, uint64_t sector_num, const Domain& ticket,
                 const Domain& seed, std::span<const uint8_t> proof);

}  // namespace cuzk::filecoin
