#pragma once
// Witness-only synthesis, the per-proof half of pre-compiled constraints
// (r1cs/pce.hpp): the circuit's allocations run and their values are kept,
// each kind in creation order (the numbering of every other system);
// constraints are counted and otherwise ignored, so no linear combination is
// evaluated and no density is tracked. Gadgets that enforce through
// enforce_with() or check builds_constraints() skip building their linear
// combinations here. Input 0 (ONE = 1) is allocated by the constructor.
//
// The aux values go straight into the buffer that becomes the proof's aux
// assignment; the inputs are appended behind them by take_aux_then_inputs(),
// the order in which pre-compiled matrices index the witness.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/vec_growth.hpp"

namespace cuzk::r1cs {

class WitnessCS final : public ConstraintSystem {
 public:
  // Sized for a circuit of `num_inputs` (with ONE) and `num_aux` variables,
  // as recorded; any other count still synthesizes (callers compare).
  explicit WitnessCS(size_t num_inputs = 1, size_t num_aux = 0) {
    builds_constraints_ = false;
    reserve_large(aux_, num_aux + num_inputs);
  }

  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return aux_.size(); }
  size_t num_constraints() const { return skipped_constraints_; }
  const std::vector<Fr>& inputs() const { return inputs_; }
  const std::vector<Fr>& aux() const { return aux_; }
  // (aux..., inputs...), moved out: the system is left without aux values.
  std::vector<Fr> take_aux_then_inputs() {
    aux_.insert(aux_.end(), inputs_.begin(), inputs_.end());
    return std::move(aux_);
  }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()> value) override {
    push_back_large(aux_, value());
    return Variable::aux(aux_.size() - 1);
  }
  Variable alloc_input_impl(const Name&, FnRef<Fr()> value) override {
    inputs_.push_back(value());
    return Variable::input(inputs_.size() - 1);
  }
  // Reached only by gadgets that build their constraints regardless.
  void enforce_impl(const Name&, LinearCombination&&, LinearCombination&&, LinearCombination&&) override {
    skipped_constraints_++;
  }

 private:
  std::vector<Fr> inputs_{Fr::one()};
  std::vector<Fr> aux_;
};

}  // namespace cuzk::r1cs
