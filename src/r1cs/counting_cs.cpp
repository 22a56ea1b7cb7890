#include "r1cs/counting_cs.hpp"

namespace cuzk::r1cs {

namespace {
size_t count(const LinearCombination& lc, Density* in, Density* aux) {
  size_t n = 0;
  for (const auto& e : lc.inputs())
    if (!e.coeff.is_zero()) {
      n++;
      if (in) in->inc(e.index);
    }
  for (const auto& e : lc.aux())
    if (!e.coeff.is_zero()) {
      n++;
      if (aux) aux->inc(e.index);
    }
  return n;
}
}  // namespace

CountingCS::CountingCS() {
  a_input_density.add_element();
  b_input_density.add_element();
}

Variable CountingCS::alloc_impl(const Name&, FnRef<Fr()>) {
  a_aux_density.add_element();
  b_aux_density.add_element();
  return Variable::aux(a_aux_density.size() - 1);
}

Variable CountingCS::alloc_input_impl(const Name&, FnRef<Fr()>) {
  a_input_density.add_element();
  b_input_density.add_element();
  return Variable::input(a_input_density.size() - 1);
}

void CountingCS::enforce_impl(const Name&, LinearCombination&& a, LinearCombination&& b,
                              LinearCombination&& c) {
  num_constraints_++;
  nnz_a += count(a, &a_input_density, &a_aux_density);
  nnz_b += count(b, &b_input_density, &b_aux_density);
  nnz_c += count(c, nullptr, nullptr);
}

}  // namespace cuzk::r1cs
