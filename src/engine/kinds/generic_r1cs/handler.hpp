#pragma once
// GENERIC_R1CS jobs (our wire extension): prove any pre-compiled circuit in
// the parameter directory. A circuit `<id>` is the pair
//   <param_cache>/<id>.cuzk-r1cs   CSR matrices (r1cs/r1cs_file.hpp)
//   <param_cache>/<id>.params      bellperson Groth16 parameters
// and a request carries one witness file (.cuzk-wtns bytes) per partition in
// vanilla_proofs. "Synthesis" of a partition evaluates a = A·z, b = B·z,
// c = C·z; the device phase and the CPU tail are the split Groth16 prover.
#include <string>

#include "engine/backend.hpp"
#include "engine/kinds/generic_r1cs/spec.hpp"

namespace cuzk::engine {

class GenericR1csHandler final : public KindHandler {
 public:
  explicit GenericR1csHandler(std::string param_dir);

  ProofKind kind() const override { return kinds::GenericR1cs::spec.value; }
  std::unique_ptr<PreparedJob> prepare(ProofRequest& req) override;  // moves the witnesses out
  std::string param_path(const std::string& circuit_id) override;
  std::shared_ptr<CircuitResources> load(const std::string& circuit_id,
                                         std::span<const uint8_t> mapped) override;
  uint64_t estimate_size(const std::string& circuit_id) override;
  std::vector<std::string> list_circuits() override;

  static std::string r1cs_path(const std::string& dir, const std::string& id);
  static std::string params_path(const std::string& dir, const std::string& id);

 private:
  std::string dir_;
};

}  // namespace cuzk::engine
