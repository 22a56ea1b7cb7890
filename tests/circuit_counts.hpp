#pragma once
// A circuit's shape by counting (r1cs::CountingCS), without storing it: what
// the circuit tests compare with the published counts.
#include <cstddef>

#include "r1cs/constraint_system.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk::test {

struct Counts {
  size_t constraints, inputs, aux;
};

inline Counts counts_of(const r1cs::Circuit& circuit) {
  r1cs::CountingCS cs;
  circuit.synthesize(cs);
  return {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
}

}  // namespace cuzk::test
