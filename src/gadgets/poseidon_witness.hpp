#pragma once
// Poseidon's gadget on a witness-only system (builds_constraints() false,
// the per-proof half of pre-compiled constraints): the same allocations, in
// the same order and with the same values, and the same constraint count as
// poseidon_hash's circuit, computed on plain field elements. The circuit's
// elements (an allocated number or a pending linear combination, each with
// an optional value) and its per-round vectors and namespaces cost about
// twice the field arithmetic itself there. The gadget calls it itself when
// the system builds no constraints and every preimage value is known.
#include <span>

#include "gadgets/num.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets::detail {

AllocatedNum poseidon_hash_witness(ConstraintSystem& cs, std::span<const AllocatedNum> preimage,
                                   const PoseidonConstants& c, const Fr& tag);

}  // namespace cuzk::gadgets::detail
