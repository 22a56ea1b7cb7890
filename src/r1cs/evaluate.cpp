#include "r1cs/evaluate.hpp"

#include <oneapi/tbb/parallel_for.h>

namespace cuzk::r1cs {

ShapeDensities ShapeDensities::of(const R1cs& r) {
  ShapeDensities d;
  d.a_aux.resize(r.num_aux);
  d.b_input.resize(r.num_inputs);
  d.b_aux.resize(r.num_aux);
  for (uint32_t c : r.a.col)
    if (c >= r.num_inputs) d.a_aux.inc(c - r.num_inputs);
  for (uint32_t c : r.b.col) {
    if (c < r.num_inputs) d.b_input.inc(c);
    else d.b_aux.inc(c - r.num_inputs);
  }
  return d;
}

ProvingAssignment evaluate(const R1cs& r, const ShapeDensities& d, std::span<const Fr> z) {
  if (z.size() != r.num_variables())
    throw SynthesisError("witness has " + std::to_string(z.size()) + " values, the circuit needs " +
                         std::to_string(r.num_variables()) + " (inputs incl. ONE + aux)");
  if (!z[0].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  ProvingAssignment pa;  // holds ONE already
  pa.input_assignment.assign(z.begin(), z.begin() + r.num_inputs);
  pa.aux_assignment.assign(z.begin() + r.num_inputs, z.end());
  pa.a_aux_density = d.a_aux;
  pa.b_input_density = d.b_input;
  pa.b_aux_density = d.b_aux;
  const size_t n = r.num_constraints();
  pa.a.resize(n);
  pa.b.resize(n);
  pa.c.resize(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 4096), [&](const tbb::blocked_range<size_t>& rg) {
    for (size_t i = rg.begin(); i < rg.end(); i++) {
      pa.a[i] = r.a.eval_row(i, z);
      pa.b[i] = r.b.eval_row(i, z);
      pa.c[i] = r.c.eval_row(i, z);
    }
  });
  return pa;
}

}  // namespace cuzk::r1cs
