#include "r1cs/evaluate.hpp"

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
  return assign_rows(r.num_inputs, r.num_aux, r.num_constraints(), d, z, [&](size_t i, Fr& a, Fr& b, Fr& c) {
    a = r.a.eval_row(i, z);
    b = r.b.eval_row(i, z);
    c = r.c.eval_row(i, z);
  });
}

}  // namespace cuzk::r1cs
