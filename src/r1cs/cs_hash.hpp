#pragma once
// The constraint-system hash of bellpepper's TestConstraintSystem::hash()
// (docs/FILECOIN.md §1.4): BLAKE2s-256 over
//   u64be(num_inputs) ‖ u64be(num_aux) ‖ u64be(num_constraints),
// then for every constraint its A, B and C LCs, each as u64be(term count)
// and per term 'I'|'A' ‖ u64be(index) ‖ coeff (32 bytes, big-endian), with
// terms merged, zero coefficients dropped, inputs before aux, ascending.
// The caller feeds the terms already normalised and in that order.
#include <cstdint>
#include <memory>
#include <string>

#include "ff/bls12_381.hpp"

namespace cuzk::r1cs {

class CsHasher {
 public:
  CsHasher(uint64_t num_inputs, uint64_t num_aux, uint64_t num_constraints);
  ~CsHasher();
  CsHasher(const CsHasher&) = delete;
  CsHasher& operator=(const CsHasher&) = delete;

  void begin_lc(uint64_t num_terms);
  void term(bool is_input, uint64_t index, const ff::Fr& coeff);
  // Lowercase hex of the digest; the hasher is spent afterwards.
  std::string finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::r1cs
