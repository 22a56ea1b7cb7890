#pragma once
// The evaluation domain of the QAP (bellperson's EvaluationDomain sizing):
// the smallest power of two m >= rows, with log2(m) < Fr::S.
#include <stdexcept>

#include "ff/bls12_381.hpp"

namespace cuzk::groth16 {

inline unsigned domain_log_size(size_t rows) {
  unsigned log_m = 0;
  while ((size_t(1) << log_m) < rows) {
    if (++log_m >= ff::Fr::S) throw std::length_error("circuit too large for the Fr FFT domain");
  }
  return log_m;
}

// Primitive 2^log_m-th root of unity: 7^((r-1)/2^32) squared 32 - log_m times.
inline ff::Fr domain_root_of_unity(unsigned log_m) {
  ff::Fr w = ff::Fr::from_u64(7).pow_vartime(ff::Fr::T_ODD);
  for (unsigned i = log_m; i < ff::Fr::S; i++) w = w.square();
  return w;
}

}  // namespace cuzk::groth16
