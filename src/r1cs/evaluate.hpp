#pragma once
// "Synthesis" of a pre-compiled circuit: a = A·z, b = B·z, c = C·z row by row
// from the CSR matrices, producing the same ProvingAssignment the circuit's
// own synthesis would (values, numbering and A/B densities).
#include <span>

#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::r1cs {

// Column densities of a circuit, computed once and reused per witness.
struct ShapeDensities {
  Density a_aux, b_input, b_aux;
  static ShapeDensities of(const R1cs& r);
};

// Throws SynthesisError when z has the wrong length or z[0] != 1.
// Row evaluation runs in parallel on the caller's oneTBB arena.
ProvingAssignment evaluate(const R1cs& r, const ShapeDensities& d, std::span<const Fr> z);

}  // namespace cuzk::r1cs
