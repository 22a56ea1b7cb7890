#pragma once
// The device stages of one Groth16 partition, shared by every proof kind
// whose synthesis ends in a groth16::Assignment: the NTTs and G1 MSMs under
// the device interlock, the B-in-G2 tail afterwards.
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "groth16/params.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine {

// Decoded Groth16 parameters kept resident by the SrsManager, with the
// prepared verifying key; kinds derive from it to keep more (a circuit).
// The query points are uploaded to each device that proves with them, once
// (key_for); the uploads go with the resources when they are evicted.
struct Groth16Resources : CircuitResources {
  groth16::Parameters params;
  groth16::PreparedVerifyingKey pvk;
  uint64_t extra_bytes = 0;  // whatever else the kind keeps resident

  // Decodes a trusted local parameter file (on-curve checks only, as
  // bellperson maps them) and prepares the verifying key; errors name `path`.
  void load_params(std::span<const uint8_t> mapped, const std::string& path);
  uint64_t size_bytes() const override;  // decoded points + extra_bytes
  // The parameters as `backend` holds them, uploaded on first use.
  const groth16::DeviceKey& key_for(device::Backend& backend);
  // Device memory the uploads hold, over all devices.
  uint64_t device_bytes() const override;

 private:
  mutable std::mutex keys_mu_;
  std::vector<std::unique_ptr<groth16::DeviceKey>> keys_;
};

// Decodes the parameters of circuit `id` from `path` and checks that its
// verifying key takes `inputs` public inputs (ONE included): a file of
// another circuit is refused naming both.
std::shared_ptr<Groth16Resources> load_circuit_params(std::span<const uint8_t> mapped,
                                                      const std::string& path, const std::string& id,
                                                      size_t inputs);

// Resident size of a parameter file once decoded (for budget planning):
// its size plus 10%, 0 when it is missing.
uint64_t estimate_params_bytes(const std::string& path);

// Prover options that stay inside the calling arena (the device's pool).
groth16::ProverOptions arena_prover_options();

class Groth16Work final : public PartitionWork {
 public:
  // `res` must outlive the work (the SrsManager pins it while in use).
  Groth16Work(groth16::Assignment a, Groth16Resources& res, bool via_pce = false);
  void device_phase(Device&) override;
  std::string finish(Device&) override;  // the 192-byte proof
  uint64_t bytes_freed_after_device() const override { return abc_bytes_; }
  bool via_pce() const override { return via_pce_; }

 private:
  groth16::Assignment assignment_;
  Groth16Resources& res_;
  groth16::Pending pending_;
  uint64_t abc_bytes_ = 0;
  bool via_pce_;
};

// Checks an assembled multi-partition proof against per-partition public
// inputs (without ONE): "" when valid, else a message naming the first
// failing partition. Batch verification first, one by one on failure.
std::string verify_partitions(const groth16::PreparedVerifyingKey& pvk, const std::string& proof,
                              const std::vector<std::vector<ff::Fr>>& public_inputs);

}  // namespace cuzk::engine
