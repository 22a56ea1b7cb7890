#pragma once
// The constraint-system hash of docs/FILECOIN.md §1.4 (bellpepper
// TestConstraintSystem::hash) computed while synthesizing, without storing
// the circuit or needing a witness: a CountingCS pass gives the header counts
// the hash starts with, a second pass streams every constraint into the
// hasher. Equal to TestConstraintSystem::hash() for the same circuit (tested),
// at the memory of a CountingCS, so it also works for blank and large circuits.
#include <memory>
#include <string>

#include "r1cs/constraint_system.hpp"
#include "r1cs/cs_hash.hpp"

namespace cuzk::filecoin::circuit {

class HashingCS : public r1cs::ConstraintSystem {
 public:
  // The counts the synthesis will produce (inputs including ONE).
  HashingCS(size_t num_inputs, size_t num_aux, size_t num_constraints);
  // Lowercase hex digest; throws r1cs::SynthesisError if the synthesized
  // counts differ from the announced ones.
  std::string finish();

 protected:
  r1cs::Variable alloc_impl(const r1cs::Name&, r1cs::FnRef<r1cs::Fr()>) override;
  r1cs::Variable alloc_input_impl(const r1cs::Name&, r1cs::FnRef<r1cs::Fr()>) override;
  void enforce_impl(const r1cs::Name&, r1cs::LinearCombination&& a, r1cs::LinearCombination&& b,
                    r1cs::LinearCombination&& c) override;

 private:
  void hash_lc(const r1cs::LinearCombination& lc);
  size_t want_inputs_, want_aux_, want_constraints_;
  size_t inputs_ = 1, aux_ = 0, constraints_ = 0;
  r1cs::CsHasher hasher_;
};

// Both passes over `circuit`.
std::string constraint_system_hash(const r1cs::Circuit& circuit);

}  // namespace cuzk::filecoin::circuit
