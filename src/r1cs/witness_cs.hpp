#pragma once
// Witness-only synthesis, the per-proof half of pre-compiled constraints
// (r1cs/pce.hpp): the circuit's allocations run and their values are kept,
// inputs and aux in creation order (the numbering of every other system);
// constraints are counted and otherwise ignored, so no linear combination is
// evaluated and no density is tracked. Input 0 (ONE = 1) is allocated by the
// constructor.
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class WitnessCS final : public ConstraintSystem {
 public:
  WitnessCS() { inputs.push_back(Fr::one()); }

  std::vector<Fr> inputs, aux;
  size_t num_constraints() const { return constraints_; }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()> value) override {
    aux.push_back(value());
    return Variable::aux(aux.size() - 1);
  }
  Variable alloc_input_impl(const Name&, FnRef<Fr()> value) override {
    inputs.push_back(value());
    return Variable::input(inputs.size() - 1);
  }
  void enforce_impl(const Name&, LinearCombination&&, LinearCombination&&, LinearCombination&&) override {
    constraints_++;
  }

 private:
  size_t constraints_ = 0;
};

}  // namespace cuzk::r1cs
