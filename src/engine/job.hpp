#pragma once
// Engine-internal job and partition records.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "engine/memory_budget.hpp"
#include "engine/srs_manager.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

enum class PartState { Pending, Synthesizing, SynthDone, Gpu, Done, Failed };
const char* part_state_name(PartState s);

inline uint64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return b > a ? uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count())
               : 0;
}

// Fields below `ended` are guarded by Engine::mu_.
struct Job {
  std::string id;
  uint64_t seq = 0;
  ProofKind kind = ProofKind::Unspecified;
  Priority priority = Priority::Normal;
  uint64_t payload_hash = 0;
  KindHandler* handler = nullptr;
  std::unique_ptr<PreparedJob> prepared;
  std::string circuit_id;
  uint32_t partitions = 0;
  std::atomic<bool> ended{false};  // terminal: queued work for it is dropped

  SrsManager::Handle srs;
  bool dispatched = false;
  bool preparing = false;  // counted in Engine::preparing_jobs_
  uint32_t started = 0, done = 0;
  std::vector<std::string> proofs;
  std::vector<PartState> states;
  std::vector<uint64_t> synth_ms, gpu_ms;
  JobStatus status = JobStatus::Unknown;
  std::string error, proof;
  Clock::time_point submitted{}, first_start{}, finished_at{};
  bool has_started = false;
  uint64_t srs_load_ms = 0;

  WorkKey key(uint32_t partition) const {
    return WorkKey{int(priority), seq, partition, 0};
  }
};

struct PartitionItem {
  std::shared_ptr<Job> job;
  uint32_t partition = 0;
  Reservation reservation;
  std::unique_ptr<PartitionWork> work;
  Clock::time_point gpu_start{};
  uint32_t worker = 0;
};

struct WorkerState {
  uint32_t worker_id = 0;
  bool proving = false;
  std::string job_id, kind;
  int partition = -1;
  Clock::time_point since{};
  double busy_secs = 0;
};

struct DeviceSlot {
  std::unique_ptr<Device> device;
  std::mutex interlock;  // held only around the device phase
  WorkQueue<std::unique_ptr<PartitionItem>> final_queue;
  std::vector<WorkerState> workers;  // guarded by Engine::mu_
};

}  // namespace cuzk::engine
