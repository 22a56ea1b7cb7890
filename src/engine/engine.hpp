#pragma once
// The proving engine: admission, batching, per-partition pipeline
// (synthesis pool -> device queue -> device workers with an interlock ->
// finalizers -> assembler), memory budget, parameter residency, TIMELINE.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "engine/backend.hpp"
#include "engine/config.hpp"
#include "engine/deallocator.hpp"
#include "engine/memory_budget.hpp"
#include "engine/service.hpp"
#include "engine/srs_manager.hpp"
#include "engine/timeline_emitter.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

struct Job;
struct DeviceSlot;
struct PartitionItem;  // a partition moving through the queues

class Engine final : public ProvingService {
 public:
  // Handlers serve the proof kinds; devices default to one CPU device per
  // entry of config.devices (or one when empty). `timeline_sink` replaces
  // stderr for TIMELINE lines (tests).
  Engine(EngineConfig cfg, std::vector<std::unique_ptr<KindHandler>> handlers,
         TimelineEmitter::Sink timeline_sink = {},
         std::vector<std::unique_ptr<Device>> devices = {});
  ~Engine() override;

  // Stops admission, cancels queued jobs, lets running partitions finish for
  // up to `grace`, cancels what is left and answers every waiter.
  void shutdown(std::chrono::milliseconds grace);

  SubmitResult submit(const ProofRequest& req) override;
  ProofResult await(const std::string& job_id,
                    std::optional<std::chrono::milliseconds> timeout) override;
  bool cancel(const std::string& job_id) override;
  StatusSnapshot status() const override;
  std::string metrics_text() const override;
  std::string status_json() const override;
  PreloadResult preload(const std::string& circuit_id) override;
  EvictResult evict(const std::string& circuit_id) override;

  const EngineConfig& config() const { return cfg_; }
  TimelineEmitter& timeline() { return tl_; }
  const MemoryBudget& budget() const { return budget_; }

 private:
  KindHandler* handler_for(ProofKind k) const;
  KindHandler* handler_for_circuit(const std::string& circuit_id) const;
  void dispatcher_loop();
  void dispatch(const std::shared_ptr<Job>& job);
  void synthesis_loop();
  void device_loop(DeviceSlot& dev, uint32_t worker_id);
  void finalizer_loop(DeviceSlot& dev);
  // The item if its job is still alive; otherwise it is dropped (nullptr).
  std::unique_ptr<PartitionItem> take_live(std::unique_ptr<PartitionItem> item);
  void partition_done(const std::shared_ptr<Job>& job, uint32_t p, std::string proof,
                      Device& dev);
  void fail_job(const std::shared_ptr<Job>& job, const std::string& msg);
  // Ends a job (under mu_): sets status, wakes waiters, drops queued work.
  void finish_locked(Job& job, JobStatus st, const std::string& err);
  void drop_queued_work(const std::string& job_id);
  void prune_locked();

  EngineConfig cfg_;
  std::vector<std::unique_ptr<KindHandler>> handlers_;
  TimelineEmitter tl_;
  MemoryBudget budget_;
  SrsManager srs_;
  Deallocator dealloc_;
  tbb::task_arena synth_arena_;
  std::chrono::steady_clock::time_point started_;

  mutable std::mutex mu_;
  std::condition_variable job_cv_;  // job state changes (await, pipeline-off dispatch)
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  uint64_t next_seq_ = 1;
  uint64_t completed_ = 0, failed_ = 0;
  std::map<std::string, uint64_t> completed_by_kind_, failed_by_kind_;
  std::vector<double> durations_s_;  // for the histogram
  bool accepting_ = true;
  uint32_t preparing_jobs_ = 0;  // dispatched jobs with partitions not yet started
  std::atomic<uint32_t> synthesizing_{0};
  std::atomic<uint32_t> tails_running_{0};

  WorkQueue<std::shared_ptr<Job>> job_queue_;
  WorkQueue<std::unique_ptr<PartitionItem>> synth_queue_;
  WorkQueue<std::unique_ptr<PartitionItem>> device_queue_;
  std::vector<std::unique_ptr<DeviceSlot>> devices_;

  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};

  friend struct EngineReport;
};

}  // namespace cuzk::engine
