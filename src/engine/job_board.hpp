#pragma once
// The jobs and their lock: the job table, the counts, the jobs starting
// their partitions (synthesis_concurrency) and every state change of a job
// or a partition, each one method. The stages (dispatcher, synthesis,
// device) and the engine's queries go through it; none holds its lock while
// it works. Ending a job happens here alone (end): the job keeps only its
// result, its end callbacks are posted, waiters wake.
//
// Lock order: JobBoard::mu_ is taken after a device's interlock and before
// SrsManager, MemoryBudget and the queues' locks (docs/ARCHITECTURE.md).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/deallocator.hpp"
#include "engine/end_notifier.hpp"
#include "engine/job_table.hpp"
#include "engine/memory_budget.hpp"
#include "engine/preparing_jobs.hpp"

namespace cuzk::engine {

class JobBoard {
 public:
  using JobPtr = std::shared_ptr<Job>;

  // Ending a job frees its payload through `dealloc` (large ones), pokes
  // `budget`'s waiters and posts its callbacks to `notifier`.
  JobBoard(uint32_t synthesis_concurrency, Deallocator& dealloc, MemoryBudget& budget, EndNotifier& notifier)
      : preparing_(synthesis_concurrency), dealloc_(dealloc), budget_(budget), notifier_(notifier) {}

  // f(const JobTable&, const JobCounts&) under the lock: the status views.
  // f must not block, parse or prove.
  template <class F>
  decltype(auto) with_table(F&& f) const {
    std::lock_guard lk(mu_);
    return f(std::as_const(jobs_), std::as_const(counts_));
  }
  // f(JobTable&) under the lock if the engine still accepts jobs; throws
  // ServiceError(Unavailable) once it is shutting down.
  template <class F>
  decltype(auto) admitting(F&& f) {
    std::lock_guard lk(mu_);
    if (!accepting_) throw ServiceError(ServiceError::Code::Unavailable, "daemon is shutting down");
    return f(jobs_);
  }
  // Throws ServiceError(Unavailable) once the engine is shutting down.
  void require_accepting() const;
  // Wakes the waits below (a job was queued, parameters loaded).
  void notify() { cv_.notify_all(); }

  // --- admission and shutdown
  // Refuses new jobs from now; false if it already did.
  bool stop_accepting();
  bool stopping() const { return stopping_.load(); }
  // Jobs not yet dispatched end CANCELLED with `why`.
  void end_undispatched(const std::string& why);
  // Waits up to `grace` for every job to end, ends the rest CANCELLED with
  // `why`, and marks the engine stopping.
  void end_all_after(std::chrono::milliseconds grace, const std::string& why);

  // --- the dispatcher
  // True while the job may still be dispatched (not ended, engine running).
  bool dispatchable(const Job& job) const;
  // The parameters the job holds (a loader pinned them): true if it does.
  bool holds_parameters(const Job& job) const;
  // The job keeps `handle` until its partitions start; false (handle
  // dropped) when it has ended meanwhile.
  bool hold_parameters(Job& job, SrsManager::Handle handle);
  enum class Start { Go, Overtaken, Gone };
  // Waits until the job may start its partitions (synthesis_concurrency,
  // with its priority exception), `overtaken()` says a better job waits
  // (Overtaken: the job keeps its parameters), or it ends or the engine
  // stops (Gone). On Go the job counts as preparing and `items` holds one
  // PartitionItem per partition, each pinning the payload and parameters.
  Start wait_to_start(const JobPtr& job, const std::function<bool()>& overtaken,
                      std::vector<std::unique_ptr<PartitionItem>>& items);
  // Waits until the job ends or the engine stops (one job at a time).
  void wait_ended(const Job& job);

  // --- partitions in the pipeline
  // Partition p begins synthesis; false when its job has ended.
  bool synthesis_started(Job& job, uint32_t p);
  void synthesis_ended(Job& job, uint32_t p, uint64_t ms);
  void device_started(Job& job, uint32_t p);
  void device_ended(Job& job, uint32_t p, uint64_t ms);
  // The partition's proof; the job's proofs in order once it is the last
  // one (the job then awaits assembly), nullopt before or if it has ended.
  std::optional<std::string> proved(Job& job, uint32_t p, std::string proof);

  // --- ending jobs
  // Ends the job with its assembled proof; false if it had ended.
  bool complete(Job& job, std::string proof);
  // Ends the job FAILED with `msg`; false if it had ended.
  bool fail(Job& job, const std::string& msg);
  // Ends every live job an id names (a job id, or all jobs of a request id)
  // CANCELLED, each with whether it had started; throws NotFound.
  std::vector<std::pair<JobPtr, bool>> cancel(const std::string& id);

  // --- results
  ProofResult await(const std::string& id, std::optional<std::chrono::milliseconds> timeout);
  // fn(result) once the job ends: posted to the notifier, or at once here
  // when it has ended already. Throws NotFound.
  void on_end(const std::string& id, EndNotifier::Callback fn);

 private:
  // What await answers for the job now; `timeout` names the wait in the
  // message of a job still running.
  static ProofResult result_locked(const Job& job, std::optional<std::chrono::milliseconds> timeout);
  void end_locked(Job& job, JobStatus st, const std::string& err);
  void end_preparing_locked(Job& job);

  mutable std::mutex mu_;
  std::condition_variable cv_;  // job state changes (await, the dispatcher's waits)
  JobTable jobs_;
  JobCounts counts_;
  PreparingJobs preparing_;
  bool accepting_ = true;
  std::atomic<bool> stopping_{false};
  Deallocator& dealloc_;
  MemoryBudget& budget_;
  EndNotifier& notifier_;
};

}  // namespace cuzk::engine
