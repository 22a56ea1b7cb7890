#pragma once
// The half that every Filecoin kind's handler shares: its circuits as a
// table, one entry per registered proof of its spec's range, and what
// follows from the table alone — parameter paths, loading with the public
// input check, size estimates, the circuits present on disk, the
// "no parameters" error and a partition's working set. A kind's handler
// gives the entry of each registered proof (filecoin's configs hold the
// sizes and file names) and implements prepare().
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "engine/kinds/kind_spec.hpp"

namespace cuzk::engine {

struct CircuitInfo {
  std::string id;            // "porep-32g": status, PreloadSRS/EvictSRS, the PCE file
  std::string param_stem;    // the file Filecoin names the parameters by, without ".params"
  size_t public_inputs = 0;  // its verifying key's, ONE included: another circuit's file is refused
  uint64_t rows = 0;         // of one partition: constraints + inputs
};

// The working set of one Groth16 partition of `rows` rows from synthesis to
// finalization: the witness and a, b, c (about one entry per row each) and
// H over the domain twice (the coset pass). The witness's bit tags (a byte
// per value, r1cs/witness_cs.hpp) live only while a, b and c are evaluated,
// before H's arrays exist.
uint64_t groth16_partition_bytes(uint64_t rows);

class CircuitTableHandler : public KindHandler {
 public:
  using CircuitOf = CircuitInfo (*)(uint64_t registered_proof);

  ProofKind kind() const final { return spec_.value; }
  // Throws ServiceError(NotFound) for a circuit not in the table.
  std::string param_path(const std::string& circuit_id) final;
  std::shared_ptr<CircuitResources> load(const std::string& circuit_id,
                                         std::span<const uint8_t> mapped) final;
  uint64_t estimate_size(const std::string& circuit_id) final;
  // Each circuit once (registered proofs may share one), in the order of
  // the registered proofs, if its parameter file is present.
  std::vector<std::string> list_circuits() final;

 protected:
  // `circuit_of` gives the entry of every registered proof of spec's range.
  CircuitTableHandler(const KindSpec& spec, std::string param_dir, CircuitOf circuit_of);

  // The entry of a registered proof the spec serves, once its parameter file
  // is there; else ServiceError(NotFound) naming the missing file and the
  // `cuzk setup` that makes test parameters.
  const CircuitInfo& circuit_with_parameters(uint64_t registered_proof) const;
  [[noreturn]] static void invalid(const std::string& msg);

  const KindSpec& spec_;
  const std::string dir_;

 private:
  const CircuitInfo* find(const std::string& circuit_id) const;
  // Its entry; ServiceError(NotFound) for a circuit not in the table.
  const CircuitInfo& known(const std::string& circuit_id) const;
  std::string path_of(const CircuitInfo& c) const;
  std::vector<CircuitInfo> table_;  // [registered proof - first]
};

}  // namespace cuzk::engine
