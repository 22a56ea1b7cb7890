#pragma once
// Engine-internal job and partition records.
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "engine/memory_budget.hpp"
#include "engine/service.hpp"
#include "engine/srs_manager.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

enum class PartState { Pending, Synthesizing, SynthDone, Gpu, Done, Failed };
const char* part_state_name(PartState s);

inline uint64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return b > a ? uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count()) : 0;
}

// SHA-256 over every payload field of a request (not its priority): what
// makes a resubmission "the same request" (admission.cpp).
using PayloadDigest = std::array<uint8_t, 32>;

// Fields below `ended` are guarded by JobBoard's lock and changed by its
// methods alone. A job that has ended keeps only its result: `prepared`,
// `srs` and `admission` are dropped when it ends (JobBoard; work still in
// flight holds its own references).
struct Job {
  std::string id;          // names this job alone (admission.hpp: job_id_for)
  std::string request_id;  // as the client sent it; shared by resubmissions
  uint64_t seq = 0;
  ProofKind kind = ProofKind::Unspecified;
  Priority priority = Priority::Normal;
  PayloadDigest digest{};
  KindHandler* handler = nullptr;
  std::string circuit_id;
  uint32_t partitions = 0;
  std::atomic<bool> ended{false};  // terminal: queued work for it is dropped

  std::shared_ptr<PreparedJob> prepared;  // parsed payload, until the job ends
  Reservation admission;                  // its bytes in the memory budget
  SrsManager::Handle srs;                 // pins the parameters until partitions start
  bool dispatched = false;
  bool preparing = false;  // counted in the board's PreparingJobs
  uint32_t started = 0, done = 0;
  std::vector<std::string> proofs;
  std::vector<PartState> states;
  std::vector<uint64_t> synth_ms, gpu_ms;
  JobStatus status = JobStatus::Unknown;
  std::string error, proof;
  Clock::time_point submitted{}, first_start{}, finished_at{};
  bool has_started = false;
  uint64_t srs_load_ms = 0;
  std::vector<std::function<void(ProofResult)>> on_end;  // JobBoard::on_end, until it ends

  WorkKey key(uint32_t partition) const { return WorkKey{int(priority), seq, partition, 0}; }
};

// One partition in flight. It owns references to everything its stages read
// (the parsed payload and the parameters), so a cancel, a failure or an
// eviction can never free them under a running stage. `work` is declared
// after `srs` so that it is destroyed first.
struct PartitionItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<PreparedJob> prepared;
  SrsManager::Handle srs;
  uint32_t partition = 0;
  Reservation reservation;
  std::unique_ptr<PartitionWork> work;
  Clock::time_point gpu_start{};
  uint32_t worker = 0;
};

}  // namespace cuzk::engine
