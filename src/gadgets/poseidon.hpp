#pragma once
// neptune v11's legacy Poseidon circuit (circuit.rs `poseidon_hash`), the one
// Filecoin's parameters were generated for. It uses the optimized constants:
// the tag's first S-box is folded into a constant, the round keys are the
// compressed ones, partial rounds mix with sparse matrices. Each S-box input
// that is a linear combination is first allocated with one constraint.
// Constraints = aux = 4·(t·RF + RP) − 3 − arity (311 for arity 2, 505 for 8).
#include <span>

#include "gadgets/num.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

// Hash of exactly `c.arity` allocated elements with domain tag `tag`.
AllocatedNum poseidon_hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage,
                           const PoseidonConstants& c, const Fr& tag);

// filecoin-hashers hash_md_circuit: chains arity-A hashes over
// elements[0] ‖ the next A-1 elements, allocating zeros ("padding i") to
// fill the last step; steps in namespaces "hash md i". `c` is arity 36 in
// Filecoin (71 inputs: 2 × 1,385 = 2,770 constraints).
AllocatedNum poseidon_hash_md(ConstraintSystem& cs, std::span<const AllocatedNum> elements,
                              const PoseidonConstants& c, const Fr& tag);

}  // namespace cuzk::gadgets
