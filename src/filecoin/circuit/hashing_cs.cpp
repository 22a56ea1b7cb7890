#include "filecoin/circuit/hashing_cs.hpp"

#include "r1cs/counting_cs.hpp"

namespace cuzk::filecoin::circuit {

using r1cs::LinearCombination;
using r1cs::Variable;

HashingCS::HashingCS(size_t num_inputs, size_t num_aux, size_t num_constraints)
    : want_inputs_(num_inputs),
      want_aux_(num_aux),
      want_constraints_(num_constraints),
      hasher_(num_inputs, num_aux, num_constraints) {}

Variable HashingCS::alloc_impl(const r1cs::Name&, r1cs::FnRef<r1cs::Fr()>) { return Variable::aux(aux_++); }

Variable HashingCS::alloc_input_impl(const r1cs::Name&, r1cs::FnRef<r1cs::Fr()>) {
  return Variable::input(inputs_++);
}

// LC entries are merged and sorted (inputs, then aux) already; zeros are dropped.
void HashingCS::hash_lc(const LinearCombination& lc) {
  uint64_t n = 0;
  for (const auto& e : lc.inputs()) n += !e.coeff.is_zero();
  for (const auto& e : lc.aux()) n += !e.coeff.is_zero();
  hasher_.begin_lc(n);
  for (const auto& e : lc.inputs())
    if (!e.coeff.is_zero()) hasher_.term(true, e.index, e.coeff);
  for (const auto& e : lc.aux())
    if (!e.coeff.is_zero()) hasher_.term(false, e.index, e.coeff);
}

void HashingCS::enforce_impl(const r1cs::Name&, LinearCombination&& a, LinearCombination&& b,
                             LinearCombination&& c) {
  if (++constraints_ > want_constraints_)
    throw r1cs::SynthesisError("HashingCS: more constraints than announced");
  hash_lc(a);
  hash_lc(b);
  hash_lc(c);
}

std::string HashingCS::finish() {
  if (inputs_ != want_inputs_ || aux_ != want_aux_ || constraints_ != want_constraints_)
    throw r1cs::SynthesisError("HashingCS: synthesized counts differ from the announced ones");
  return hasher_.finish();
}

std::string constraint_system_hash(const r1cs::Circuit& circuit) {
  r1cs::CountingCS counting;
  circuit.synthesize(counting);
  HashingCS h(counting.num_inputs(), counting.num_aux(), counting.num_constraints());
  circuit.synthesize(h);
  return h.finish();
}

}  // namespace cuzk::filecoin::circuit
