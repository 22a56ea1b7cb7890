#include "engine/kinds/post/handler.hpp"

#include "engine/groth16_work.hpp"
#include "filecoin/bincode/bincode.hpp"
#include "filecoin/post/circuit.hpp"

namespace cuzk::engine {

using Code = ServiceError::Code;
using filecoin::PostConfig;

namespace {

CircuitInfo post_circuit(uint64_t registered_proof) {
  const PostConfig cfg = *filecoin::post_config(registered_proof);
  return {filecoin::post_circuit_id(cfg), filecoin::post_parameter_stem(cfg), cfg.partition_inputs(),
          cfg.partition_rows};
}

class PostJob final : public PreparedJob {
 public:
  PostJob(PostConfig cfg, std::vector<filecoin::FallbackPoStSectorProof> proofs, filecoin::Domain randomness,
          uint64_t first_index, uint64_t payload_bytes)
      : cfg_(cfg),
        proofs_(std::move(proofs)),
        randomness_(randomness),
        first_index_(first_index),
        resident_(payload_bytes) {
    for (const auto& p : proofs_) public_.push_back({p.sector_id, p.comm_r});
  }

  std::string circuit_id() const override { return filecoin::post_circuit_id(cfg_); }
  uint32_t num_partitions() const override { return 1; }
  uint64_t partition_bytes() const override { return groth16_partition_bytes(cfg_.partition_rows); }
  uint64_t resident_bytes() const override { return resident_; }
  std::unique_ptr<PartitionWork> synthesize(uint32_t, CircuitResources& res, Synthesizer& synth) override {
    auto& r = static_cast<Groth16Resources&>(res);
    auto blank = [cfg = cfg_] { return std::make_unique<filecoin::FallbackPostCircuit>(cfg); };
    auto s = synth.synthesize(circuit_id(), filecoin::FallbackPostCircuit(cfg_, proofs_), blank);
    return std::make_unique<Groth16Work>(std::move(s.assignment), r, s.via_pce);
  }
  std::string verify(const std::string& proof, CircuitResources& res) override {
    std::vector<std::vector<ff::Fr>> inputs{
        filecoin::post_partition_public_inputs(cfg_, randomness_, public_, first_index_)};
    return verify_partitions(static_cast<Groth16Resources&>(res).pvk, proof, inputs);
  }

 private:
  PostConfig cfg_;
  std::vector<filecoin::FallbackPoStSectorProof> proofs_;
  std::vector<filecoin::PostPublicSector> public_;
  filecoin::Domain randomness_;
  uint64_t first_index_;
  uint64_t resident_;
};

}  // namespace

PostHandler::PostHandler(ProofKind kind, std::string dir)
    : CircuitTableHandler(kind == ProofKind::WinningPost ? kinds::WinningPost::spec : kinds::WindowPost::spec,
                          std::move(dir), post_circuit) {}

std::unique_ptr<PreparedJob> PostHandler::prepare(ProofRequest& req) {
  const bool winning = spec_.value == ProofKind::WinningPost;
  auto cfg = filecoin::post_config(req.registered_proof);
  const RegisteredProofs& served = spec_.registered_proofs;
  if (!cfg || !served.contains(req.registered_proof))
    invalid("registered_proof " + std::to_string(req.registered_proof) +
            (cfg ? " (" + std::string(cfg->name) + ")" : "") + " is not a " +
            (winning ? "WinningPoSt" : "WindowPoSt") + " proof (" + std::to_string(served.first) + "-" +
            std::to_string(served.last) + ")");
  if (req.sector_size != 0 && req.sector_size != cfg->sector_size)
    invalid("request says sector_size " + std::to_string(req.sector_size) + ", " + std::string(cfg->name) +
            " proves sectors of " + std::to_string(cfg->sector_size) + " bytes");
  if (req.randomness.size() != 32)
    invalid("randomness must be 32 bytes, got " + std::to_string(req.randomness.size()));
  filecoin::Domain randomness;
  std::copy(req.randomness.begin(), req.randomness.end(), randomness.begin());
  if (randomness[31] & 0xc0) invalid("randomness[31] has its top two bits set: mask it with & 0x3f");
  if (req.vanilla_proofs.empty()) invalid("vanilla_proofs is empty: one FallbackPoStSectorProof per sector");
  if (winning && req.vanilla_proofs.size() != filecoin::kWinningPostSectorCount)
    invalid("WinningPoSt proves one sector, got " + std::to_string(req.vanilla_proofs.size()) +
            " vanilla proofs");
  if (!winning && req.vanilla_proofs.size() > cfg->sector_count)
    invalid(std::to_string(req.vanilla_proofs.size()) + " sectors in one partition, " +
            std::string(cfg->name) + " takes at most " + std::to_string(cfg->sector_count));
  std::vector<filecoin::FallbackPoStSectorProof> proofs;
  uint64_t bytes = 0;
  for (size_t i = 0; i < req.vanilla_proofs.size(); i++) {
    const std::string& v = req.vanilla_proofs[i];
    bytes += v.size();
    try {
      proofs.push_back(filecoin::read_post_sector_proof(
          std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()), v.size()),
          "vanilla_proofs[" + std::to_string(i) + "]"));
    } catch (const filecoin::BincodeError& e) {
      invalid(e.what());
    }
  }
  std::vector<std::string>().swap(req.vanilla_proofs);  // parsed: the bytes are not kept
  const uint64_t first_index = winning ? 0 : uint64_t(req.partition_index) * cfg->sector_count;
  try {
    filecoin::verify_post_vanilla(*cfg, randomness, proofs, first_index);
  } catch (const std::invalid_argument& e) {
    invalid(e.what());
  }
  circuit_with_parameters(req.registered_proof);
  return std::make_unique<PostJob>(*cfg, std::move(proofs), randomness, first_index, bytes);
}

std::unique_ptr<KindHandler> kinds::WinningPost::handler(const std::string& param_dir) {
  return std::make_unique<PostHandler>(spec.value, param_dir);
}

std::unique_ptr<KindHandler> kinds::WindowPost::handler(const std::string& param_dir) {
  return std::make_unique<PostHandler>(spec.value, param_dir);
}

}  // namespace cuzk::engine
