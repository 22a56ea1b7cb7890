#pragma once
// GENERIC_R1CS (ours): any pre-compiled circuit of the parameter directory,
//   <param_cache>/<id>.cuzk-r1cs   CSR matrices (r1cs/r1cs_file.hpp)
//   <param_cache>/<id>.params      bellperson Groth16 parameters
// named by circuit_id, with one witness file (.cuzk-wtns bytes) per partition
// in vanilla_proofs. The handler is kinds/generic_r1cs/handler.cpp.
#include <memory>
#include <string>

#include "engine/kinds/kind_spec.hpp"

namespace cuzk::engine::kinds {

struct GenericR1cs {
  static constexpr KindSpec spec{
      .value = ProofKind::GenericR1cs,
      .name = "generic-r1cs",
      .wire_name = "GENERIC_R1CS",
      .label = "r1cs",
      .aliases = {"generic-r1cs", "generic"},
      .default_priority = Priority::Normal,
      .reads = {Field::CircuitId, Field::VanillaProofs},
      .required = {Field::CircuitId},
      .registered_proofs = {},
  };
  static std::unique_ptr<KindHandler> handler(const std::string& param_dir);
};

}  // namespace cuzk::engine::kinds
