#pragma once
// A proof kind for scheduler tests: partitions whose synthesis and device
// phase take a given time and whose "proof" is a deterministic 192-byte
// string, so ordering, cancellation and failure handling can be checked
// exactly. (Real Groth16 jobs are tested in the generic-R1CS suite.)
//
// Request: kind = GenericR1cs, circuit_id = "fake" or "fake2", vanilla_proofs[p] =
// "<synth_ms>,<device_ms>[,fail-synth|fail-device|fail-finish]".
#include <atomic>
#include <chrono>
#include <sstream>
#include <thread>

#include "engine/backend.hpp"

namespace cuzk::engine::test {

inline std::string fake_proof(const std::string& spec, uint32_t p) {
  std::string s(192, '\0');
  for (size_t i = 0; i < s.size(); i++) s[i] = char((spec.size() * 31 + p * 7 + i) & 0xff);
  return s;
}

// Parameters that know when they are freed: a stage that reads them after
// that counts a use-after-free (the engine must pin them while in use).
struct FakeResources : CircuitResources {
  uint64_t bytes;
  std::shared_ptr<std::atomic<bool>> alive = std::make_shared<std::atomic<bool>>(true);
  explicit FakeResources(uint64_t b) : bytes(b) {}
  ~FakeResources() override { *alive = false; }
  uint64_t size_bytes() const override { return bytes; }
};

struct FakeWork : PartitionWork {
  std::string spec;
  uint32_t p;
  int device_ms;
  bool fail_device, fail_finish;
  std::atomic<int>* active_on_device;
  std::atomic<int>* max_active_on_device;
  std::shared_ptr<std::atomic<bool>> params_alive;
  std::atomic<int>* reads_after_free;
  void check_params() {
    if (!*params_alive) ++*reads_after_free;
  }
  void device_phase(Device&) override {
    check_params();
    int now = ++*active_on_device;
    int prev = max_active_on_device->load();
    while (now > prev && !max_active_on_device->compare_exchange_weak(prev, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(device_ms));
    --*active_on_device;
    check_params();
    if (fail_device) throw std::runtime_error("injected device failure");
  }
  std::string finish(Device&) override {
    check_params();
    if (fail_finish) throw std::runtime_error("injected finish failure");
    return fake_proof(spec, p);
  }
};

struct FakeJob : PreparedJob {
  std::string circuit = "fake";
  std::vector<std::string> specs;
  uint64_t bytes = 1 << 20;
  std::atomic<int>* active;
  std::atomic<int>* max_active;
  std::atomic<int>* reads_after_free;
  std::string circuit_id() const override { return circuit; }
  uint32_t num_partitions() const override { return uint32_t(specs.size()); }
  uint64_t partition_bytes() const override { return bytes; }
  uint64_t resident_bytes() const override {
    uint64_t n = 0;
    for (auto& s : specs) n += s.size();
    return n;
  }
  std::unique_ptr<PartitionWork> synthesize(uint32_t p, CircuitResources& res, Synthesizer&) override {
    auto alive = static_cast<FakeResources&>(res).alive;
    std::istringstream in(specs[p]);
    int synth_ms = 0, device_ms = 0;
    char comma;
    std::string flag;
    in >> synth_ms >> comma >> device_ms;
    if (in >> comma) in >> flag;
    std::this_thread::sleep_for(std::chrono::milliseconds(synth_ms));
    if (!*alive) ++*reads_after_free;
    if (flag == "fail-synth") throw std::runtime_error("injected synthesis failure");
    auto w = std::make_unique<FakeWork>();
    w->spec = specs[p];
    w->p = p;
    w->device_ms = device_ms;
    w->fail_device = flag == "fail-device";
    w->fail_finish = flag == "fail-finish";
    w->active_on_device = active;
    w->max_active_on_device = max_active;
    w->params_alive = std::move(alive);
    w->reads_after_free = reads_after_free;
    return w;
  }
  std::string verify(const std::string& proof, CircuitResources&) override {
    for (uint32_t p = 0; p < specs.size(); p++)
      if (proof.substr(192 * p, 192) != fake_proof(specs[p], p))
        return "partition " + std::to_string(p) + " does not verify";
    return "";
  }
};

struct FakeHandler : KindHandler {
  std::atomic<int> active{0}, max_active{0};
  std::atomic<int> loads{0};
  std::atomic<int> reads_after_free{0};  // parameters read by a stage after they were freed
  uint64_t partition_bytes = 1 << 20;
  uint64_t srs_bytes = 4 << 20;
  std::string param_file;    // a real file to map
  std::string slow_circuit;  // its load takes slow_load
  std::chrono::milliseconds slow_load{0};
  ProofKind kind() const override { return ProofKind::GenericR1cs; }
  std::unique_ptr<PreparedJob> prepare(ProofRequest& req) override {
    if (req.circuit_id != "fake" && req.circuit_id != "fake2")
      throw ServiceError(ServiceError::Code::NotFound, "unknown circuit " + req.circuit_id);
    auto j = std::make_unique<FakeJob>();
    j->circuit = req.circuit_id;
    j->specs = req.vanilla_proofs;
    j->bytes = partition_bytes;
    j->active = &active;
    j->max_active = &max_active;
    j->reads_after_free = &reads_after_free;
    return j;
  }
  std::string param_path(const std::string&) override { return param_file; }
  std::shared_ptr<CircuitResources> load(const std::string& id, std::span<const uint8_t>) override {
    loads++;
    if (id == slow_circuit) std::this_thread::sleep_for(slow_load);
    return std::make_shared<FakeResources>(srs_bytes);
  }
  uint64_t estimate_size(const std::string&) override { return srs_bytes; }
  // The circuits whose "parameters" this daemon has (a daemon without any: {}).
  std::vector<std::string> circuits = {"fake", "fake2"};
  std::vector<std::string> list_circuits() override { return circuits; }
};

}  // namespace cuzk::engine::test
