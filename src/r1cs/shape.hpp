#pragma once
// R1CS matrices in CSR form, built by ShapeRecorder from a circuit without a
// witness: the input to key generation and to pre-compiled evaluation.
//
// Columns index the full assignment z = (inputs..., aux...): column j < n_in
// is Input(j), column n_in + k is Aux(k). Rows keep the circuit's constraint
// order; within a row, terms are sorted by column and have non-zero
// coefficients (cancelled terms are dropped).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"

namespace cuzk::r1cs {

struct CsrMatrix {
  std::vector<uint64_t> row_ptr{0};  // row i is [row_ptr[i], row_ptr[i+1])
  std::vector<uint32_t> col;
  std::vector<Fr> val;

  size_t rows() const { return row_ptr.size() - 1; }
  size_t nnz() const { return col.size(); }
  Fr eval_row(size_t i, std::span<const Fr> z) const {
    Fr acc = Fr::zero();
    for (uint64_t k = row_ptr[i]; k < row_ptr[i + 1]; k++) acc += val[k] * z[col[k]];
    return acc;
  }
  // Marks every column with a non-zero entry.
  Density column_density(size_t num_columns) const;
};

struct R1cs {
  size_t num_inputs = 0;  // including ONE
  size_t num_aux = 0;
  CsrMatrix a, b, c;

  size_t num_constraints() const { return a.rows(); }
  size_t num_variables() const { return num_inputs + num_aux; }

  // Index of the first row with (A·z)(B·z) != C·z, or num_constraints().
  size_t first_unsatisfied(std::span<const Fr> z) const;
  bool is_satisfied(std::span<const Fr> z) const { return first_unsatisfied(z) == num_constraints(); }

  // Appends `input_i · 0 = 0` for every input, as the Groth16 generator and
  // prover do (docs/FILECOIN.md §1.5).
  void add_input_constraints();

  // The TestConstraintSystem hash (docs/FILECOIN.md §1.4) of these constraints;
  // meaningful before add_input_constraints().
  std::string hash() const;
};

class ShapeRecorder : public ConstraintSystem {
 public:
  ShapeRecorder();
  // Moves the recorded system out (the recorder is left empty).
  R1cs finish();

  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_aux_; }
  size_t num_constraints() const { return a_.rows(); }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()>) override;
  Variable alloc_input_impl(const Name&, FnRef<Fr()>) override;
  void enforce_impl(const Name&, LinearCombination&& a, LinearCombination&& b,
                    LinearCombination&& c) override;

 private:
  size_t num_inputs_ = 1, num_aux_ = 0;
  // While recording, aux columns carry kAuxBit (final numbering needs n_in).
  static constexpr uint32_t kAuxBit = 0x80000000u;
  CsrMatrix a_, b_, c_;
};

}  // namespace cuzk::r1cs
