#pragma once
// A scripted ProvingService for testing the server layer in isolation.
//
// submit() behaviour is chosen by circuit_id:
//   "invalid" -> InvalidArgument      "missing" -> NotFound
//   "busy"    -> ResourceExhausted    "precondition" -> FailedPrecondition
//   "unavailable" -> Unavailable      "internal" -> ServiceError Internal
//   "throw"   -> std::runtime_error   anything else -> accepted
// A job finishes when complete()/fail() is called, or at once when its
// vanilla_proof starts with "instant:" (the proof is the rest of it).
// request_id is an idempotency key: same payload -> same job, different
// payload -> AlreadyExists.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "engine/service.hpp"

namespace cuzk::test {

using namespace cuzk::engine;

class FakeService final : public ProvingService {
 public:
  SubmitResult submit(ProofRequest req) override {
    using C = ServiceError::Code;
    const auto& c = req.circuit_id;
    if (c == "invalid") throw ServiceError(C::InvalidArgument, "bad witness length for partition 1");
    if (c == "missing") throw ServiceError(C::NotFound, "unknown circuit 'missing'");
    if (c == "busy") throw ServiceError(C::ResourceExhausted, "queue full");
    if (c == "precondition") throw ServiceError(C::FailedPrecondition, "not ready");
    if (c == "unavailable") throw ServiceError(C::Unavailable, "shutting down");
    if (c == "internal") throw ServiceError(C::Internal, "engine bug");
    if (c == "throw") throw std::runtime_error("unexpected failure");

    std::lock_guard<std::mutex> lk(mu_);
    requests.push_back(req);
    const std::string payload = fingerprint(req);
    std::string id = req.request_id;
    if (id.empty()) id = "job-" + std::to_string(++next_id_);
    auto it = jobs_.find(id);
    if (it != jobs_.end()) {
      if (it->second.payload != payload)
        throw ServiceError(C::AlreadyExists, "request_id '" + id + "' reused with a different payload");
      return {id, 0, "cpu:0"};
    }
    Job j;
    j.payload = payload;
    j.result.job_id = id;
    if (req.vanilla_proof.rfind("instant:", 0) == 0) {
      j.done = true;
      j.result.status = JobStatus::Completed;
      j.result.proof = req.vanilla_proof.substr(8);
      j.result.total_ms = 7;
      j.result.synthesis_ms = 3;
      j.result.gpu_compute_ms = 2;
      j.result.queue_wait_ms = 1;
      j.result.srs_load_ms = 4;
    }
    jobs_[id] = j;
    return {id, uint32_t(jobs_.size()), "cpu:0"};
  }

  ProofResult await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) override {
    std::unique_lock<std::mutex> lk(mu_);
    await_calls++;
    if (timeout) last_await_timeout_ms = timeout->count();
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) throw ServiceError(ServiceError::Code::NotFound, "unknown job " + job_id);
    waiters++;
    auto pred = [&] { return jobs_.at(job_id).done; };
    bool done = timeout ? cv_.wait_for(lk, *timeout, pred) : (cv_.wait(lk, pred), true);
    waiters--;
    if (!done) {
      ProofResult r;
      r.job_id = job_id;
      r.status = JobStatus::Timeout;
      return r;
    }
    return jobs_.at(job_id).result;
  }

  bool cancel(const std::string& job_id) override {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) throw ServiceError(ServiceError::Code::NotFound, "unknown job " + job_id);
    bool running = it->second.running;
    if (!it->second.done) {
      it->second.done = true;
      it->second.result.status = JobStatus::Cancelled;
      it->second.result.error_message = "cancelled";
    }
    cv_.notify_all();
    return running;
  }

  StatusSnapshot status() const override {
    StatusSnapshot s;
    DeviceStatus g;
    g.ordinal = 0;
    g.name = "cpu";
    g.host_memory = true;
    g.memory_total_bytes = 1000;
    g.memory_free_bytes = 400;
    g.workers = 2;
    g.busy_workers = 1;
    g.current_job_id = "j1";
    g.current_proof_kind = "generic-r1cs";
    s.devices.push_back(g);
    s.loaded_srs.push_back({"porep-2k", SrsTier::Warm, 12345, 2});
    s.queues.push_back({"generic-r1cs", 3, 1});
    s.total_proofs_completed = 10;
    s.total_proofs_failed = 2;
    s.uptime_seconds = 99;
    s.budget_used_bytes = 777;
    s.budget_limit_bytes = 888;
    return s;
  }
  std::string metrics_text() const override {
    return "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total 10\n";
  }
  std::string status_json() const override { return R"({"uptime_secs":99,"counters":{"completed":10}})"; }

  PreloadResult preload(const std::string& circuit_id) override {
    if (circuit_id == "porep-2k") return {false, 12};
    if (circuit_id == "hot") return {true, 0};
    throw ServiceError(ServiceError::Code::NotFound, "unknown circuit " + circuit_id);
  }
  EvictResult evict(const std::string& circuit_id) override {
    if (circuit_id == "in-use")
      throw ServiceError(ServiceError::Code::FailedPrecondition, "circuit in use by 1 job");
    if (circuit_id == "porep-2k") return {true, 4096};
    return {false, 0};
  }

  // Test controls.
  void complete(const std::string& id, const std::string& proof) {
    finish(id, JobStatus::Completed, proof, "");
  }
  void fail(const std::string& id, const std::string& msg) { finish(id, JobStatus::Failed, "", msg); }
  void set_running(const std::string& id) {
    std::lock_guard<std::mutex> lk(mu_);
    jobs_.at(id).running = true;
  }
  // What an engine shutdown does: every unfinished job ends CANCELLED.
  void cancel_all() {
    std::lock_guard<std::mutex> lk(mu_);
    for (auto& [id, j] : jobs_)
      if (!j.done) {
        j.done = true;
        j.result.status = JobStatus::Cancelled;
        j.result.error_message = "daemon shutting down";
      }
    cv_.notify_all();
  }
  JobStatus job_status(const std::string& id) {
    std::lock_guard<std::mutex> lk(mu_);
    auto& j = jobs_.at(id);
    return j.done ? j.result.status : JobStatus::Unknown;
  }

  std::vector<ProofRequest> requests;  // every accepted submit, in order (guarded by mu_)
  std::atomic<int> waiters{0};
  std::atomic<int> await_calls{0};
  std::atomic<int64_t> last_await_timeout_ms{-1};
  std::vector<ProofRequest> snapshot_requests() {
    std::lock_guard<std::mutex> lk(mu_);
    return requests;
  }

 private:
  struct Job {
    std::string payload;
    bool done = false, running = false;
    ProofResult result;
  };
  static std::string fingerprint(const ProofRequest& r) {
    std::string s = std::to_string(int(r.kind)) + "|" + r.circuit_id + "|" + r.vanilla_proof + "|";
    for (const auto& v : r.vanilla_proofs) s += std::to_string(v.size()) + ":" + v;
    return s;
  }
  void finish(const std::string& id, JobStatus st, const std::string& proof, const std::string& err) {
    std::lock_guard<std::mutex> lk(mu_);
    auto& j = jobs_.at(id);
    j.done = true;
    j.result.status = st;
    j.result.proof = proof;
    j.result.error_message = err;
    j.result.total_ms = 42;
    cv_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Job> jobs_;
  uint64_t next_id_ = 0;
};

}  // namespace cuzk::test
