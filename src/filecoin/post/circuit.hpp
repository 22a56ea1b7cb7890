#pragma once
// The fallback PoSt circuit (storage-proofs-post fallback/circuit.rs,
// docs/FILECOIN.md §7.11): `sector_count` sector slots, each allocating
// comm_r_last, comm_c, comm_r (made public), enforcing
// comm_r = Poseidon2(comm_c, comm_r_last), then for each of its
// `challenge_count` challenges a PoR of TreeR with the private root
// comm_r_last and the leaf index as one public input. WinningPoSt is 66
// slots of one challenge, all the same sector; WindowPoSt 10 challenges per
// sector. Same variables, constraints and coefficients as upstream, so the
// published parameters apply.
#include <optional>
#include <span>
#include <vector>

#include "filecoin/post/challenges.hpp"
#include "filecoin/post/post_config.hpp"
#include "filecoin/post/vanilla.hpp"
#include "gadgets/por.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin {

struct PostCircuitSector {
  std::optional<ff::Fr> comm_r, comm_c, comm_r_last;
  std::vector<std::optional<ff::Fr>> leaves;   // challenge_count
  std::vector<gadgets::MerkleAuthPath> paths;  // challenge_count
};

// A sector as the verifier knows it.
struct PostPublicSector {
  uint64_t sector_id = 0;
  Domain comm_r{};
};

class FallbackPostCircuit : public r1cs::Circuit {
 public:
  explicit FallbackPostCircuit(const PostConfig& c);  // blank: shapes, setup, counting
  // From the vanilla proofs of one partition, in sector order (Window: up to
  // sector_count, padded with the last; Winning: one sector, its 66 openings
  // spread over the 66 slots). Throws std::invalid_argument naming the sector
  // and field when a proof does not fit the circuit's shape.
  FallbackPostCircuit(const PostConfig& c, std::span<const FallbackPoStSectorProof> proofs);

  void synthesize(r1cs::ConstraintSystem& cs) const override;

 private:
  PostConfig cfg_;
  std::vector<PostCircuitSector> sectors_;
};

// The public inputs of partition `k` (without ONE), from the whole list of
// proved sectors (FallbackPoStCompound::generate_public_inputs): per slot,
// comm_r then the challenged leaf indices; a short partition repeats its
// last sector. Winning: `sectors` is the one proved sector. Throws
// std::invalid_argument for a comm_r that is not a field element.
std::vector<ff::Fr> post_public_inputs(const PostConfig& c, const Domain& randomness,
                                       std::span<const PostPublicSector> sectors, size_t k);
// The same from one partition's own sectors, the first at position
// `first_index` of the whole list (partition_index · sector_count).
std::vector<ff::Fr> post_partition_public_inputs(const PostConfig& c, const Domain& randomness,
                                                 std::span<const PostPublicSector> partition,
                                                 uint64_t first_index);

// Checks vanilla proofs as admission does, cheaply and completely: counts,
// shapes, every path hashed to comm_r_last, comm_r = H(comm_c, comm_r_last),
// each opened leaf the challenge derived from (randomness, sector id,
// position). `first_index` is the position of proofs[0] in the whole proved
// list (partition_index · sector_count). Throws std::invalid_argument naming
// the sector and field.
void verify_post_vanilla(const PostConfig& c, const Domain& randomness,
                         std::span<const FallbackPoStSectorProof> proofs, uint64_t first_index);

}  // namespace cuzk::filecoin
