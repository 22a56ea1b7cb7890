#include "r1cs/proving_assignment.hpp"

namespace cuzk::r1cs {

namespace {

// Zero coefficients neither contribute nor mark density (as upstream).
Fr eval_tracked(const LinearCombination& lc, const std::vector<Fr>& in, const std::vector<Fr>& aux,
                Density* in_density, Density* aux_density) {
  Fr acc = Fr::zero();
  for (const auto& e : lc.inputs()) {
    if (e.coeff.is_zero()) continue;
    acc += e.coeff.is_one() ? in[e.index] : e.coeff * in[e.index];
    if (in_density) in_density->inc(e.index);
  }
  for (const auto& e : lc.aux()) {
    if (e.coeff.is_zero()) continue;
    acc += e.coeff.is_one() ? aux[e.index] : e.coeff * aux[e.index];
    if (aux_density) aux_density->inc(e.index);
  }
  return acc;
}

}  // namespace

ProvingAssignment::ProvingAssignment() {
  input_assignment.push_back(Fr::one());
  b_input_density.add_element();
}

Variable ProvingAssignment::alloc_impl(const Name&, FnRef<Fr()> value) {
  aux_assignment.push_back(value());
  a_aux_density.add_element();
  b_aux_density.add_element();
  return Variable::aux(aux_assignment.size() - 1);
}

Variable ProvingAssignment::alloc_input_impl(const Name&, FnRef<Fr()> value) {
  input_assignment.push_back(value());
  b_input_density.add_element();
  return Variable::input(input_assignment.size() - 1);
}

void ProvingAssignment::enforce_impl(const Name&, LinearCombination&& la, LinearCombination&& lb,
                                     LinearCombination&& lc) {
  a.push_back(eval_tracked(la, input_assignment, aux_assignment, nullptr, &a_aux_density));
  b.push_back(eval_tracked(lb, input_assignment, aux_assignment, &b_input_density, &b_aux_density));
  c.push_back(eval_tracked(lc, input_assignment, aux_assignment, nullptr, nullptr));
}

void ProvingAssignment::extend(const ProvingAssignment& o) {
  a_aux_density.extend(o.a_aux_density, false);
  b_input_density.extend(o.b_input_density, true);
  b_aux_density.extend(o.b_aux_density, false);
  a.insert(a.end(), o.a.begin(), o.a.end());
  b.insert(b.end(), o.b.begin(), o.b.end());
  c.insert(c.end(), o.c.begin(), o.c.end());
  input_assignment.insert(input_assignment.end(), o.input_assignment.begin() + 1,
                          o.input_assignment.end());
  aux_assignment.insert(aux_assignment.end(), o.aux_assignment.begin(), o.aux_assignment.end());
}

}  // namespace cuzk::r1cs
