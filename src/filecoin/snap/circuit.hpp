#pragma once
// The EmptySectorUpdate circuit of one partition (storage-proofs-update
// circuit.rs, docs/FILECOIN.md §7.11): public k_and_h_select, comm_r_old,
// comm_d_new, comm_r_new; phi from the public commitments; comm_c, the two
// TreeR roots and the apex leaves witnessed once; the apex tree proved into
// comm_d_new; the challenges re-derived from comm_r_new; per challenge rho,
// the encoding of the new leaf, inclusion in TreeROld and TreeRNew and the
// TreeD path of the data up to its apex leaf. Same variables, constraints and
// coefficients as upstream, so the published parameters apply.
#include <optional>
#include <vector>

#include "filecoin/snap/vanilla.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin {

class EmptySectorUpdateCircuit : public r1cs::Circuit {
 public:
  explicit EmptySectorUpdateCircuit(const SnapConfig& c);  // blank: setup, counting
  // Partition k of an update with these public commitments. Throws
  // std::invalid_argument naming the partition and field when the proof does
  // not have the circuit's shape (run verify_snap_vanilla for the rest).
  EmptySectorUpdateCircuit(const SnapConfig& c, size_t k, const SnapPublic& pub,
                           const SnapPartitionProof& proof);

  void synthesize(r1cs::ConstraintSystem& cs) const override;

 private:
  using Opt = std::optional<ff::Fr>;
  using Path = std::vector<std::vector<Opt>>;  // siblings per level, leaf to root
  struct Challenge {
    Opt leaf_r_old, leaf_d_new;
    Path path_r_old, path_r_new;
    std::vector<Opt> path_d;  // TreeD siblings from the leaf up to the apex leaf
  };

  SnapConfig cfg_;
  Opt k_and_h_select_, comm_r_old_, comm_d_new_, comm_r_new_;
  Opt comm_c_, root_r_old_, root_r_new_;
  std::vector<Opt> apex_leafs_, partition_path_;
  std::vector<Challenge> challenges_;
};

// The public inputs of partition k (without ONE), computed from the
// configuration and the commitments alone: [k | h_select << partition_bits,
// comm_r_old, comm_d_new, comm_r_new]. Throws std::invalid_argument for a
// commitment that is not a field element.
std::vector<ff::Fr> snap_public_inputs(const SnapConfig& c, size_t k, const SnapPublic& pub);

}  // namespace cuzk::filecoin
