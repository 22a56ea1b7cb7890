#pragma once
// The proving service as the server layer sees it: plain C++ types that
// mirror cuzk.v1 (proto/cuzk/v1/proving.proto) without depending on
// protobuf. The Engine implements it; tests may implement it with fakes.
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::engine {

// Values equal the wire enum numbers. GENERIC_R1CS is our extension. The
// kinds themselves (names, default priorities, the fields they read, their
// handlers) are data: engine/kinds/registry.hpp; a kind added there may take
// a number not named here.
enum class ProofKind : int {
  Unspecified = 0,
  PorepSealCommit = 1,
  SnapDealsUpdate = 2,
  WindowPostPartition = 3,
  WinningPost = 4,
  GenericR1cs = 100,
};
enum class Priority : int { Unspecified = 0, Low = 1, Normal = 2, High = 3, Critical = 4 };

// Short names used in TIMELINE details, metrics labels and status JSON
// (KindSpec::name: porep-c2, snap-update, window-post, winning-post,
// generic-r1cs); "unspecified" for a number no kind has.
const char* kind_name(ProofKind k);
// The kind's default when the request leaves priority unspecified.
Priority default_priority(ProofKind k);
// low, normal, high, critical (unspecified): metrics labels and status JSON.
const char* priority_name(Priority p);

struct ProofRequest {
  std::string request_id;  // idempotency key; empty = a fresh UUID
  ProofKind kind = ProofKind::Unspecified;
  uint64_t sector_size = 0;
  uint64_t registered_proof = 0;
  Priority priority = Priority::Unspecified;
  std::string vanilla_proof;                // PoRep: the C1 wrapper JSON
  std::vector<std::string> vanilla_proofs;  // SnapDeals/PoSt; GENERIC_R1CS: one witness per partition
  uint64_t sector_number = 0;
  uint64_t miner_id = 0;
  std::string randomness;
  uint32_t partition_index = 0;
  std::string comm_r_old, comm_r_new, comm_d_new;
  std::string circuit_id;  // GENERIC_R1CS: the registered circuit
};

enum class JobStatus : int { Unknown = 0, Completed = 1, Failed = 2, Cancelled = 3, Timeout = 4 };
// completed, failed, cancelled, timeout (unknown): status JSON.
const char* job_status_name(JobStatus s);

struct ProofResult {
  std::string job_id;
  JobStatus status = JobStatus::Unknown;
  std::string proof;  // 192 bytes per partition, partition order
  std::string error_message;
  uint64_t queue_wait_ms = 0, srs_load_ms = 0, synthesis_ms = 0, gpu_compute_ms = 0, total_ms = 0;
};

struct SubmitResult {
  std::string job_id;
  uint32_t queue_position = 0;
  // The device's name when one device serves every job; "" when several do
  // (partitions go to whichever device frees first).
  std::string assigned_gpu;
};

// One compute device, listed once however many workers share it.
struct DeviceStatus {
  uint32_t ordinal = 0;
  std::string name;
  bool host_memory = false;  // memory_* is host RAM (the CPU backend), not device memory
  uint64_t memory_total_bytes = 0, memory_free_bytes = 0;
  uint32_t workers = 0, busy_workers = 0;
  // The worker inside the device phase, else the first busy one; "" when idle.
  std::string current_job_id, current_proof_kind;
};
// One device worker (gpus.gpu_workers_per_device of them per device).
struct WorkerStatus {
  uint32_t ordinal = 0;  // its device
  uint32_t worker_id = 0;
  std::string current_job_id, current_proof_kind;
  int current_partition = -1;
  double busy_secs = 0;
};
enum class SrsTier : int { Hot = 0, Warm = 1, Cold = 2 };
struct SrsStatus {
  std::string circuit_id;
  SrsTier tier = SrsTier::Cold;
  uint64_t size_bytes = 0;
  uint32_t ref_count = 0;
  uint64_t device_bytes = 0;  // uploaded to devices (VRAM), over all devices
};
struct QueueStatus {
  std::string proof_kind;
  uint32_t pending = 0;      // jobs not started (includes queued partitions)
  uint32_t in_progress = 0;  // jobs with partitions in flight
};
struct StatusSnapshot {
  std::vector<DeviceStatus> devices;
  std::vector<WorkerStatus> workers;
  std::vector<SrsStatus> loaded_srs;
  std::vector<QueueStatus> queues;
  uint64_t total_proofs_completed = 0, total_proofs_failed = 0;
  uint64_t uptime_seconds = 0;
  uint64_t budget_used_bytes = 0, budget_limit_bytes = 0;  // the engine's memory budget
  uint64_t pinned_used_bytes = 0, pinned_limit_bytes = 0;  // page-locked staging (none on CPU)
};

struct PreloadResult {
  bool already_loaded = false;
  uint64_t load_time_ms = 0;
};
struct EvictResult {
  bool was_loaded = false;
  uint64_t freed_bytes = 0;
};

// Errors that map to gRPC status codes.
class ServiceError : public std::runtime_error {
 public:
  enum class Code {
    InvalidArgument,
    NotFound,
    AlreadyExists,
    FailedPrecondition,
    ResourceExhausted,
    Unavailable,
    Internal
  };
  ServiceError(Code c, const std::string& msg) : std::runtime_error(msg), code_(c) {}
  Code code() const { return code_; }

 private:
  Code code_;
};

class ProvingService {
 public:
  virtual ~ProvingService() = default;
  // Takes the request by value: its payload is moved into the job, not copied.
  virtual SubmitResult submit(ProofRequest req) = 0;
  // Blocks until the job ends or the timeout passes (status Timeout, job keeps running).
  virtual ProofResult await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) = 0;
  // Returns was_running; throws NotFound for unknown ids.
  virtual bool cancel(const std::string& job_id) = 0;
  virtual StatusSnapshot status() const = 0;
  virtual std::string metrics_text() const = 0;  // Prometheus exposition
  virtual std::string status_json() const = 0;   // GET /status body (docs/PROTOCOL.md §6)
  virtual PreloadResult preload(const std::string& circuit_id) = 0;
  virtual EvictResult evict(const std::string& circuit_id) = 0;
};

}  // namespace cuzk::engine
