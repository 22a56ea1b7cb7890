#pragma once
// Measures a circuit without storing it: counts of constraints, inputs, aux
// and non-zeros per matrix, and the A/B densities (a bit per variable). Sized
// for production circuits (130 M constraints cost ~50 MB of bitmaps).
#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"

namespace cuzk::r1cs {

class CountingCS : public ConstraintSystem {
 public:
  CountingCS();

  size_t num_constraints() const { return num_constraints_; }
  size_t num_inputs() const { return a_input_density.size(); }  // including ONE
  size_t num_aux() const { return a_aux_density.size(); }
  // Terms with non-zero coefficients, after merging duplicates, per matrix.
  size_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
  // Variables occurring with a non-zero coefficient in some A- / B-LC.
  Density a_input_density, a_aux_density, b_input_density, b_aux_density;

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()>) override;
  Variable alloc_input_impl(const Name&, FnRef<Fr()>) override;
  void enforce_impl(const Name&, LinearCombination&& a, LinearCombination&& b,
                    LinearCombination&& c) override;

 private:
  size_t num_constraints_ = 0;
};

}  // namespace cuzk::r1cs
