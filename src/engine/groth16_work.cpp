#include "engine/groth16_work.hpp"

#include <oneapi/tbb/task_arena.h>

#include <filesystem>

#include "groth16/io.hpp"
#include "groth16/rng.hpp"

namespace cuzk::engine {

void Groth16Resources::load_params(std::span<const uint8_t> mapped, const std::string& path) {
  params = groth16::decode_parameters(mapped, path, ec::Check::SkipSubgroup);
  pvk = groth16::prepare_verifying_key(params.vk);
}

const groth16::DeviceKey& Groth16Resources::key_for(device::Backend& backend) {
  std::lock_guard lk(keys_mu_);
  for (const auto& k : keys_)
    if (k->backend == &backend) return *k;
  // Under the lock: two workers of one device must not upload twice (a GPU
  // copies gigabytes); other devices wait for this upload meanwhile.
  keys_.push_back(std::make_unique<groth16::DeviceKey>(groth16::upload(params, backend)));
  return *keys_.back();
}

uint64_t Groth16Resources::device_bytes() const {
  std::lock_guard lk(keys_mu_);
  uint64_t n = 0;
  for (const auto& k : keys_) n += k->device_bytes();
  return n;
}

uint64_t Groth16Resources::size_bytes() const {
  const auto& p = params;
  return extra_bytes + sizeof(ec::G1Affine) * (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) +
         sizeof(ec::G2Affine) * p.b_g2.size();
}

std::shared_ptr<Groth16Resources> load_circuit_params(std::span<const uint8_t> mapped,
                                                      const std::string& path, const std::string& id,
                                                      size_t inputs) {
  auto res = std::make_shared<Groth16Resources>();
  res->load_params(mapped, path);
  if (res->params.vk.num_inputs() != inputs)
    throw std::runtime_error(path + ": verifying key has " + std::to_string(res->params.vk.num_inputs()) +
                             " inputs, " + id + " has " + std::to_string(inputs));
  return res;
}

uint64_t estimate_params_bytes(const std::string& path) {
  std::error_code ec;
  uint64_t n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n * 11 / 10;
}

groth16::ProverOptions arena_prover_options() {
  groth16::ProverOptions o;
  unsigned t = unsigned(tbb::this_task_arena::max_concurrency());
  o.msm.threads = t;
  o.ntt.threads = t;
  return o;
}

Groth16Work::Groth16Work(groth16::Assignment a, Groth16Resources& res, bool via_pce)
    : assignment_(std::move(a)), res_(res), via_pce_(via_pce) {
  abc_bytes_ = 3 * assignment_.a.size() * sizeof(ff::Fr);
}

void Groth16Work::device_phase(Device& dev) {
  groth16::SecureRng rng;
  pending_ =
      groth16::prove_start(std::move(assignment_), res_.key_for(dev.backend()), rng, arena_prover_options());
  assignment_ = {};
}

std::string Groth16Work::finish(Device&) {
  groth16::Proof proof = groth16::prove_finish(std::move(pending_), arena_prover_options());
  auto bytes = groth16::encode_proof(proof);
  return std::string(bytes.begin(), bytes.end());
}

std::string verify_partitions(const groth16::PreparedVerifyingKey& pvk, const std::string& proof,
                              const std::vector<std::vector<ff::Fr>>& public_inputs) {
  auto proofs = groth16::decode_proofs(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()),
      "assembled proof");
  if (proofs.size() != public_inputs.size())
    return "assembled " + std::to_string(proofs.size()) + " proofs for " +
           std::to_string(public_inputs.size()) + " partitions";
  groth16::SecureRng rng;
  if (groth16::verify_proofs_batch(pvk, std::span<const groth16::Proof>(proofs),
                                   std::span<const std::vector<ff::Fr>>(public_inputs), rng))
    return "";
  for (size_t p = 0; p < proofs.size(); p++)
    if (!groth16::verify_proof(pvk, proofs[p], public_inputs[p]))
      return "partition " + std::to_string(p) + " does not verify";
  return "batch verification failed";
}

}  // namespace cuzk::engine
