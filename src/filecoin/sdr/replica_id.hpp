#pragma once
// replica_id (docs/FILECOIN.md §7.2, rust-fil-proofs generate_replica_id) and the
// prover_id it starts from.
#include <cstdint>

#include "filecoin/common/domain.hpp"
#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

// The ID-address payload of miner actor `actor_id` (f0<actor_id>): the
// unsigned LEB128 varint, left-aligned in 32 zero bytes.
Domain prover_id_from_actor_id(uint64_t actor_id);

// trim(SHA256(prover_id ‖ u64_be(sector_id) ‖ ticket ‖ comm_d ‖ porep_id)).
Domain replica_id(const Domain& prover_id, uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                  const PorepId& porep_id);

}  // namespace cuzk::filecoin
