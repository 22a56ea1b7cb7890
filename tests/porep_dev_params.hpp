#pragma once
// Development parameters of a PoRep circuit (dev_params.hpp), one file per
// sector size: every version and feature of a size (interactive, synthetic,
// NI-PoRep) proves the same circuit with the same published parameter file.
// The cache name carries the circuit's counts, so the unit suites and the
// daemon tests share one file per build tree.
#include <cstdint>
#include <filesystem>
#include <string>

#include "dev_params.hpp"
#include "filecoin/porep/c2.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk_test_params {

inline std::string porep_dev_parameters_name(const cuzk::filecoin::PorepConfig& cfg) {
  cuzk::r1cs::CountingCS counts;
  cuzk::filecoin::porep_blank_circuit(cfg).synthesize(counts);
  return "porep-" + std::to_string(cfg.sector_size) + "-" + std::to_string(counts.num_constraints()) + "c-" +
         std::to_string(counts.num_inputs()) + "i-dev.params";
}

inline std::filesystem::path porep_dev_parameters_file(const cuzk::filecoin::PorepConfig& cfg) {
  return cached_dev_parameters_file(porep_dev_parameters_name(cfg), cuzk::filecoin::porep_blank_circuit(cfg));
}

inline cuzk::groth16::Parameters porep_dev_parameters(const cuzk::filecoin::PorepConfig& cfg) {
  return cached_dev_parameters(porep_dev_parameters_name(cfg), cuzk::filecoin::porep_blank_circuit(cfg));
}

}  // namespace cuzk_test_params
