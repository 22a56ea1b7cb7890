#include "engine/snap_handler.hpp"

#include <filesystem>

#include "engine/groth16_work.hpp"
#include "filecoin/bincode/bincode.hpp"
#include "filecoin/snap/circuit.hpp"

namespace cuzk::engine {

namespace fs = std::filesystem;
using Code = ServiceError::Code;
using filecoin::SnapConfig;

namespace {

[[noreturn]] void invalid(const std::string& msg) { throw ServiceError(Code::InvalidArgument, msg); }

// Per-partition rows (constraints + inputs), docs/FILECOIN.md §1.2, for memory planning.
uint64_t partition_rows(const SnapConfig& c) {
  switch (c.id) {
    case 0: return 1705044;
    case 1: return 10007508;
    case 2: return 57450484;
    case 3: return 81049504;
    default: return 85006106;
  }
}

class SnapJob final : public PreparedJob {
 public:
  SnapJob(SnapConfig cfg, filecoin::SnapPublic pub, std::vector<filecoin::SnapPartitionProof> proofs,
          uint64_t payload_bytes)
      : cfg_(cfg), pub_(pub), proofs_(std::move(proofs)), resident_(payload_bytes) {}

  std::string circuit_id() const override { return filecoin::snap_circuit_id(cfg_); }
  uint32_t num_partitions() const override { return uint32_t(cfg_.partitions); }
  uint64_t partition_bytes() const override {
    // Witness and a/b/c (about one entry per row each), H over the domain twice.
    const uint64_t rows = partition_rows(cfg_);
    uint64_t m = 1;
    while (m < rows) m <<= 1;
    return 32 * (4 * rows + 2 * m);
  }
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
    invalid(std::string(field) + " must be 32 bytes, got " + std::to_string(bytes.size()));
  filecoin::Domain d;
  std::copy(bytes.begin(), bytes.end(), d.begin());
  return d;
}

}  // namespace

SnapHandler::SnapHandler(std::string dir) : dir_(std::move(dir)) {}

std::unique_ptr<PreparedJob> SnapHandler::prepare(ProofRequest& req) {
  auto cfg = filecoin::snap_config(req.registered_proof);
  if (!cfg || !kinds::SnapUpdate::spec.registered_proofs.contains(req.registered_proof))
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
  const std::string id = filecoin::snap_circuit_id(*cfg);
  if (!fs::exists(param_path(id)))
    throw ServiceError(Code::NotFound,
                       "no parameters for " + id + ": " + param_path(id) +
                           " is missing (generate test parameters with `cuzk setup --circuit " + id +
                           " --param-dir " + dir_ + "`)");
  return std::make_unique<SnapJob>(*cfg, pub, std::move(proofs), bytes);
}

std::string SnapHandler::param_path(const std::string& id) {
  auto cfg = filecoin::snap_config_for_circuit_id(id);
  if (!cfg) throw ServiceError(Code::NotFound, "unknown SnapDeals circuit '" + id + "'");
  return (fs::path(dir_) / (filecoin::snap_parameter_stem(*cfg) + ".params")).string();
}

std::shared_ptr<CircuitResources> SnapHandler::load(const std::string& id, std::span<const uint8_t> mapped) {
  return load_circuit_params(mapped, param_path(id), id, 5);  // ONE + the four public inputs
}

uint64_t SnapHandler::estimate_size(const std::string& id) { return estimate_params_bytes(param_path(id)); }

std::vector<std::string> SnapHandler::list_circuits() {
  std::vector<std::string> out;
  const RegisteredProofs& served = kinds::SnapUpdate::spec.registered_proofs;
  for (uint64_t p = served.first; p <= served.last; p++) {
    std::string c = filecoin::snap_circuit_id(*filecoin::snap_config(p));
    if (fs::exists(param_path(c))) out.push_back(c);
  }
  return out;
}

std::unique_ptr<KindHandler> kinds::SnapUpdate::handler(const std::string& param_dir) {
  return std::make_unique<SnapHandler>(param_dir);
}

}  // namespace cuzk::engine
