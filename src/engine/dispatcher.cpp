// The dispatcher: takes jobs from the job queue in priority order, batches
// same-circuit jobs, makes sure their parameters are resident and starts
// their partitions. Loading parameters is file I/O that can take minutes,
// so it runs on loader threads: a job whose parameters are not HOT goes to
// the load queue and comes back through the job queue once they are, while
// the dispatcher serves the jobs behind it (a CRITICAL job is not held up
// by a NORMAL job's load).
#include <thread>

#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

void Engine::dispatcher_loop() {
  while (auto first = job_queue_.pop()) {
    // Parameters first: a batch forms around a job that is ready to start.
    if (!pin_parameters(*first)) continue;
    std::vector<std::shared_ptr<Job>> batch{*first};
    if (cfg_.max_batch_size > 1) {
      // Collect same-kind, same-circuit jobs until the batch is full or the wait ends.
      auto deadline = Clock::now() + cfg_.max_batch_wait;
      while (batch.size() < cfg_.max_batch_size && Clock::now() < deadline && !stopping_) {
        size_t room = cfg_.max_batch_size - batch.size();
        auto more = job_queue_.remove_if([&](const WorkKey&, const std::shared_ptr<Job>& j) {
          if (!room || j->kind != batch[0]->kind || j->circuit_id != batch[0]->circuit_id) return false;
          room--;
          return true;
        });
        for (auto& j : more) batch.push_back(j);
        if (batch.size() < cfg_.max_batch_size) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      if (batch.size() > 1)
        tl_.emit(timeline::events::kBatch, batch[0]->id, "jobs=" + std::to_string(batch.size()));
    }
    for (auto& job : batch)
      if (pin_parameters(job)) dispatch(job);
  }
}

void Engine::loader_loop() {
  while (auto next = load_queue_.pop()) {
    std::shared_ptr<Job> job = std::move(*next);
    SrsManager::Handle handle;
    std::string error;
    if (!job->ended) {
      try {
        handle = srs_.acquire(job->circuit_id, *job->handler, job->id, int(job->priority));
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    {
      std::lock_guard lk(mu_);
      job->loading = false;
      // Back to the dispatcher (in priority order) before the circuit counts as loaded.
      if (error.empty() && !job->ended) {
        job->srs_load_ms = handle.load_ms();
        job->srs = std::move(handle);
        job_queue_.push(job->key(0), job);
        job_cv_.notify_all();
      }
      loading_circuits_[job->circuit_id]--;
    }
    if (!error.empty()) fail_job(job, "loading parameters for circuit " + job->circuit_id + ": " + error);
  }
}

bool Engine::pin_parameters(const std::shared_ptr<Job>& job) {
  bool hot;
  {
    std::lock_guard lk(mu_);
    if (job->ended || stopping_ || !accepting_) return false;
    hot = bool(job->srs);  // a loader pinned them
  }
  if (hot) return true;
  // Behind a job still loading the same circuit, wait in the load queue too,
  // so that the older job starts first.
  SrsManager::Handle handle;
  {
    std::lock_guard lk(mu_);
    if (loading_circuits_[job->circuit_id] == 0) hot = true;
  }
  if (hot) handle = srs_.acquire_if_hot(job->circuit_id);
  if (!handle && !cfg_.pipeline_enabled) {
    // One job at a time: nothing else could run meanwhile anyway.
    try {
      handle = srs_.acquire(job->circuit_id, *job->handler, job->id, int(job->priority));
    } catch (const std::exception& e) {
      fail_job(job, "loading parameters for circuit " + job->circuit_id + ": " + e.what());
      return false;
    }
  }
  std::lock_guard lk(mu_);
  if (job->ended) return false;
  if (!handle) {
    job->loading = true;
    loading_circuits_[job->circuit_id]++;
    load_queue_.push(job->key(0), job);
    return false;
  }
  if (handle.load_ms()) job->srs_load_ms = handle.load_ms();
  job->srs = std::move(handle);
  return true;
}

void Engine::end_preparing_locked(Job& job) {
  if (!job.preparing) return;
  job.preparing = false;
  preparing_.end(job.priority);
  job_cv_.notify_all();
}

void Engine::dispatch(const std::shared_ptr<Job>& job) {
  std::vector<std::unique_ptr<PartitionItem>> items;
  {
    std::unique_lock lk(mu_);
    // Waits for a slot; gives the job back to the queue when a better one
    // arrives meanwhile (submit and the loaders notify job_cv_), so the
    // dispatcher is never held by one job while a higher-priority job waits.
    bool overtaken = false;
    job_cv_.wait(lk, [&] {
      if (stopping_ || job->ended || !accepting_ || preparing_.may_start(job->priority)) return true;
      auto top = job_queue_.top_key();
      overtaken = top && *top < job->key(0);
      return overtaken;
    });
    if (job->ended || stopping_ || !accepting_) return;
    if (overtaken && !preparing_.may_start(job->priority)) {
      job_queue_.push(job->key(0), job);  // it keeps its parameters pinned
      return;
    }
    job->dispatched = true;
    job->preparing = true;
    preparing_.begin(job->priority);
    // Each partition pins what its stages read; the job's own pin goes now.
    for (uint32_t p = 0; p < job->partitions; p++) {
      auto item = std::make_unique<PartitionItem>();
      item->job = job;
      item->prepared = job->prepared;
      item->srs = job->srs.share();
      item->partition = p;
      items.push_back(std::move(item));
    }
    job->srs.reset();
  }
  for (uint32_t p = 0; p < items.size(); p++) synth_queue_.push(job->key(p), std::move(items[p]));
  // Synthesis workers waiting for memory with worse partitions give them
  // back for these (pipeline.cpp).
  budget_.poke();
  if (!cfg_.pipeline_enabled) {
    // One job at a time, whole proof: wait for it before dispatching the next.
    std::unique_lock lk(mu_);
    job_cv_.wait(lk, [&] { return job->ended || stopping_; });
  }
}

}  // namespace cuzk::engine
