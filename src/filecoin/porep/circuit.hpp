#pragma once
// The StackedDRG PoRep partition circuit (rust-fil-proofs
// storage-proofs-porep stacked/circuit/{proof,params,column,column_proof,hash}.rs,
// docs/FILECOIN.md §2.2-2.3), with the same variable numbering, constraint order
// and coefficients as upstream, so that the published Groth16 parameters
// apply. Built blank (no witness: shapes, key generation, counting) or from
// the vanilla StackedProofs of one partition (c1.json / sealing).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/vanilla.hpp"
#include "gadgets/por.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::circuit {

using ff::Fr;

inline constexpr size_t kDrgParents = 6;  // BASE_DEGREE
inline constexpr size_t kExpParents = 8;  // EXP_DEGREE

// Everything the circuit's structure depends on.
struct StackedCircuitParams {
  uint64_t nodes = 0;                   // sector nodes (32 bytes each), a power of two
  size_t layers = 0;                    // SDR layers = column height = column-hash arity
  size_t challenges = 0;                // challenges in this partition
  TreeShape shape;                      // TreeR / TreeC (TreeD is binary)
  ApiVersion api = ApiVersion::V1_1_0;  // recorded only: it changes parents, not the circuit

  // The per-partition circuit of a registered proof.
  static StackedCircuitParams from_config(const PorepConfig& c);
  // Throws std::invalid_argument naming the problem (non-power-of-two
  // nodes, nodes not divisible into the tree shape, zero layers, ...).
  void validate() const;
  size_t tree_d_depth() const;  // log2(nodes)
};

// The witness of one partition: the public values, the two private roots
// and one vanilla proof per challenge (in challenge order).
struct StackedWitness {
  Domain replica_id{}, comm_d{}, comm_r{};
  Domain comm_r_last{}, comm_c{};
  std::vector<StackedProof> proofs;

  // comm_r_last / comm_c taken from the first proof's TreeR / TreeC roots
  // (as rust-fil-proofs StackedCompound::circuit does).
  static StackedWitness from_proofs(const Domain& replica_id, const Domain& comm_d, const Domain& comm_r,
                                    std::vector<StackedProof> proofs);
};

class StackedCircuit : public r1cs::Circuit {
 public:
  // Blank circuit (every value missing).
  explicit StackedCircuit(const StackedCircuitParams& params);
  // With a witness; throws std::invalid_argument when it does not fit the
  // parameters (count of proofs, column heights, path lengths and arities,
  // non-canonical field elements, inconsistent challenge nodes).
  StackedCircuit(const StackedCircuitParams& params, const StackedWitness& witness);

  void synthesize(r1cs::ConstraintSystem& cs) const override;
  const StackedCircuitParams& params() const { return params_; }

  // The per-challenge part of the witness, converted to circuit values.
  struct Challenge {
    std::optional<Fr> data_leaf;
    std::optional<uint64_t> node;
    gadgets::MerkleAuthPath comm_d_path, comm_r_last_path, comm_c_path;
    std::vector<std::vector<std::optional<Fr>>> drg_columns, exp_columns;  // [parent][layer]
    std::vector<gadgets::MerkleAuthPath> drg_paths, exp_paths;
  };

 private:
  StackedCircuitParams params_;
  std::optional<Fr> replica_id_, comm_d_, comm_r_, comm_r_last_, comm_c_;
  std::vector<Challenge> challenges_;
};

// One challenged node with its 6 DRG and 8 expander parents (in graph order).
struct ChallengeParents {
  uint64_t node = 0;
  std::vector<uint64_t> drg;  // 6
  std::vector<uint64_t> exp;  // 8
};

// The public inputs of one partition (StackedCompound::generate_public_inputs,
// docs/FILECOIN.md §2.2), WITHOUT the constant ONE: replica_id, comm_d, comm_r,
// then per challenge: node, 6 DRG parents, 8 expander parents, node, node,
// node (18 each). This is what the Groth16 verifier pairs with IC[1..] and
// what TestConstraintSystem::verify compares. Throws std::invalid_argument for
// non-canonical domains, parent counts other than 6/8 or indices >= nodes.
std::vector<Fr> stacked_public_inputs(const StackedCircuitParams& params, const Domain& replica_id,
                                      const Domain& comm_d, const Domain& comm_r,
                                      std::span<const ChallengeParents> challenges);

}  // namespace cuzk::filecoin::circuit
