#pragma once
// The proving engine: admission, batching, per-partition pipeline
// (synthesis pool -> device queue -> device workers with an interlock ->
// finalizers -> assembler), memory budget, parameter residency, TIMELINE.
//
// One class, implemented in one file per stage (docs/ARCHITECTURE.md):
//   engine.cpp      construction, threads, shutdown
//   admission.cpp   submit: validation, limits, request ids
//   job_table.cpp   the jobs by job id and request id, retention, counts
//   dispatcher.cpp  batching, parameter loading (loader threads), start of partitions
//   pipeline.cpp    synthesis, device and finalizer loops
//   results.cpp     assembly, ending jobs, await, cancel, preload/evict
//   engine_report.cpp  status, /status JSON, /metrics
//
// Lock order: Engine::mu_ -> SrsManager::mu_ -> MemoryBudget::mu_ ->
// Deallocator / TimelineEmitter / WorkQueue locks. No file I/O, parsing or
// proving runs under mu_.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "engine/backend.hpp"
#include "engine/config.hpp"
#include "engine/deallocator.hpp"
#include "engine/end_notifier.hpp"
#include "engine/job_table.hpp"
#include "engine/memory_budget.hpp"
#include "engine/service.hpp"
#include "engine/pce_store.hpp"
#include "engine/preparing_jobs.hpp"
#include "engine/srs_manager.hpp"
#include "engine/synthesis_pacer.hpp"
#include "engine/timeline_emitter.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

struct DeviceSlot;
struct PartitionItem;  // a partition moving through the queues

// Throws ServiceError(InvalidArgument) unless `id` is at most 256 bytes of
// printable ASCII without commas or edge spaces (it is written into TIMELINE
// lines; Curio's WindowPoSt ids have inner spaces).
void validate_request_id(const std::string& id);
// A fresh job id (a random UUID) for a request without request_id.
std::string new_job_id();
// The id of job number `seq` submitted under `request_id` (non-empty):
// "<request_id>#<seq>", unique for the engine's life (docs/PROTOCOL.md §1).
std::string job_id_for(const std::string& request_id, uint64_t seq);

class Engine final : public ProvingService {
 public:
  // Handlers serve the proof kinds; devices default to those of the
  // configuration (engine/devices.hpp: gpus.backend, gpus.devices). `timeline_sink` replaces
  // stderr for TIMELINE lines (tests).
  Engine(EngineConfig cfg, std::vector<std::unique_ptr<KindHandler>> handlers,
         TimelineEmitter::Sink timeline_sink = {}, std::vector<std::unique_ptr<Device>> devices = {});
  ~Engine() override;

  // Stops admission, cancels queued jobs, lets running partitions finish for
  // up to `grace`, cancels what is left and answers every waiter.
  void shutdown(std::chrono::milliseconds grace);

  SubmitResult submit(ProofRequest req) override;
  ProofResult await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) override;
  bool cancel(const std::string& job_id) override;
  StatusSnapshot status() const override;
  std::string metrics_text() const override;
  std::string status_json() const override;
  PreloadResult preload(const std::string& circuit_id) override;
  EvictResult evict(const std::string& circuit_id) override;

  // Fleet mode (fleet/bridge.hpp) asks these instead of submitting.
  // check(): what submit would refuse, without admitting the job — the
  // request checks and the handler's parse-and-validate on a copy of the
  // request; throws ServiceError as submit does.
  struct Checked {
    std::string circuit_id;
    uint32_t partitions = 0;
  };
  Checked check(const ProofRequest& req) const;
  // Calls fn once with the job's result when it ends: on the engine's
  // notifier thread, or at once on this thread when it has ended already.
  // What await would answer, without a thread blocked per job (fleet mode
  // hears of its claimed jobs so). Throws ServiceError NotFound for an
  // unknown id. flush_end_callbacks() returns once every callback of a job
  // that has ended has returned (never call it from a callback).
  void on_end(const std::string& job_id, EndNotifier::Callback fn);
  void flush_end_callbacks() { notifier_.flush(); }
  // What the claim loop needs to size its claims.
  struct Capacity {
    uint32_t device_workers = 0;            // over all devices
    uint32_t live_jobs = 0;                 // admitted, not ended
    uint64_t payload_free_bytes = 0;        // room left in the payload pool
    std::vector<std::string> hot_circuits;  // parameters resident (HOT)
  };
  Capacity capacity() const;

  const EngineConfig& config() const { return cfg_; }
  TimelineEmitter& timeline() { return tl_; }
  const MemoryBudget& budget() const { return budget_; }
  const MemoryBudget& payload_budget() const { return payload_budget_; }

 private:
  KindHandler* handler_for(ProofKind k) const;
  KindHandler* handler_for_circuit(const std::string& circuit_id) const;
  // admission.cpp
  // The checks that need no parsing: kind, request id, payload size.
  void check_request(const ProofRequest& req) const;
  // The handler's parse-and-validate (a non-ServiceError becomes
  // InvalidArgument) and the limits on what it parsed: partitions, and a
  // partition that could never fit the budget. What submit and check share.
  std::unique_ptr<PreparedJob> prepare_request(ProofRequest& req) const;
  // The job that answers req if one of its request id does (JobTable::
  // reusable), as submit answers it. Under mu_.
  std::optional<SubmitResult> existing_locked(const ProofRequest& req, const PayloadDigest& d) const;
  // What await answers for the job now (results.cpp); `timeout` names the
  // wait in the message of a job still running.
  ProofResult result_locked(const Job& job, std::optional<std::chrono::milliseconds> timeout) const;
  std::string assigned_device() const;
  // dispatcher.cpp
  void dispatcher_loop();
  void loader_loop();
  // True when the job holds its parameters (HOT); false when it went to a
  // loader thread (it comes back through job_queue_) or has ended.
  bool pin_parameters(const std::shared_ptr<Job>& job);
  // Starts a job's partitions once preparing_ lets it; gives it back to the
  // job queue when a better job arrives while it waits.
  void dispatch(const std::shared_ptr<Job>& job);
  // The job has started all its partitions (or ended): no longer preparing.
  void end_preparing_locked(Job& job);
  void synthesis_loop();
  void device_loop(DeviceSlot& dev, uint32_t worker_id);
  void finalizer_loop(DeviceSlot& dev);
  // The item if its job is still alive; otherwise it is dropped (nullptr).
  std::unique_ptr<PartitionItem> take_live(std::unique_ptr<PartitionItem> item);
  void partition_done(std::unique_ptr<PartitionItem> item, std::string proof, Device& dev);
  void fail_job(const std::shared_ptr<Job>& job, const std::string& msg);
  // Ends a job (under mu_): sets status, wakes waiters, drops queued work.
  void finish_locked(Job& job, JobStatus st, const std::string& err);
  void drop_queued_work(const Job& job);

  EngineConfig cfg_;
  std::vector<std::unique_ptr<KindHandler>> handlers_;
  TimelineEmitter tl_;
  MemoryBudget payload_budget_;  // parsed payloads of admitted jobs (limits.payload_budget)
  MemoryBudget budget_;          // parameters and partitions: the rest of the total
  SrsManager srs_;
  PceStore pce_;
  Deallocator dealloc_;
  tbb::task_arena synth_arena_;
  std::chrono::steady_clock::time_point started_;

  mutable std::mutex mu_;
  std::condition_variable job_cv_;                    // job state changes (await, pipeline-off dispatch)
  JobTable jobs_;                                     // every retained job, by job id and by request id
  JobCounts counts_;                                  // jobs ended since start
  std::map<std::string, uint32_t> loading_circuits_;  // jobs with a loader, by circuit
  bool accepting_ = true;
  PreparingJobs preparing_{cfg_.synthesis_concurrency};  // jobs starting their partitions
  SynthesisPacer pacer_{cfg_.throttle_synthesis_during_tail, cfg_.max_gpu_queue_depth};

  WorkQueue<std::shared_ptr<Job>> job_queue_;
  WorkQueue<std::shared_ptr<Job>> load_queue_;  // jobs whose parameters are not HOT
  WorkQueue<std::unique_ptr<PartitionItem>> synth_queue_;
  WorkQueue<std::unique_ptr<PartitionItem>> device_queue_;
  std::vector<std::unique_ptr<DeviceSlot>> devices_;

  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  EndNotifier notifier_;  // last: the first to go, after shutdown ended every job

  friend struct EngineReport;
};

}  // namespace cuzk::engine
