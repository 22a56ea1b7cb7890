#pragma once
// Witness-only synthesis, the per-proof half of pre-compiled constraints
// (r1cs/pce.hpp): the circuit's allocations run and their values are kept in
// one buffer z = (inputs..., aux...), each in creation order (the numbering
// of every other system); constraints are counted and otherwise ignored, so
// no linear combination is evaluated and no density is tracked. Input 0
// (ONE = 1) is allocated by the constructor.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/vec_growth.hpp"

namespace cuzk::r1cs {

class WitnessCS final : public ConstraintSystem {
 public:
  // Sized for a circuit of `num_inputs` (with ONE) and `num_aux` variables,
  // as recorded; any other count still synthesizes (callers compare).
  explicit WitnessCS(size_t num_inputs = 1, size_t num_aux = 0) : n_in_(num_inputs) {
    reserve_large(z_, num_inputs + num_aux);
    z_.resize(num_inputs);
  }

  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return z_.size() - n_in_; }
  size_t num_constraints() const { return constraints_; }
  const std::vector<Fr>& inputs() const { return inputs_; }
  std::vector<Fr> aux() const { return {z_.begin() + std::ptrdiff_t(n_in_), z_.end()}; }
  // z = (inputs..., aux...), when num_inputs() is the count given at
  // construction (else SynthesisError).
  const std::vector<Fr>& z() {
    if (inputs_.size() != n_in_)
      throw SynthesisError("witness has " + std::to_string(inputs_.size()) + " inputs, expected " +
                           std::to_string(n_in_));
    std::copy(inputs_.begin(), inputs_.end(), z_.begin());
    return z_;
  }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()> value) override {
    push_back_large(z_, value());
    return Variable::aux(z_.size() - n_in_ - 1);
  }
  Variable alloc_input_impl(const Name&, FnRef<Fr()> value) override {
    inputs_.push_back(value());
    return Variable::input(inputs_.size() - 1);
  }
  void enforce_impl(const Name&, LinearCombination&&, LinearCombination&&, LinearCombination&&) override {
    constraints_++;
  }

 private:
  size_t n_in_, constraints_ = 0;
  std::vector<Fr> inputs_{Fr::one()};
  std::vector<Fr> z_;  // n_in_ slots for the inputs, then the aux values
};

}  // namespace cuzk::r1cs
