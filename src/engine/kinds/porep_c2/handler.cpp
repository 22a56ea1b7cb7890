#include "engine/kinds/porep_c2/handler.hpp"

#include "engine/groth16_work.hpp"
#include "filecoin/common/param_names.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c2.hpp"
#include "groth16/io.hpp"

namespace cuzk::engine {

using Code = ServiceError::Code;
using filecoin::PorepConfig;

namespace {

CircuitInfo porep_circuit(uint64_t registered_proof) {
  const PorepConfig cfg = *filecoin::porep_config(registered_proof);
  return {filecoin::porep_circuit_id(cfg), filecoin::porep_parameter_stem(cfg), cfg.partition_inputs(),
          cfg.partition_rows};
}

// Bytes a parsed C1 output holds: its 32-byte domains plus vector headers.
uint64_t c1_resident_bytes(const filecoin::SealCommitPhase1Output& c1) {
  constexpr uint64_t kVec = 24, kDom = 32;
  auto path = [&](const std::vector<filecoin::MerklePathElement>& v) {
    uint64_t n = kVec;
    for (auto& e : v) n += kVec + 8 + kDom * e.hashes.size();
    return n;
  };
  auto merkle = [&](const filecoin::MerkleProof& m) {
    return 2 * kDom + path(m.base) + path(m.sub) + path(m.top);
  };
  auto column = [&](const filecoin::ColumnProof& c) {
    return kVec + kDom * c.column.rows.size() + merkle(c.inclusion_proof);
  };
  uint64_t n = 5 * kDom + kVec;
  for (auto& part : c1.vanilla_proofs) {
    n += kVec;
    for (auto& p : part) {
      n += merkle(p.comm_d_proofs) + merkle(p.comm_r_last_proof) + column(p.replica_column_proofs.c_x);
      for (auto& c : p.replica_column_proofs.drg_parents) n += column(c);
      for (auto& c : p.replica_column_proofs.exp_parents) n += column(c);
      for (auto& l : p.labeling_proofs) n += kVec + kDom * l.parents.size() + 16;
      n += kVec + kDom * p.encoding_proof.parents.size() + 16;
    }
  }
  return n;
}

class PorepJob final : public PreparedJob {
 public:
  PorepJob(std::string id, PorepConfig cfg, filecoin::SealCommitPhase1Output c1)
      : id_(std::move(id)), cfg_(cfg), c1_(std::move(c1)), resident_(c1_resident_bytes(c1_)) {}

  std::string circuit_id() const override { return id_; }
  uint32_t num_partitions() const override { return uint32_t(cfg_.partitions); }
  uint64_t partition_bytes() const override { return groth16_partition_bytes(cfg_.partition_rows); }
  uint64_t resident_bytes() const override { return resident_; }
  std::unique_ptr<PartitionWork> synthesize(uint32_t p, CircuitResources& res, Synthesizer& synth) override {
    auto& r = static_cast<Groth16Resources&>(res);
    auto blank = [cfg = cfg_] {
      return std::make_unique<filecoin::circuit::StackedCircuit>(filecoin::porep_blank_circuit(cfg));
    };
    auto s = synth.synthesize(id_, filecoin::porep_partition_circuit(c1_, cfg_, p), blank);
    // Drop this partition's vanilla proofs: they are in the witness now.
    std::vector<filecoin::StackedProof>().swap(c1_.vanilla_proofs[p]);
    return std::make_unique<Groth16Work>(std::move(s.assignment), r, s.via_pce);
  }
  std::string verify(const std::string& proof, CircuitResources& res) override {
    std::vector<std::vector<ff::Fr>> inputs;
    for (size_t k = 0; k < cfg_.partitions; k++)
      inputs.push_back(
          filecoin::porep_public_inputs(cfg_, c1_.replica_id, c1_.comm_d, c1_.comm_r, c1_.seed, k));
    return verify_partitions(static_cast<Groth16Resources&>(res).pvk, proof, inputs);
  }

 private:
  std::string id_;
  PorepConfig cfg_;
  filecoin::SealCommitPhase1Output c1_;  // synthesize(p) empties only vanilla_proofs[p]
  uint64_t resident_;
};

}  // namespace

PorepHandler::PorepHandler(std::string dir)
    : CircuitTableHandler(kinds::PorepC2::spec, std::move(dir), porep_circuit) {}

std::unique_ptr<PreparedJob> PorepHandler::prepare(ProofRequest& req) {
  if (req.vanilla_proof.empty())
    throw ServiceError(Code::InvalidArgument,
                       "PoRep C2 needs the C1 output (wrapper or c1.json) in vanilla_proof");
  filecoin::C1Wrapper w;
  try {
    w = filecoin::parse_c1_any(req.vanilla_proof);
    filecoin::validate_c1_wrapper(w);
  } catch (const std::exception& e) {
    throw ServiceError(Code::InvalidArgument, std::string("C1 input: ") + e.what());
  }
  std::string().swap(req.vanilla_proof);  // parsed: the text is not kept
  auto cfg = filecoin::porep_config(uint64_t(w.phase1.registered_proof));
  // 0 is proto3's "unset" (it is also StackedDrg2KiBV1's number: such a
  // request relies on the C1 output alone).
  if (req.registered_proof != 0 && req.registered_proof != uint64_t(cfg->id)) {
    auto named = filecoin::porep_config(req.registered_proof);
    throw ServiceError(Code::InvalidArgument,
                       "request says registered_proof " + std::to_string(req.registered_proof) + " (" +
                           (named ? std::string(named->name) : std::string("unknown")) +
                           "), the C1 output is for " + std::to_string(uint64_t(cfg->id)) + " (" +
                           std::string(cfg->name) + ")");
  }
  if (req.sector_size != 0 && req.sector_size != cfg->sector_size)
    throw ServiceError(Code::InvalidArgument, "request says sector_size " + std::to_string(req.sector_size) +
                                                  ", the C1 output is for " + std::string(cfg->name) +
                                                  " (sector_size " + std::to_string(cfg->sector_size) + ")");
  try {
    filecoin::check_c1_challenges(w.phase1, *cfg);
    filecoin::verify_c1_vanilla(w.phase1, *cfg);
  } catch (const std::exception& e) {
    throw ServiceError(Code::InvalidArgument, std::string("C1 input: ") + e.what());
  }
  const CircuitInfo& circuit = circuit_with_parameters(uint64_t(cfg->id));
  return std::make_unique<PorepJob>(circuit.id, *cfg, std::move(w.phase1));
}

std::unique_ptr<KindHandler> kinds::PorepC2::handler(const std::string& param_dir) {
  return std::make_unique<PorepHandler>(param_dir);
}

}  // namespace cuzk::engine
