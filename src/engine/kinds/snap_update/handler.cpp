#include "engine/kinds/snap_update/handler.hpp"

#include "engine/groth16_work.hpp"
#include "filecoin/bincode/bincode.hpp"
#include "filecoin/snap/circuit.hpp"

namespace cuzk::engine {

using Code = ServiceError::Code;
using filecoin::SnapConfig;

namespace {

CircuitInfo snap_circuit(uint64_t registered_proof) {
  const SnapConfig cfg = *filecoin::snap_config(registered_proof);
  return {filecoin::snap_circuit_id(cfg), filecoin::snap_parameter_stem(cfg), SnapConfig::kPartitionInputs,
          cfg.partition_rows};
}

class SnapJob final : public PreparedJob {
 public:
  SnapJob(SnapConfig cfg, filecoin::SnapPublic pub, std::vector<filecoin::SnapPartitionProof> proofs,
          uint64_t payload_bytes)
      : cfg_(cfg), pub_(pub), proofs_(std::move(proofs)), resident_(payload_bytes) {}

  std::string circuit_id() const override { return filecoin::snap_circuit_id(cfg_); }
  uint32_t num_partitions() const override { return uint32_t(cfg_.partitions); }
  uint64_t partition_bytes() const override { return groth16_partition_bytes(cfg_.partition_rows); }
  uint64_t resident_bytes() const override { return resident_; }
  std::unique_ptr<PartitionWork> synthesize(uint32_t p, CircuitResources& res, Synthesizer& synth) override {
    auto& r = static_cast<Groth16Resources&>(res);
    auto blank = [cfg = cfg_] { return std::make_unique<filecoin::EmptySectorUpdateCircuit>(cfg); };
    auto s =
        synth.synthesize(circuit_id(), filecoin::EmptySectorUpdateCircuit(cfg_, p, pub_, proofs_[p]), blank);
    proofs_[p] = {};  // in the witness now; only this partition's entry is touched
    return std::make_unique<Groth16Work>(std::move(s.assignment), r, s.via_pce);
  }
  std::string verify(const std::string& proof, CircuitResources& res) override {
    std::vector<std::vector<ff::Fr>> inputs;
    for (size_t k = 0; k < cfg_.partitions; k++)
      inputs.push_back(filecoin::snap_public_inputs(cfg_, k, pub_));
    return verify_partitions(static_cast<Groth16Resources&>(res).pvk, proof, inputs);
  }

 private:
  SnapConfig cfg_;
  filecoin::SnapPublic pub_;
  std::vector<filecoin::SnapPartitionProof> proofs_;
  uint64_t resident_;
};

filecoin::Domain commitment(const std::string& bytes, const char* field) {
  if (bytes.size() != 32)
    throw ServiceError(Code::InvalidArgument,
                       std::string(field) + " must be 32 bytes, got " + std::to_string(bytes.size()));
  filecoin::Domain d;
  std::copy(bytes.begin(), bytes.end(), d.begin());
  return d;
}

}  // namespace

SnapHandler::SnapHandler(std::string dir)
    : CircuitTableHandler(kinds::SnapUpdate::spec, std::move(dir), snap_circuit) {}

std::unique_ptr<PreparedJob> SnapHandler::prepare(ProofRequest& req) {
  auto cfg = filecoin::snap_config(req.registered_proof);
  if (!cfg || !spec_.registered_proofs.contains(req.registered_proof))
    invalid("registered_proof " + std::to_string(req.registered_proof) +
            " is not a registered update proof (0-4: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
  if (req.sector_size != 0 && req.sector_size != cfg->sector_size)
    invalid("request says sector_size " + std::to_string(req.sector_size) + ", " + std::string(cfg->name) +
            " updates sectors of " + std::to_string(cfg->sector_size) + " bytes");
  const filecoin::SnapPublic pub{commitment(req.comm_r_old, "comm_r_old"),
                                 commitment(req.comm_d_new, "comm_d_new"),
                                 commitment(req.comm_r_new, "comm_r_new")};
  if (req.vanilla_proofs.size() != cfg->partitions)
    invalid("vanilla_proofs: " + std::to_string(req.vanilla_proofs.size()) + " partition proofs, " +
            std::string(cfg->name) + " has " + std::to_string(cfg->partitions) + " partitions");
  std::vector<filecoin::SnapPartitionProof> proofs;
  uint64_t bytes = 0;
  for (size_t k = 0; k < req.vanilla_proofs.size(); k++) {
    const std::string& v = req.vanilla_proofs[k];
    bytes += v.size();
    try {
      proofs.push_back(filecoin::read_snap_partition_proof(
          std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()), v.size()),
          "vanilla_proofs[" + std::to_string(k) + "] (partition " + std::to_string(k) + ")"));
    } catch (const filecoin::BincodeError& e) {
      invalid(e.what());
    }
  }
  std::vector<std::string>().swap(req.vanilla_proofs);  // parsed: the bytes are not kept
  try {
    for (size_t k = 0; k < proofs.size(); k++) filecoin::verify_snap_vanilla(*cfg, pub, proofs[k], k);
  } catch (const std::invalid_argument& e) {
    invalid(e.what());
  }
  circuit_with_parameters(req.registered_proof);
  return std::make_unique<SnapJob>(*cfg, pub, std::move(proofs), bytes);
}

std::unique_ptr<KindHandler> kinds::SnapUpdate::handler(const std::string& param_dir) {
  return std::make_unique<SnapHandler>(param_dir);
}

}  // namespace cuzk::engine
