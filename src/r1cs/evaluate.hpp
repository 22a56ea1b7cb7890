#pragma once
// "Synthesis" of a pre-compiled circuit: a = A·z, b = B·z, c = C·z row by row
// from the CSR matrices, producing the same ProvingAssignment the circuit's
// own synthesis would (values, numbering and A/B densities).
#include <oneapi/tbb/parallel_for.h>

#include <bit>
#include <span>
#include <string>

#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/vec_growth.hpp"

namespace cuzk::r1cs {

// Column densities of a circuit, computed once and reused per witness.
struct ShapeDensities {
  Density a_aux, b_input, b_aux;
  static ShapeDensities of(const R1cs& r);
};

// Throws SynthesisError when z has the wrong length or z[0] != 1.
// Row evaluation runs in parallel on the caller's oneTBB arena.
ProvingAssignment evaluate(const R1cs& r, const ShapeDensities& d, std::span<const Fr> z);

// An assignment of `rows` constraints with the circuit's densities, a/b/c
// in huge-page buffers (vec_growth.hpp) sized for the power of two the
// prover resizes them to, recycled ones where there are (their old values
// left in place: the caller writes every row); inputs and aux left empty.
inline ProvingAssignment start_assignment(size_t rows, const ShapeDensities& d) {
  ProvingAssignment pa;  // holds ONE already
  for (auto* v : {&pa.a, &pa.b, &pa.c}) platform::size_large(*v, rows, std::bit_ceil(rows));
  pa.a_aux_density = d.a_aux;
  pa.b_input_density = d.b_input;
  pa.b_aux_density = d.b_aux;
  return pa;
}

// The assignment of witness z (num_inputs inputs, ONE first, then aux) for a
// system of `rows` constraints whose row i evaluates to row(i) = {a, b, c}.
template <class RowEval>
ProvingAssignment assign_rows(size_t num_inputs, size_t num_aux, size_t rows, const ShapeDensities& d,
                              std::span<const Fr> z, const RowEval& row) {
  if (z.size() != num_inputs + num_aux)
    throw SynthesisError("witness has " + std::to_string(z.size()) + " values, the circuit needs " +
                         std::to_string(num_inputs + num_aux) + " (inputs incl. ONE + aux)");
  if (!z[0].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  ProvingAssignment pa = start_assignment(rows, d);
  pa.input_assignment.assign(z.begin(), z.begin() + num_inputs);
  reserve_large(pa.aux_assignment, num_aux);
  pa.aux_assignment.assign(z.begin() + num_inputs, z.end());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, rows, 4096), [&](const tbb::blocked_range<size_t>& rg) {
    for (size_t i = rg.begin(); i < rg.end(); i++) row(i, pa.a[i], pa.b[i], pa.c[i]);
  });
  return pa;
}

}  // namespace cuzk::r1cs
