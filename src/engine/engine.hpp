#pragma once
// The proving engine: admission, the job board, and the pipeline's stages
// (dispatcher -> synthesis -> device workers with an interlock ->
// finalizers -> assembly), memory budget, parameter residency, TIMELINE.
//
// Engine wires the stages and answers the service's calls; each stage is
// an object of its own (docs/ARCHITECTURE.md):
//   engine.cpp        construction, the stages' wiring, shutdown
//   admission.*       Admission: submit and check (validation, limits, request ids)
//   job_board.*       JobBoard: the jobs (JobTable) and every change of their state
//   dispatcher.*      Dispatcher: batching, parameter loading (loader threads)
//   synthesis_stage.* SynthesisStage: the synthesis workers, their pacing and memory
//   device_stage.*    DeviceStage: device workers under the interlock, finalizers
//   results.cpp       assembly, failing and cancelling jobs, preload/evict
//   engine_report.cpp status, /status JSON, /metrics
//
// Lock order: a device's interlock -> JobBoard::mu_ -> SrsManager::mu_ ->
// MemoryBudget::mu_ -> the leaf locks (queues, Deallocator, TimelineEmitter,
// DeviceStage's worker states, Dispatcher's loading counts). No file I/O,
// parsing or proving runs under JobBoard::mu_.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/admission.hpp"
#include "engine/backend.hpp"
#include "engine/config.hpp"
#include "engine/deallocator.hpp"
#include "engine/device_stage.hpp"
#include "engine/dispatcher.hpp"
#include "engine/end_notifier.hpp"
#include "engine/job_board.hpp"
#include "engine/memory_budget.hpp"
#include "engine/pce_store.hpp"
#include "engine/service.hpp"
#include "engine/srs_manager.hpp"
#include "engine/stage_events.hpp"
#include "engine/synthesis_stage.hpp"
#include "engine/timeline_emitter.hpp"

namespace cuzk::engine {

// The budget an engine with this configuration gives parameters and
// partitions: memory.total_budget, or the usable memory less the safety
// margin, less the payload pool.
uint64_t proving_budget_bytes(const EngineConfig& c);

class Engine final : public ProvingService, private StageEvents {
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

  SubmitResult submit(ProofRequest req) override { return admission_.submit(std::move(req)); }
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
  using Checked = Admission::Checked;
  Checked check(const ProofRequest& req) const { return admission_.check(req); }
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
  KindHandler* handler_for_circuit(const std::string& circuit_id) const;
  // results.cpp: what the stages report (StageEvents)
  void fail(const std::shared_ptr<Job>& job, const std::string& msg) override;
  void proved(std::unique_ptr<PartitionItem> item, std::string proof, Device& dev) override;
  void drop_queued_work(const Job& job);

  EngineConfig cfg_;
  std::vector<std::unique_ptr<KindHandler>> handlers_;
  TimelineEmitter tl_;
  MemoryBudget payload_budget_;  // parsed payloads of admitted jobs (limits.payload_budget)
  MemoryBudget budget_;          // parameters and partitions: the rest of the total
  SrsManager srs_;
  PceStore pce_;
  Deallocator dealloc_;
  std::chrono::steady_clock::time_point started_;

  JobBoard board_;  // every job and its state
  DeviceStage devices_;
  SynthesisStage synthesis_;
  Dispatcher dispatcher_;
  Admission admission_;
  EndNotifier notifier_;  // last: the first to go, after shutdown ended every job
};

}  // namespace cuzk::engine
