#pragma once
// Records, per constraint, the values a = A·w, b = B·w, c = C·w, the input and
// aux assignments and the A/B densities: everything the Groth16 prover needs
// from synthesis (bellperson's ProvingAssignment). Input 0 (ONE = 1) is
// allocated by the constructor.
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"

namespace cuzk::r1cs {

class ProvingAssignment : public ConstraintSystem {
 public:
  ProvingAssignment();
  ~ProvingAssignment() override;
  ProvingAssignment(const ProvingAssignment&) = default;
  ProvingAssignment(ProvingAssignment&&) = default;
  ProvingAssignment& operator=(const ProvingAssignment&) = default;
  ProvingAssignment& operator=(ProvingAssignment&&) = default;

  // Sizing: an assignment's first constraint and first aux variable reserve
  // the sizes the last one destroyed in this process had reached (the
  // partitions of one circuit are synthesized over and over), so its vectors
  // are not regrown and copied on the way; without that, or for small
  // systems, they double as needed. Only capacity depends on this.
  // forget_size_hint() drops the remembered sizes. A destroyed assignment's
  // large buffers go back for reuse (platform::recycle_large).
  static void forget_size_hint();

  // Per-constraint evaluations, in creation order.
  std::vector<Fr> a, b, c;
  std::vector<Fr> input_assignment, aux_assignment;
  // Inputs are fully dense in A (Groth16 adds input·0 = 0 per input), so
  // only the aux density is tracked for A.
  Density a_aux_density, b_input_density, b_aux_density;

  size_t num_constraints() const { return a.size(); }
  size_t num_inputs() const { return input_assignment.size(); }
  size_t num_aux() const { return aux_assignment.size(); }

  // Appends a sub-system synthesized separately (its own ONE is merged),
  // giving the same numbering as sequential synthesis: bellperson's `extend`,
  // used for parallel synthesis of independent parts.
  void extend(const ProvingAssignment& other);

  friend bool operator==(const ProvingAssignment& x, const ProvingAssignment& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.input_assignment == y.input_assignment &&
           x.aux_assignment == y.aux_assignment && x.a_aux_density == y.a_aux_density &&
           x.b_input_density == y.b_input_density && x.b_aux_density == y.b_aux_density;
  }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()> value) override;
  Variable alloc_input_impl(const Name&, FnRef<Fr()> value) override;
  void enforce_impl(const Name&, LinearCombination&& a, LinearCombination&& b,
                    LinearCombination&& c) override;

 private:
  void grow_rows();
  void grow_aux();
};

}  // namespace cuzk::r1cs
