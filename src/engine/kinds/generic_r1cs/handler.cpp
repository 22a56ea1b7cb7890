#include "engine/kinds/generic_r1cs/handler.hpp"

#include "engine/groth16_work.hpp"

#include <filesystem>
#include <fstream>

#include "groth16/io.hpp"
#include "platform/mapped_file.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/evaluate.hpp"
#include "r1cs/r1cs_file.hpp"

namespace cuzk::engine {

namespace fs = std::filesystem;
using Code = ServiceError::Code;

namespace {

constexpr const char* kR1csExt = ".cuzk-r1cs";
constexpr const char* kParamsExt = ".params";

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 200 || id[0] == '.') return false;
  for (char c : id)
    if (!(std::isalnum(uint8_t(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

struct GenericResources final : Groth16Resources {
  r1cs::R1cs shape;
  r1cs::ShapeDensities densities;
};

class GenericJob final : public PreparedJob {
 public:
  GenericJob(std::string id, std::vector<std::string> witnesses, uint64_t vars, uint64_t rows,
             uint64_t inputs)
      : id_(std::move(id)),
        witnesses_(std::move(witnesses)),
        vars_(vars),
        rows_(rows),
        inputs_(inputs),
        public_inputs_(witnesses_.size()) {}

  std::string circuit_id() const override { return id_; }
  uint32_t num_partitions() const override { return uint32_t(witnesses_.size()); }
  uint64_t partition_bytes() const override {
    // z, a/b/c, and the H evaluations over the (≥ rows) domain, twice for the coset pass.
    uint64_t m = 1;
    while (m < rows_ + inputs_) m <<= 1;
    return 32 * (vars_ + 3 * rows_ + 2 * m) + (1 << 16);
  }
  uint64_t resident_bytes() const override {
    uint64_t n = 0;
    for (const auto& w : witnesses_) n += w.size();
    return n + 32 * inputs_ * witnesses_.size();  // and the public inputs kept for the self-check
  }
  // Already an evaluation of the circuit's matrices: no Synthesizer needed.
  std::unique_ptr<PartitionWork> synthesize(uint32_t p, CircuitResources& res, Synthesizer&) override {
    auto& r = static_cast<GenericResources&>(res);
    const std::string& w = witnesses_[p];
    auto z =
        r1cs::parse_witness(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(w.data()), w.size()),
                            "witness of partition " + std::to_string(p));
    public_inputs_[p].assign(z.begin() + 1, z.begin() + r.shape.num_inputs);
    groth16::Assignment a = r1cs::evaluate(r.shape, r.densities, z);
    groth16::add_input_constraints(a);
    witnesses_[p].clear();
    witnesses_[p].shrink_to_fit();
    return std::make_unique<Groth16Work>(std::move(a), r);
  }
  std::string verify(const std::string& proof, CircuitResources& res) override {
    return verify_partitions(static_cast<GenericResources&>(res).pvk, proof, public_inputs_);
  }

 private:
  std::string id_;
  std::vector<std::string> witnesses_;
  uint64_t vars_, rows_, inputs_;
  // Sized once here: synthesis threads write their own partition's entry.
  std::vector<std::vector<ff::Fr>> public_inputs_;
};

// Reads the header of a .cuzk-r1cs file: (num_inputs, num_aux, num_constraints).
std::array<uint64_t, 3> read_r1cs_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint8_t b[40];
  if (!in.read(reinterpret_cast<char*>(b), sizeof b))
    throw ServiceError(Code::FailedPrecondition, path + ": truncated circuit file");
  auto u64 = [&](int off) {
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x |= uint64_t(b[off + i]) << (8 * i);
    return x;
  };
  if (std::string(reinterpret_cast<char*>(b), 8) != "CUZKR1CS")
    throw ServiceError(Code::FailedPrecondition, path + ": not a cuzk R1CS circuit file");
  return {u64(16), u64(24), u64(32)};
}

}  // namespace

GenericR1csHandler::GenericR1csHandler(std::string dir) : dir_(std::move(dir)) {}

std::string GenericR1csHandler::r1cs_path(const std::string& dir, const std::string& id) {
  return (fs::path(dir) / (id + kR1csExt)).string();
}
std::string GenericR1csHandler::params_path(const std::string& dir, const std::string& id) {
  return (fs::path(dir) / (id + kParamsExt)).string();
}

std::unique_ptr<PreparedJob> GenericR1csHandler::prepare(ProofRequest& req) {
  if (!valid_id(req.circuit_id))
    throw ServiceError(Code::InvalidArgument,
                       "circuit_id '" + req.circuit_id + "' is missing or not a valid circuit name");
  const std::string rp = r1cs_path(dir_, req.circuit_id);
  if (!fs::exists(rp) || !fs::exists(params_path(dir_, req.circuit_id)))
    throw ServiceError(Code::NotFound, "unknown circuit " + req.circuit_id + ": no " + req.circuit_id +
                                           ".cuzk-r1cs/.params in the parameter directory");
  if (req.vanilla_proofs.empty())
    throw ServiceError(Code::InvalidArgument,
                       "generic R1CS jobs need one witness per partition in vanilla_proofs");
  auto [inputs, aux, rows] = read_r1cs_header(rp);
  // Cheap length check now, full validation at synthesis.
  for (size_t p = 0; p < req.vanilla_proofs.size(); p++) {
    const auto& w = req.vanilla_proofs[p];
    uint64_t want = 24 + 32 * (inputs + aux);
    if (w.size() < 8 || w.compare(0, 8, "CUZKWTNS") != 0)
      throw ServiceError(Code::InvalidArgument,
                         "partition " + std::to_string(p) + ": not a cuzk witness file");
    if (w.size() != want)
      throw ServiceError(Code::InvalidArgument,
                         "partition " + std::to_string(p) + ": witness has " +
                             std::to_string(w.size() >= 24 ? (w.size() - 24) / 32 : 0) + " values, circuit " +
                             req.circuit_id + " needs " + std::to_string(inputs + aux));
  }
  return std::make_unique<GenericJob>(req.circuit_id, std::move(req.vanilla_proofs), inputs + aux, rows,
                                      inputs);
}

std::string GenericR1csHandler::param_path(const std::string& id) {
  if (!valid_id(id)) throw ServiceError(Code::InvalidArgument, "invalid circuit id '" + id + "'");
  return params_path(dir_, id);
}

std::shared_ptr<CircuitResources> GenericR1csHandler::load(const std::string& id,
                                                           std::span<const uint8_t> mapped) {
  auto res = std::make_shared<GenericResources>();
  const std::string rp = r1cs_path(dir_, id);
  platform::MappedFile rf(rp);
  res->shape = r1cs::parse_r1cs(rf.bytes(), rp);
  res->densities = r1cs::ShapeDensities::of(res->shape);
  res->load_params(mapped, params_path(dir_, id));
  if (res->params.vk.num_inputs() != res->shape.num_inputs || res->params.l.size() != res->shape.num_aux)
    throw std::runtime_error(params_path(dir_, id) + ": parameters do not match circuit " + rp + " (" +
                             std::to_string(res->params.vk.num_inputs()) + " inputs / " +
                             std::to_string(res->params.l.size()) + " aux vs " +
                             std::to_string(res->shape.num_inputs) + " / " +
                             std::to_string(res->shape.num_aux) + ")");
  res->extra_bytes = rf.size();
  return res;
}

uint64_t GenericR1csHandler::estimate_size(const std::string& id) {
  std::error_code ec1, ec2;
  uint64_t a = fs::file_size(params_path(dir_, id), ec1), b = fs::file_size(r1cs_path(dir_, id), ec2);
  return (ec1 ? 0 : a * 11 / 10) + (ec2 ? 0 : b);
}

std::vector<std::string> GenericR1csHandler::list_circuits() {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(dir_, ec)) {
    auto name = e.path().filename().string();
    if (name.size() > 10 && name.ends_with(kR1csExt)) {
      std::string id = name.substr(0, name.size() - std::string(kR1csExt).size());
      if (fs::exists(params_path(dir_, id))) out.push_back(id);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<KindHandler> kinds::GenericR1cs::handler(const std::string& param_dir) {
  return std::make_unique<GenericR1csHandler>(param_dir);
}

}  // namespace cuzk::engine
